// The decision view end to end, offscreen: a model trained from the Training dock shows its
// regions behind the data (agreeing with the model's own predictions, following zoom, pan
// and a new 2-D view), LMGC adds one ellipse per class (its shadow or section, or a line
// saying why a class has none, never a degenerate conic) and linear models none, train and
// test points are told apart in the plot and the legend, and exports carry the regions.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves what the zoom test shows (before and after zooming
// and panning) as PNGs in DIR, for looking at.

#include <QAbstractSeries>
#include <QByteArray>
#include <QCoreApplication>
#include <QIODevice>
#include <QImage>
#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QRgb>
#include <QStringList>
#include <QTest>

#include <QChart>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QWheelEvent>

#include "tests/gui/gui_training_support.h"
#include "ui/dataset/dataset_controller.h"
#include "ui/dataset/dataset_document.h"
#include "ui/dataset/dataset_panel.h"
#include "ui/main_window.h"
#include "ui/plot/chart_navigation.h"
#include "ui/plot/decision_overlay.h"
#include "ui/plot/region_image.h"
#include "ui/plot/scatter_view.h"
#include "ui/training/mechanism_form.h"
#include "ui/widgets/number_field.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/training_document.h"
#include "ui/training/training_job.h"

#include "core/models/ellipsoid.h"
#include "core/models/lmgc.h"

using dpstudio::ModelKind;
using dpstudio::ViewKind;
using dpstudio::ui::MainWindow;
using dpstudio::ui::SeriesRole;

namespace {

using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::openDataset;
using dpstudio::test::trainFromDock;
using dpstudio::test::saveScreenshot;

// The distinct region colours in an image (boundary pixels and anything else ignored).
QSet<QRgb> regionColoursIn(const QImage& image, int classes) {
  QSet<QRgb> palette;
  for (int k = 0; k < classes; ++k) palette.insert(dpstudio::ui::regionColor(k));
  QSet<QRgb> found;
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < rgb.height(); y += 3)
    for (int x = 0; x < rgb.width(); x += 3)
      if (const QRgb c = rgb.pixel(x, y) | 0xff000000u; palette.contains(c)) found.insert(c);
  return found;
}

// The classes of the shown model whose ellipse (or strip) core found drawable; the others
// must say why in the title.
int drawableEllipses(const MainWindow& window) {
  int count = 0;
  for (const auto& e : window.training()->view()->geometry.ellipses)
    count += e.drawing != dpstudio::EllipseDrawing::NotDrawn ? 1 : 0;
  return count;
}

// Whether `curves` series are what those make: one per ellipse, and a strip's edges where they
// cross the data's surroundings (none, one or two).
bool curvesMatchDrawings(const MainWindow& window, int curves) {
  int ellipses = 0, strips = 0;
  for (const auto& e : window.training()->view()->geometry.ellipses) {
    ellipses += e.bounded ? 1 : 0;
    strips += e.drawing == dpstudio::EllipseDrawing::Strip ? 1 : 0;
  }
  return curves >= ellipses && curves <= ellipses + 2 * strips;
}

// A title line "no ellipse for A, B (why); C (why)" names every class not drawn.
bool titleExplainsEveryMissingEllipse(const MainWindow& window) {
  const auto& result = *window.training()->result();
  const auto& ellipses = window.training()->view()->geometry.ellipses;
  QStringList reasons;
  for (const QString& line : window.scatterView()->chart()->title().split(QStringLiteral("<br>")))
    if (line.contains(QLatin1String("no ellipse for"))) reasons << line;
  const auto perClass = static_cast<std::size_t>(window.training()->view()->geometry.ellipsesPerClass);
  for (std::size_t k = 0; k < ellipses.size(); ++k) {
    const QString name = QString::fromStdString(result.data->train.classNames[k / perClass]);
    if (ellipses[k].drawing == dpstudio::EllipseDrawing::NotDrawn && !reasons.join(QString()).contains(name))
      return false;
  }
  return ellipses.empty() || reasons.size() <= static_cast<qsizetype>(ellipses.size());
}

}  // namespace

class TestDecisionView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void lmgcShowsRegionsAndOneEllipsePerClass_data();
  void lmgcShowsRegionsAndOneEllipsePerClass();
  void linearModelHasRegionsButNoEllipses();
  void regionsAgreeWithTheModel_data();
  void regionsAgreeWithTheModel();
  void trainAndTestPointsAreToldApart();
  void legendKeysHideAndShowARole();
  void zoomRecomputesTheRegions();
  void newViewKeepsTheModel();
  void exportCarriesRegionsAndEllipses();
  void lmgcDrawsEllipsesOnTheDefaultViews_data();
  void lmgcDrawsEllipsesOnTheDefaultViews();
  void privateDegenerateEllipseShowsTheReasonNotLines_data();
  void privateDegenerateEllipseShowsTheReasonNotLines();
  void mixtureDrawsEveryComponentInItsClassColour();

 private:
  QTemporaryDir dir_;
};

// blobs has a public bound from its generator (R = 8); the geometry these cases check was
// measured on blobs in raw units, so they turn R off for it.
void blobsInRawUnits(MainWindow& window) {
  if (window.document()->source().spec.startsWith(QLatin1String("builtin:blobs")))
    window.modelPanel()->form()->normBoundBox()->setChecked(false);
}

void TestDecisionView::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_decision_view"));
}

void TestDecisionView::init() { QSettings().clear(); }

void TestDecisionView::lmgcShowsRegionsAndOneEllipsePerClass_data() {
  QTest::addColumn<QString>("spec");
  QTest::addColumn<int>("rows");
  QTest::addColumn<bool>("shadows");
  QTest::newRow("blobs, 2-D: exact level sets") << QStringLiteral("builtin:blobs:classes=3") << 300 << false;
  QTest::newRow("iris, 4-D, petal features: shadows") << QStringLiteral("builtin:iris") << 150 << true;
}

void TestDecisionView::lmgcShowsRegionsAndOneEllipsePerClass() {
  QFETCH(QString, spec);
  QFETCH(int, rows);
  QFETCH(bool, shadows);
  MainWindow window;
  window.show();
  openDataset(window, spec, rows);
  blobsInRawUnits(window);
  if (shadows) {
    // Petal length against petal width: on the plane through the mean of the sepal
    // measurements all three classes have a region (on the sepal plane only one does).
    QSignalSpy shownData(&window, &MainWindow::datasetShown);
    window.controller()->setViewSpec(dpstudio::ViewSpec{ViewKind::Features, 2, 3, 1});
    QTRY_COMPARE_WITH_TIMEOUT(shownData.count(), 1, kTimeoutMs);
  }
  trainFromDock(window, ModelKind::Lmgc);

  const auto* view = window.scatterView();
  const QImage& regions = view->underlay();
  QCOMPARE(regions.size(), view->plotPixelSize());
  QVERIFY2(regionColoursIn(regions, 3).size() > 1, "the regions show a single class");
  // Every class drawn, or (iris: setosa's Ψ has rank 1, flat along any plane) said why.
  QVERIFY(shadows ? curvesMatchDrawings(window, view->seriesCount(SeriesRole::Curve))
                  : view->seriesCount(SeriesRole::Curve) == 3);
  QVERIFY(view->seriesCount(SeriesRole::Curve) >= 1);
  QVERIFY(titleExplainsEveryMissingEllipse(window));
  QCOMPARE(window.training()->view()->geometry.ellipsesAreShadows, shadows);
  QCOMPARE(view->seriesNames().contains(QStringLiteral("class ellipses")), !shadows);
  QVERIFY(view->chart()->title().contains(QLatin1String("not private")));
  QVERIFY(window.modelPanel()->privacyLabel()->isVisibleTo(window.modelPanel()));
  QVERIFY(window.modelPanel()->privacyLabel()->text().contains(QLatin1String("no mechanism")));
}

void TestDecisionView::linearModelHasRegionsButNoEllipses() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  trainFromDock(window, ModelKind::Softmax);
  QCOMPARE(window.scatterView()->seriesCount(SeriesRole::Curve), 0);
  QVERIFY(window.training()->view()->geometry.ellipses.empty());
  QVERIFY(!window.scatterView()->underlay().isNull());
}

void TestDecisionView::regionsAgreeWithTheModel_data() {
  QTest::addColumn<QString>("spec");
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("model");
  QTest::addColumn<bool>("intercept");
  QTest::newRow("LMGC, blobs") << QStringLiteral("builtin:blobs:classes=3") << 300
                               << static_cast<int>(ModelKind::Lmgc) << false;
  // 64-D rows on a random plane: the lift back to the model's inputs is not trivial.
  QTest::newRow("softmax, digits, random projection") << QStringLiteral("builtin:digits") << 1797
                                                      << static_cast<int>(ModelKind::Softmax) << false;
  // The intercept column must stay at its constant on the plane (core/learn/model_view.h).
  QTest::newRow("logistic, iris, intercept") << QStringLiteral("builtin:iris") << 150
                                             << static_cast<int>(ModelKind::LogisticRegression) << true;
}

void TestDecisionView::regionsAgreeWithTheModel() {
  // Pixel (column, row) of the image must be the model's prediction at the view point it
  // stands for, lifted to the model's input space: this catches a flipped or shifted image.
  QFETCH(QString, spec);
  QFETCH(int, rows);
  QFETCH(int, model);
  QFETCH(bool, intercept);
  MainWindow window;
  window.show();
  openDataset(window, spec, rows);
  blobsInRawUnits(window);
  window.modelPanel()->form()->interceptBox()->setChecked(intercept);
  trainFromDock(window, static_cast<ModelKind>(model));
  const QImage image = window.scatterView()->underlay();
  const QRectF rect = window.scatterView()->underlayRect();
  const auto& result = *window.training()->result();
  const auto& projection = window.training()->view()->geometry.projection;
  int checked = 0;
  for (int row = 5; row < image.height(); row += 37) {
    for (int column = 5; column < image.width(); column += 41) {
      const QRgb colour = image.pixel(column, row) | 0xff000000u;
      Eigen::MatrixXd u(1, 2);
      u(0, 0) = rect.left() + rect.width() * (column + 0.5) / image.width();
      u(0, 1) = rect.bottom() - rect.height() * (row + 0.5) / image.height();
      const Eigen::MatrixXd x = projection.lift(u);
      if (intercept) QCOMPARE(x(0, x.cols() - 1), std::sqrt(0.5));  // on the model's inputs
      const int predicted = result.model.model->predict(result.model.theta, x)[0];
      if (colour != dpstudio::ui::regionColor(predicted)) {
        // Boundary pixels are drawn darker; anything else is a mismatch.
        QVERIFY2(image.pixel(column + 1, row) != image.pixel(column, row) ||
                     image.pixel(column, row + 1) != image.pixel(column, row),
                 qPrintable(QStringLiteral("pixel (%1, %2)").arg(column).arg(row)));
        continue;
      }
      ++checked;
    }
  }
  QVERIFY(checked > 50);
}

void TestDecisionView::trainAndTestPointsAreToldApart() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:blobs"), 300);
  trainFromDock(window, ModelKind::Lmgc);
  const auto* view = window.scatterView();
  const auto& result = *window.training()->result();
  QCOMPARE(view->pointCount(SeriesRole::Points), static_cast<int>(result.data->train.rows()));
  QCOMPARE(view->pointCount(SeriesRole::TestPoints), static_cast<int>(result.data->test.rows()));
  QVERIFY(result.data->test.rows() > 0);
  int hollow = 0;
  for (QAbstractSeries* s : view->chart()->series())
    if (auto* scatter = qobject_cast<QScatterSeries*>(s); scatter && scatter->count() > 0)
      hollow += scatter->brush().style() == Qt::NoBrush ? 1 : 0;
  QCOMPARE(hollow, 3);  // one ring series per class: the test points
  // The legend lists the classes and keys for "training points" and "test points".
  QStringList legend;
  for (QLegendMarker* marker : view->chart()->legend()->markers())
    if (marker->isVisible()) legend << marker->label();
  // With LMGC's curves: as trained, class 2's ellipse and the strips of classes 0 and 1 (Ψ of
  // rank 1); closed for the non-private picture (ellipsoid_closing.h), three ellipses.
  QCOMPARE(legend, (QStringList{QStringLiteral("class 0"), QStringLiteral("class 1"), QStringLiteral("class 2"),
                                QStringLiteral("training points"), QStringLiteral("test points"),
                                QStringLiteral("class ellipses")}));
}

void TestDecisionView::legendKeysHideAndShowARole() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:blobs"), 300);
  trainFromDock(window, ModelKind::Lmgc);
  QChart* chart = window.scatterView()->chart();
  auto markerNamed = [chart](const QString& label) -> QLegendMarker* {
    for (QLegendMarker* marker : chart->legend()->markers())
      if (marker->label() == label) return marker;
    return nullptr;
  };
  auto visibleSeries = [chart](SeriesRole role) {
    int n = 0;
    for (QAbstractSeries* s : chart->series())
      n += s->isVisible() && s->property("dpstudioRole").toInt() == static_cast<int>(role) ? 1 : 0;
    return n;
  };
  QLegendMarker* test = markerNamed(QStringLiteral("test points"));
  QVERIFY(test);
  emit test->clicked();
  QCOMPARE(visibleSeries(SeriesRole::TestPoints), 0);
  QCOMPARE(visibleSeries(SeriesRole::Points), 3);
  QVERIFY(markerNamed(QStringLiteral("test points"))->isVisible());  // still there to click back
  emit markerNamed(QStringLiteral("test points"))->clicked();
  QCOMPARE(visibleSeries(SeriesRole::TestPoints), 3);
  // A class entry hides that class everywhere: its training and test points and its ellipse
  // (class 2's is an ellipse; the others' Ψ have rank 1: strips).
  const int curves = visibleSeries(SeriesRole::Curve);
  QVERIFY(window.training()->view()->geometry.ellipses.at(2).bounded);
  emit markerNamed(QStringLiteral("class 2"))->clicked();
  QCOMPARE(visibleSeries(SeriesRole::Points), 2);
  QCOMPARE(visibleSeries(SeriesRole::TestPoints), 2);
  QCOMPARE(visibleSeries(SeriesRole::Curve), curves - 1);
}

void TestDecisionView::zoomRecomputesTheRegions() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:blobs:classes=3"), 300);
  blobsInRawUnits(window);
  trainFromDock(window, ModelKind::Softmax);
  auto* view = window.scatterView();
  saveScreenshot(&window, QStringLiteral("zoom-0-before"));
  const QRectF before = view->visibleDataRect();
  QSignalSpy updated(window.decisionOverlay(), &dpstudio::ui::DecisionOverlay::regionsUpdated);
  const QRectF plot = view->chart()->plotArea();
  view->navigation()->zoomAt(view->mapFromScene(view->chart()->mapToScene(plot.center())), 2.0);
  QVERIFY(view->visibleDataRect().width() < 0.6 * before.width());
  QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 1 && !window.decisionOverlay()->isComputingRegions(), kTimeoutMs);
  const QRectF after = view->visibleDataRect();
  QCOMPARE(view->underlayRect(), after);
  saveScreenshot(&window, QStringLiteral("zoom-1-zoomed"));
  // Panning moves the range; the regions follow.
  view->navigation()->panBy(QPointF(40, 0));
  QVERIFY(view->visibleDataRect().left() < after.left());
  QTRY_VERIFY_WITH_TIMEOUT(view->underlayRect() == view->visibleDataRect(), kTimeoutMs);
  saveScreenshot(&window, QStringLiteral("zoom-2-panned"));
  view->resetZoom();
  QTRY_VERIFY_WITH_TIMEOUT(view->underlayRect() == before, kTimeoutMs);

  // The wheel zooms about the cursor, as the navigation's own events.
  const QPointF centre = view->mapFromScene(view->chart()->mapToScene(plot.center()));
  QWheelEvent wheel(centre, view->viewport()->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(view->viewport(), &wheel);
  QVERIFY(view->visibleDataRect().width() < 0.8 * before.width());
  QTRY_VERIFY_WITH_TIMEOUT(view->underlayRect() == view->visibleDataRect(), kTimeoutMs);
}

void TestDecisionView::newViewKeepsTheModel() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:iris"), 150);
  trainFromDock(window, ModelKind::Lmgc);
  const auto result = window.training()->result();
  QSignalSpy shown(&window, &MainWindow::modelShown);
  window.datasetPanel()->setViewKind(ViewKind::RandomProjection);
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
  QCOMPARE(window.training()->result(), result);  // the same model, not retrained
  QCOMPARE(window.training()->view()->spec.kind, ViewKind::RandomProjection);
  QVERIFY(curvesMatchDrawings(window, window.scatterView()->seriesCount(SeriesRole::Curve)));
  QVERIFY(titleExplainsEveryMissingEllipse(window));
  QTRY_VERIFY_WITH_TIMEOUT(!window.decisionOverlay()->isComputingRegions() &&
                               !window.scatterView()->underlay().isNull(),
                           kTimeoutMs);
  QVERIFY(window.scatterView()->chart()->axes(Qt::Horizontal).first()->titleText().startsWith(
      QLatin1String("random direction 1")));
}

void TestDecisionView::exportCarriesRegionsAndEllipses() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:blobs:classes=3"), 300);
  blobsInRawUnits(window);
  trainFromDock(window, ModelKind::Lmgc);
  const QString png = dir_.filePath(QStringLiteral("decision.png"));
  const QString svg = dir_.filePath(QStringLiteral("decision.svg"));
  QString error;
  QVERIFY2(window.scatterView()->exportImage(png, &error), qPrintable(error));
  QVERIFY2(window.scatterView()->exportImage(svg, &error), qPrintable(error));
  QVERIFY(regionColoursIn(QImage(png), 3).size() > 1);
  QFile file(svg);
  QVERIFY(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  QCOMPARE(text.count("<image"), 1);  // the regions, a raster by nature
  // Every point is a shape; the three ellipses are polylines of 181 points.
  QVERIFY(text.count("<path") + text.count("<ellipse") + text.count("<circle") + text.count("<polyline") >= 300);
}

// Issue 9 item 4 and issue 33 item 6: iris said "3 ellipse(s) not drawn" and digits drew none;
// then iris drew two strips and one ellipse. On the views a dataset opens with (iris: the two
// petal features; digits: a random plane) non-private LMGC, converged and its ellipsoids
// closed for the picture, draws an ellipse for every class, and says why of any other.
void TestDecisionView::lmgcDrawsEllipsesOnTheDefaultViews_data() {
  QTest::addColumn<QString>("spec");
  QTest::addColumn<int>("rows");
  QTest::addColumn<int>("atLeast");
  QTest::addColumn<int>("onPcaPlane");  // how many on the PCA plane, after switching to it; -1: not tried
  // Each class's closed contour holding half of its points (a non-private model), on every
  // view: as trained, iris's petal plane showed setosa and virginica as strips and digits'
  // random plane through 64-D none of ten (it sees mostly flat directions of the Ψ_c).
  QTest::newRow("blobs") << QStringLiteral("builtin:blobs") << 300 << 3 << -1;
  QTest::newRow("moons") << QStringLiteral("builtin:moons") << 300 << 2 << -1;
  QTest::newRow("iris, petal plane") << QStringLiteral("builtin:iris") << 150 << 3 << 3;
  QTest::newRow("digits, random plane") << QStringLiteral("builtin:digits") << 1797 << 10 << 10;
}

void TestDecisionView::lmgcDrawsEllipsesOnTheDefaultViews() {
  QFETCH(QString, spec);
  QFETCH(int, rows);
  QFETCH(int, atLeast);
  MainWindow window;
  window.show();
  openDataset(window, spec, rows);
  blobsInRawUnits(window);
  // As a user trains: the dock's defaults (3000 iterations). Digits takes ~1.5 s here (it
  // took tens of seconds on a loaded machine before issue 14's solver): a generous timeout.
  auto* form = window.modelPanel()->form();
  form->setModelKind(ModelKind::Lmgc);
  QCOMPARE(form->settings().maxIterations, 3000);
  QSignalSpy shown(&window, &MainWindow::modelShown);
  window.modelPanel()->trainButton()->click();
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 10 * kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!window.decisionOverlay()->isComputingRegions() && !window.scatterView()->underlay().isNull(),
                           kTimeoutMs);
  const auto& result = *window.training()->result();
  QCOMPARE(result.model.summary.termination, dpstudio::Termination::Converged);
  const int curves = window.scatterView()->seriesCount(SeriesRole::Curve);
  QVERIFY(curvesMatchDrawings(window, curves));
  QVERIFY2(drawableEllipses(window) >= atLeast,
           qPrintable(QStringLiteral("%1 ellipses or strips drawn").arg(drawableEllipses(window))));
  QVERIFY(titleExplainsEveryMissingEllipse(window));
  QVERIFY(!window.scatterView()->chart()->title().contains(QLatin1String("not drawn: unbounded")));
  if (drawableEllipses(window) == 0)
    QVERIFY(window.scatterView()->chart()->title().contains(QLatin1String("the PCA view")));
  saveScreenshot(&window, QStringLiteral("lmgc-%1").arg(spec.section(QLatin1Char(':'), 1)));

  QFETCH(int, onPcaPlane);
  if (onPcaPlane < 0) return;
  QSignalSpy redrawn(&window, &MainWindow::modelShown);
  window.datasetPanel()->setViewKind(ViewKind::Pca);
  QTRY_COMPARE_WITH_TIMEOUT(redrawn.count(), 1, kTimeoutMs);
  QCOMPARE(window.training()->result()->model.summary.termination, dpstudio::Termination::Converged);
  QCOMPARE(drawableEllipses(window), onPcaPlane);
  QVERIFY(curvesMatchDrawings(window, window.scatterView()->seriesCount(SeriesRole::Curve)));
  // Each passes through its class's points: none lies beyond the data's range.
  QVERIFY(!window.scatterView()->chart()->title().contains(QLatin1String("beyond the data")));
  saveScreenshot(&window, QStringLiteral("lmgc-%1-pca").arg(spec.section(QLatin1Char(':'), 1)));
}

// A private model whose noise left a class's Ψ indefinite (hyperbolas) or nearly singular (an
// ellipse far wider than the data, drawn before as two parallel lines) draws no curve for
// that class and says why in the title; the other classes and the dashed non-private
// reference are drawn as before.
void TestDecisionView::privateDegenerateEllipseShowsTheReasonNotLines_data() {
  QTest::addColumn<double>("smallEigenvalue");  // relative to the largest; replaces the smallest
  QTest::addColumn<QString>("reason");  // empty: drawn, so the title gives no reason
  QTest::addColumn<int>("curves");      // the private model's curves: 2 ellipses + class 0's
  QTest::newRow("indefinite") << -0.5 << QStringLiteral("negative eigenvalue") << 2;
  QTest::newRow("nearly singular") << 1e-7 << QStringLiteral("wider than the data: two near-parallel lines") << 2;
  // Exactly singular: the section is a strip, drawn as its two edges and named a strip.
  QTest::newRow("singular") << 0.0 << QString() << 4;
}

void TestDecisionView::privateDegenerateEllipseShowsTheReasonNotLines() {
  QFETCH(double, smallEigenvalue);
  QFETCH(QString, reason);
  QFETCH(int, curves);
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:blobs:classes=3"), 300);
  blobsInRawUnits(window);
  trainFromDock(window, ModelKind::Lmgc, 3000);
  const auto base = window.training()->result();
  QCOMPARE(drawableEllipses(window), 3);

  auto result = std::make_shared<dpstudio::ui::TrainingResult>(*base);
  dpstudio::ui::PrivateRelease release;
  release.model = base->model;
  release.report.mechanism = "dplmgc";
  release.report.calibration = dpstudio::mech::Calibration::Corrected;
  release.report.epsilon = 1;
  const auto& lmgc = dynamic_cast<const dpstudio::LmgcModel&>(*release.model.model);
  const dpstudio::ClassEllipsoid e = dpstudio::extractEllipsoid(lmgc.classMatrix(release.model.theta, 0));
  Eigen::Vector2d eigenvalues(smallEigenvalue * e.eigenvalues[1], e.eigenvalues[1]);
  const Eigen::MatrixXd shape = e.eigenvectors * eigenvalues.asDiagonal() * e.eigenvectors.transpose();
  const Eigen::Index D = lmgc.augmentedDim();
  Eigen::Map<Eigen::MatrixXd>(release.model.theta.data(), D, D) = dpstudio::phiFromEllipsoid(shape, e.centre, e.offset);
  result->release = std::move(release);
  auto view = dpstudio::ui::computeModelView(*result, window.training()->view()->spec);
  QVERIFY(view);
  window.decisionOverlay()->show(result, std::make_shared<const dpstudio::ui::ModelView>(std::move(view).value()));

  const auto* scatter = window.scatterView();
  QCOMPARE(scatter->seriesCount(SeriesRole::Curve), curves);      // the private model
  QCOMPARE(scatter->seriesCount(SeriesRole::ReferenceCurve), 3);  // the non-private one, dashed
  const QString title = scatter->chart()->title();
  const QString className = QString::fromStdString(result->data->train.classNames[0]);
  if (reason.isEmpty()) {
    QVERIFY2(!title.contains(QLatin1String("no ellipse for")), qPrintable(title));
    return;
  }
  QVERIFY2(title.contains(QStringLiteral("no ellipse for %1 (").arg(className)) && title.contains(reason),
           qPrintable(title));
}

// Issue 34 item 3: a mixture of two Gaussians per class draws two ellipses a class, each named
// by its class and component and drawn in its class's colour; then, in the same window, the
// same mixture trained privately (DP-LMGC) with its data-independent centres.
void TestDecisionView::mixtureDrawsEveryComponentInItsClassColour() {
  MainWindow window;
  window.show();
  openDataset(window, QStringLiteral("builtin:blobs:classes=3"), 300);
  auto* form = window.modelPanel()->form();
  form->setModelKind(ModelKind::Lmgc);
  QVERIFY(form->componentsBox()->isVisibleTo(form));
  form->componentsBox()->setValue(2);
  trainFromDock(window, ModelKind::Lmgc, 3000);
  QCOMPARE(window.training()->result()->settings.learner.components, 2);
  const auto& geometry = window.training()->view()->geometry;
  QCOMPARE(geometry.ellipses.size(), std::size_t(6));
  QCOMPARE(geometry.ellipsesPerClass, dpstudio::Index(2));
  QVERIFY2(drawableEllipses(window) >= 3, qPrintable(QString::number(drawableEllipses(window))));
  const auto* scatter = window.scatterView();
  QVERIFY(curvesMatchDrawings(window, scatter->seriesCount(SeriesRole::Curve)));
  QVERIFY(scatter->chart()->title().contains(QLatin1String("not private")));

  // Privately: DP-LMGC with the declared bound, the mixture's calibration.
  dpstudio::test::useExperimentNoise(window);
  form->normBoundBox()->setChecked(true);
  form->normBoundField()->setValue(6.0);
  form->mechanismForm()->setMechanism(dpstudio::mech::MechanismKind::DpLmgc);
  form->mechanismForm()->epsilonField()->setValue(10.0);
  QVERIFY(form->componentsBox()->isVisibleTo(form));
  trainFromDock(window, ModelKind::Lmgc, 3000);
  const auto result = window.training()->result();
  QVERIFY(result->isPrivate());
  QCOMPARE(result->settings.learner.components, 2);
  QCOMPARE(result->release->report.calibrated(std::string("r")), 4.0);  // (C − 1)·M
  QCOMPARE(window.training()->view()->geometry.ellipses.size(), std::size_t(6));
  QCOMPARE(window.training()->view()->referenceEllipses.size(), std::size_t(6));
  QVERIFY(titleExplainsEveryMissingEllipse(window) || drawableEllipses(window) == 6);
}

QTEST_MAIN(TestDecisionView)
#include "test_decision_view.moc"

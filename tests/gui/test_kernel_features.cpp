// The Training dock's RBF kernel (random Fourier features), offscreen: γ checked as typed by
// core's rule (an invalid γ disables Train with core's reason, an unticked kernel does not
// care); not offered with LMGC, the user's choice kept for the next model; the live
// calibration counts d = D (D + 1 with an intercept), as mech::calibrate does; logistic
// regression on XOR goes from chance to clearly separated with the kernel, with curved
// regions of both classes and the map in the Result group and the plot's notes; objective
// perturbation trains on the features with noise of dimension D + 1; the choices persist.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the window after the kernel trainings, and the dock after
// the private one, for looking at.

#include <QImage>
#include <QRgb>
#include <QTest>
#include <QWidget>

#include <QCheckBox>
#include <QChart>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>

#include <algorithm>
#include <utility>

#include "core/data/split.h"
#include "core/mechanisms/mechanism.h"
#include "tests/gui/gui_training_support.h"
#include "ui/dataset/dataset_document.h"
#include "ui/main_window.h"
#include "ui/plot/region_image.h"
#include "ui/plot/scatter_view.h"
#include "ui/training/kernel_fields.h"
#include "ui/training/mechanism_form.h"
#include "ui/training/model_panel.h"
#include "ui/training/model_settings_form.h"
#include "ui/training/training_document.h"
#include "ui/widgets/number_field.h"

using dpstudio::Index;
using dpstudio::ModelKind;
using dpstudio::mech::MechanismKind;
using dpstudio::test::isolateSettings;
using dpstudio::test::kTimeoutMs;
using dpstudio::test::openDataset;
using dpstudio::test::trainFromDock;
using dpstudio::test::saveScreenshot;
using dpstudio::ui::KernelFields;
using dpstudio::ui::MainWindow;

namespace {

const QString kXor = QStringLiteral("builtin:xor");
constexpr int kXorRows = 300;

KernelFields* kernel(MainWindow& window) { return window.modelPanel()->form()->kernelFields(); }

// XOR has no documented public bound: R = 2 is entered, as docs/cli.md's example does (the
// clusters sit at (±1, ±1) with σ = 0.2).
void openXor(MainWindow& window) {
  openDataset(window, kXor, kXorRows);
  auto* form = window.modelPanel()->form();
  form->normBoundBox()->setChecked(true);
  form->normBoundField()->setText(QStringLiteral("2"));
}

// Ticks the kernel box as a user would, with D as given.
void useKernel(MainWindow& window, int dim) {
  KernelFields* fields = kernel(window);
  fields->dimBox()->setValue(dim);
  if (!fields->enableBox()->isChecked()) QTest::mouseClick(fields->enableBox(), Qt::LeftButton);
  QVERIFY(fields->enableBox()->isChecked());
}

// The region colours present in the view's underlay (boundary pixels ignored).
QSet<QRgb> regionColours(const QImage& image, int classes) {
  QSet<QRgb> palette;
  for (int k = 0; k < classes; ++k) palette.insert(dpstudio::ui::regionColor(k));
  QSet<QRgb> found;
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  for (int y = 0; y < rgb.height(); y += 2)
    for (int x = 0; x < rgb.width(); x += 2)
      if (const QRgb c = rgb.pixel(x, y) | 0xff000000u; palette.contains(c)) found.insert(c);
  return found;
}

// Pixel rows whose two ends lie in different regions, by direction: {class 0 on the left,
// class 1 on the left}. A straight boundary gives every such row the same direction; XOR's
// kernel boundary gives both (its upper half runs one way, its lower half the other).
std::pair<int, int> rowDirections(const QImage& image) {
  const QRgb first = dpstudio::ui::regionColor(0), second = dpstudio::ui::regionColor(1);
  const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
  std::pair<int, int> out{0, 0};
  for (int y = 0; y < rgb.height(); ++y) {
    QRgb left = 0, right = 0;
    for (int x = 0; x < rgb.width(); ++x) {
      const QRgb c = rgb.pixel(x, y) | 0xff000000u;
      if (c != first && c != second) continue;  // a boundary or reference pixel
      if (left == 0) left = c;
      right = c;
    }
    if (left == first && right == second) ++out.first;
    if (left == second && right == first) ++out.second;
  }
  return out;
}

// n of XOR's training part under the default split.
Index xorTrainingRows(MainWindow& window) {
  const auto& data = *window.document()->dataset();
  const auto split = dpstudio::stratifiedSplit(data.y, data.classes(), 0.25, 1);
  return static_cast<Index>(split.value().train.size());
}

}  // namespace

class TestKernelFeatures : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void invalidGammaDisablesTrainWithCoresReason_data();
  void invalidGammaDisablesTrainWithCoresReason();
  void rowsShownOnlyWhileTicked();
  void notOfferedWithLmgc();
  void calibrationCountsTheFeatures();
  void noNormBoundNeededForPrivateTrainingOnFeatures();
  void kernelSeparatesXor();
  void objectivePerturbationTrainsOnTheFeatures();
  void choicesPersist();

 private:
  QTemporaryDir dir_;
};

void TestKernelFeatures::initTestCase() {
  QVERIFY(dir_.isValid());
  isolateSettings(dir_.filePath(QStringLiteral("settings")), QStringLiteral("test_kernel_features"));
}

void TestKernelFeatures::init() { QSettings().clear(); }

void TestKernelFeatures::invalidGammaDisablesTrainWithCoresReason_data() {
  QTest::addColumn<QString>("text");
  QTest::addColumn<QString>("reason");
  const QString rule = QStringLiteral("rff-gamma must be finite and > 0");  // RandomFeaturesSpec::validate()
  QTest::newRow("zero gamma") << "0" << rule;
  QTest::newRow("negative gamma") << "-1" << rule;
  QTest::newRow("infinite gamma") << "inf" << rule;
  QTest::newRow("gamma not a number") << "x" << QStringLiteral("is not a number");
}

void TestKernelFeatures::invalidGammaDisablesTrainWithCoresReason() {
  QFETCH(QString, text);
  QFETCH(QString, reason);
  MainWindow window;
  window.show();
  openXor(window);
  useKernel(window, 50);
  QPushButton* train = window.modelPanel()->trainButton();
  QVERIFY(train->isEnabled());
  dpstudio::ui::NumberField* gamma = kernel(window)->gammaField();
  const QString good = gamma->text();

  gamma->selectAll();
  QTest::keyClicks(gamma, text);  // typed, as a user would
  QVERIFY(!train->isEnabled());
  QVERIFY2(gamma->problem().contains(reason), qPrintable(gamma->problem()));
  QVERIFY2(gamma->toolTip().contains(reason), qPrintable(gamma->toolTip()));  // marked in place
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(QStringLiteral("Kernel \u03b3: ")));
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(reason));
  QVERIFY(train->toolTip().contains(reason));

  // A γ nobody uses stops nothing.
  QTest::mouseClick(kernel(window)->enableBox(), Qt::LeftButton);
  QVERIFY(!kernel(window)->isUsed());
  QVERIFY2(train->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));
  QTest::mouseClick(kernel(window)->enableBox(), Qt::LeftButton);
  QVERIFY(!train->isEnabled());

  gamma->setText(good);
  QVERIFY(train->isEnabled());
}

void TestKernelFeatures::rowsShownOnlyWhileTicked() {
  MainWindow window;
  window.show();
  KernelFields* fields = kernel(window);
  auto* panel = window.modelPanel();
  QVERIFY(!fields->enableBox()->isChecked());  // off by default: the models stay linear
  QVERIFY(fields->enableBox()->isVisibleTo(panel));
  for (QWidget* row : std::initializer_list<QWidget*>{fields->dimBox(), fields->gammaField(), fields->seedBox(),
                                                      fields->noteLabel()})
    QVERIFY(!row->isVisibleTo(panel));
  QVERIFY(!window.modelPanel()->form()->settings().data.preprocess.randomFeatures);

  QTest::mouseClick(fields->enableBox(), Qt::LeftButton);
  for (QWidget* row : std::initializer_list<QWidget*>{fields->dimBox(), fields->gammaField(), fields->seedBox(),
                                                      fields->noteLabel()})
    QVERIFY(row->isVisibleTo(panel));
  QCOMPARE(fields->dimBox()->value(), 200);
  QCOMPARE(fields->gammaField()->value(), std::optional<double>(1.0));
  QCOMPARE(fields->seedBox()->value(), 1);
  const auto map = window.modelPanel()->form()->settings().data.preprocess.randomFeatures;
  QVERIFY(map.has_value());
  QCOMPARE(map->dim, Index{200});
  QCOMPARE(map->gamma, 1.0);
  QCOMPARE(map->seed, std::uint64_t{1});
  // The note: free privacy-wise, and which units γ is in (they follow the norm bound).
  QVERIFY(fields->noteLabel()->text().contains(QLatin1String("no privacy cost")));
  QVERIFY(fields->noteLabel()->text().contains(QLatin1String("data's own units")));
  window.modelPanel()->form()->unitRowsBox()->setChecked(true);
  QVERIFY(fields->noteLabel()->text().contains(QLatin1String("after the norm bound R / unit-row scaling")));
}

void TestKernelFeatures::notOfferedWithLmgc() {
  MainWindow window;
  window.show();
  openXor(window);
  useKernel(window, 50);
  auto* form = window.modelPanel()->form();
  KernelFields* fields = kernel(window);

  form->setModelKind(ModelKind::Lmgc);
  QVERIFY(!fields->enableBox()->isEnabled());
  QVERIFY(!fields->enableBox()->isChecked());
  QVERIFY(!fields->dimBox()->isVisibleTo(window.modelPanel()));
  QVERIFY2(fields->enableBox()->toolTip().contains(QLatin1String("Not with LMGC")),
           qPrintable(fields->enableBox()->toolTip()));
  QVERIFY(!form->settings().data.preprocess.randomFeatures);
  QVERIFY(window.modelPanel()->trainButton()->isEnabled());  // LMGC itself trains

  // A model that can use it offers it again, but never turns it back on by itself (issue 9:
  // objective perturbation on digits chose logistic regression and the kernel came back).
  form->setModelKind(ModelKind::Softmax);
  QVERIFY(fields->enableBox()->isEnabled());
  QVERIFY(!fields->enableBox()->isChecked());
  QVERIFY(!form->settings().data.preprocess.randomFeatures);
  useKernel(window, 50);
  QCOMPARE(form->settings().data.preprocess.randomFeatures->dim, Index{50});

  // DP-LMGC trains LMGC only: no kernel either.
  form->mechanismForm()->setMechanism(MechanismKind::DpLmgc);
  QCOMPARE(form->modelKind(), ModelKind::Lmgc);
  QVERIFY(!fields->enableBox()->isEnabled());
  QVERIFY(!form->settings().data.preprocess.randomFeatures);
}

void TestKernelFeatures::calibrationCountsTheFeatures() {
  MainWindow window;
  window.show();
  openXor(window);
  auto* form = window.modelPanel()->form();
  form->setModelKind(ModelKind::LogisticRegression);
  auto* mechanism = form->mechanismForm();
  mechanism->setMechanism(MechanismKind::Objective);
  mechanism->epsilonField()->setValue(1.0);
  const Index n = xorTrainingRows(window);
  const auto expected = [&](Index d) {
    dpstudio::mech::MechanismOptions options;
    options.kind = MechanismKind::Objective;
    options.learner.kind = ModelKind::LogisticRegression;
    options.learner.lambda = dpstudio::defaultPrivateLambda(ModelKind::LogisticRegression);  // the dock's, private
    options.epsilon = 1.0;
    return dpstudio::mech::calibrate(options, {n, d, 2}).value();
  };
  // Every derived value, the noise dimension and E‖b‖ are core's for d.
  const auto checkAgainst = [&](Index d) {
    mechanism->flushCalibration();
    QVERIFY(mechanism->calibration().has_value());
    const auto& shown = *mechanism->calibration();
    const auto want = expected(d);
    QCOMPARE(shown.noiseDimension, d);
    QCOMPARE(shown.noiseDimension, want.noiseDimension);
    QCOMPARE(shown.expectedNoiseNorm, want.expectedNoiseNorm);
    QCOMPARE(shown.rows().size(), want.rows().size());
    for (const auto& value : want.rows()) QCOMPARE(*shown.value(value.key), value.value);
  };

  checkAgainst(2);  // XOR's two features
  const double rawNoise = mechanism->calibration()->expectedNoiseNorm;
  useKernel(window, 120);
  checkAgainst(120);  // d = D, whatever the rows were
  QVERIFY(mechanism->calibration()->expectedNoiseNorm > rawNoise);  // the same noise rate over more coordinates
  form->interceptBox()->setChecked(true);
  checkAgainst(121);  // D + 1
  kernel(window)->dimBox()->setValue(30);
  checkAgainst(31);
  QTest::mouseClick(kernel(window)->enableBox(), Qt::LeftButton);  // off again
  checkAgainst(3);

  // While γ is invalid there is no calibration, and the reason says why.
  QTest::mouseClick(kernel(window)->enableBox(), Qt::LeftButton);
  kernel(window)->gammaField()->setText(QStringLiteral("0"));
  mechanism->flushCalibration();
  QVERIFY(!mechanism->calibration().has_value());
  kernel(window)->gammaField()->setText(QStringLiteral("2"));
  checkAgainst(31);
}

void TestKernelFeatures::noNormBoundNeededForPrivateTrainingOnFeatures() {
  // ‖φ(x)‖ ≤ 1 for every row: the features meet the privacy proofs' assumption by
  // construction, so a private mechanism needs no bound R (core checks the rows it trains on).
  MainWindow window;
  window.show();
  openDataset(window, kXor, kXorRows);
  auto* form = window.modelPanel()->form();
  form->setModelKind(ModelKind::LogisticRegression);
  form->mechanismForm()->setMechanism(MechanismKind::Output);
  QVERIFY(!form->normBoundBox()->isChecked());
  QVERIFY(!window.modelPanel()->trainButton()->isEnabled());
  QVERIFY(window.modelPanel()->problemLabel()->text().contains(QLatin1String("Norm bound R")));
  useKernel(window, 40);
  QVERIFY2(window.modelPanel()->trainButton()->isEnabled(), qPrintable(window.modelPanel()->problemLabel()->text()));
  trainFromDock(window, ModelKind::LogisticRegression, 200);
  QVERIFY(window.training()->result()->isPrivate());
  QCOMPARE(window.training()->result()->release->report.noiseDimension, Index{40});
}

void TestKernelFeatures::kernelSeparatesXor() {
  MainWindow window;
  window.show();
  openXor(window);
  auto* panel = window.modelPanel();

  // No line separates XOR.
  trainFromDock(window, ModelKind::LogisticRegression, 500);
  const double linear = *window.training()->result()->testAccuracy;
  QVERIFY2(linear <= 0.75, qPrintable(QString::number(linear)));
  QVERIFY(!panel->featuresLabel()->isVisibleTo(panel));
  const auto straight = rowDirections(window.scatterView()->underlay());
  QCOMPARE(std::min(straight.first, straight.second), 0);  // a straight boundary, if any

  useKernel(window, 200);
  trainFromDock(window, ModelKind::LogisticRegression, 500);
  const auto& result = *window.training()->result();
  const double kernelAccuracy = *result.testAccuracy;
  QVERIFY2(kernelAccuracy >= 0.9, qPrintable(QString::number(kernelAccuracy)));
  QVERIFY(result.trainAccuracy >= 0.9);
  QCOMPARE(result.model.model->inputDim(), Index{200});
  // The view plots the rows before the map, in XOR's own plane.
  QCOMPARE(window.training()->view()->geometry.trainCoords.rows(), result.data->train.rows());
  QVERIFY(window.training()->view()->geometry.projection.hasFeatureMap());

  const QImage regions = window.scatterView()->underlay();
  QVERIFY(!regions.isNull());
  QCOMPARE(regionColours(regions, 2).size(), 2);  // both classes have regions
  const auto curved = rowDirections(regions);
  QVERIFY2(std::min(curved.first, curved.second) > regions.height() / 5,
           qPrintable(QStringLiteral("not XOR's regions: %1 rows one way, %2 the other")
                          .arg(curved.first)
                          .arg(curved.second)));

  // The Result group and the plot say what the model reads.
  QVERIFY(panel->featuresLabel()->isVisibleTo(panel));
  QCOMPARE(panel->featuresLabel()->text(),
           QStringLiteral("RBF kernel: D = 200 random Fourier features, \u03b3 = 1, seed 1"));
  const QString title = window.scatterView()->chart()->title();
  QVERIFY2(title.contains(QStringLiteral("RBF kernel via D = 200 random Fourier features (\u03b3 = 1)")),
           qPrintable(title));
  QVERIFY(title.contains(QLatin1String("norm bound R = 2")));
  saveScreenshot(&window, QStringLiteral("kernel-xor-window"));
}

void TestKernelFeatures::objectivePerturbationTrainsOnTheFeatures() {
  MainWindow window;
  window.show();
  openXor(window);
  auto* form = window.modelPanel()->form();
  form->interceptBox()->setChecked(true);
  form->setModelKind(ModelKind::LogisticRegression);
  auto* mechanism = form->mechanismForm();
  mechanism->setMechanism(MechanismKind::Objective);
  mechanism->epsilonField()->setValue(10.0);
  useKernel(window, 100);
  mechanism->flushCalibration();
  QCOMPARE(mechanism->calibration()->noiseDimension, Index{101});  // what the dock promised...
  trainFromDock(window, ModelKind::LogisticRegression, 500);

  const auto& result = *window.training()->result();
  QVERIFY(result.isPrivate());
  QCOMPARE(result.release->report.noiseDimension, Index{101});  // ...is what was drawn: D + 1
  QCOMPARE(result.release->model.model->inputDim(), Index{101});
  QVERIFY(result.release->testAccuracy.has_value());
  QVERIFY(!window.scatterView()->underlay().isNull());
  auto* panel = window.modelPanel();
  QVERIFY(panel->featuresLabel()->text().endsWith(QLatin1String(", + intercept")));
  QVERIFY(panel->privacyLabel()->text().contains(QLatin1String("DP")));
  QCOMPARE(window.ledger().size(), std::size_t{1});
  const QString title = window.scatterView()->chart()->title();
  QVERIFY2(title.contains(QLatin1String("random Fourier features")), qPrintable(title));
  QVERIFY2(title.contains(QLatin1String("+ intercept")), qPrintable(title));
  saveScreenshot(&window, QStringLiteral("kernel-objective-window"));
  saveScreenshot(panel, QStringLiteral("kernel-objective-panel"));
}

void TestKernelFeatures::choicesPersist() {
  {
    MainWindow window;
    auto* form = window.modelPanel()->form();
    form->setModelKind(ModelKind::HuberSvm);
    KernelFields* fields = kernel(window);
    fields->choose(true);
    fields->dimBox()->setValue(64);
    fields->gammaField()->setText(QStringLiteral("4"));
    fields->seedBox()->setValue(9);
    window.close();  // saves
  }
  {
    MainWindow window;
    KernelFields* fields = kernel(window);
    QVERIFY(fields->enableBox()->isChecked());
    QCOMPARE(fields->dimBox()->value(), 64);
    QCOMPARE(fields->gammaField()->text(), QStringLiteral("4"));
    QCOMPARE(fields->seedBox()->value(), 9);
    const auto map = window.modelPanel()->form()->settings().data.preprocess.randomFeatures;
    QVERIFY(map.has_value());
    QCOMPARE(map->gamma, 4.0);
    // Saved with LMGC chosen: LMGC turned the kernel off, and off it stays (issue 9: an option
    // never comes back on as a side effect of another choice); its values are kept.
    window.modelPanel()->form()->setModelKind(ModelKind::Lmgc);
    window.close();
  }
  MainWindow window;
  auto* form = window.modelPanel()->form();
  QCOMPARE(form->modelKind(), ModelKind::Lmgc);
  QVERIFY(!kernel(window)->isUsed());
  form->setModelKind(ModelKind::LogisticRegression);
  QVERIFY(!kernel(window)->isUsed());
  kernel(window)->choose(true);
  QCOMPARE(form->settings().data.preprocess.randomFeatures->dim, Index{64});
}

QTEST_MAIN(TestKernelFeatures)
#include "test_kernel_features.moc"

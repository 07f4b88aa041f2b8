// Open Model → Show in Decision View (issue 12): a released bundle's regions drawn on the
// current dataset's view through the bundle's own preprocessing, with a title that says so;
// what cannot be drawn (a stateful predictor, another number of features) refused with the
// reason; the bundle's classes matched to the dataset's by name; and a new dataset, a new
// training or View → Hide Opened Model bringing back what was there before.

#include <QImage>
#include <QStringList>
#include <QTest>

#include <QAction>
#include <QLegendMarker>
#include <QTemporaryDir>

#include "core/bundle/bundle_reader.h"
#include "core/learn/regions_through_preprocessing.h"
#include "tests/gui/gui_training_support.h"
#include "tests/gui/prediction_dock_support.h"
#include "ui/bundle/model_export.h"
#include "ui/bundle/opened_model_overlay.h"
#include "ui/dataset/dataset_document.h"
#include "ui/plot/region_image.h"
#include "ui/training/training_controller.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

const QString kBlobs4 = QStringLiteral("builtin:blobs:classes=3,dim=4");  // 300 rows, "class 0" …
const QString kBlobs3Classes = QStringLiteral("builtin:blobs:classes=3");  // 300 rows, 2-D

// Trains `mechanism` at ε = 20 on the window's dataset and writes the model to dir/name.
QString trainAndExport(MainWindow& window, const QString& mechanism, const QTemporaryDir& dir, const QString& name) {
  if (!mechanismForm(window)->setChoice(mechanism)) return {};
  if (mechanism == QLatin1String("prediction")) fields(window)->budgetField()->setValue(50);
  else mechanismForm(window)->epsilonField()->setValue(20.0);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  const QString path = dir.filePath(name);
  return window.exportModelTo(path).isEmpty() ? path : QString();
}

// The dialog File → Open Model shows for `path`, wired to the window as it wires it.
std::unique_ptr<ui::ModelImportDialog> openModel(MainWindow& window, const QString& path) {
  auto loaded = bundle::readBundle(path);
  if (!loaded) qFatal("%s", loaded.error().toString().c_str());
  auto dialog = std::make_unique<ui::ModelImportDialog>(std::move(loaded).value(), path, window.document(),
                                                        &window.ledger());
  QObject::connect(dialog.get(), &ui::ModelImportDialog::showInViewRequested, &window, &MainWindow::showOpenedModel);
  return dialog;
}

void waitForOpenedRegions(MainWindow& window) {
  ui::OpenedModelOverlay* opened = window.openedModelOverlay();
  QTRY_VERIFY_WITH_TIMEOUT(opened->isShowing() && !opened->isComputingRegions() &&
                               !window.scatterView()->underlay().isNull() && opened->shownMap().width > 0,
                           kTimeoutMs);
}

void showInView(MainWindow& window, const QString& path) {
  auto dialog = openModel(window, path);
  QVERIFY2(dialog->showInViewButton()->isEnabled(), qPrintable(dialog->showInViewButton()->toolTip()));
  dialog->showInViewButton()->click();
  waitForOpenedRegions(window);
}

// The regions drawn are core's for the bundle read back from its file, on the dataset's view
// at the image's rectangle and size, pixel for pixel, and the image is their rendering in the
// colours of the dataset's classes of the same names.
void compareWithCore(MainWindow& window, const QString& path) {
  const auto loaded = bundle::readBundle(path);
  QVERIFY(loaded.ok());
  const auto& released = std::get<bundle::BundleModel>(loaded.value().predictor);
  ui::ScatterView* scatter = window.scatterView();
  const QImage& image = scatter->underlay();
  auto map = computeRegionsThroughPreprocessing(loaded.value().preprocessor, *released.model, released.theta,
                                                window.document()->view()->projection,
                                                ui::viewGrid(scatter->underlayRect(), image.size()));
  QVERIFY(map.ok());
  const ui::OpenedModelOverlay* opened = window.openedModelOverlay();
  QVERIFY(opened->shownMap().labels == map.value().labels);
  RegionMap coloured = map.value();
  for (int& label : coloured.labels) label = opened->colours().colour[static_cast<std::size_t>(label)];
  QCOMPARE(image, ui::renderRegionMap(coloured));
}

QStringList legendNames(ui::ScatterView* view) {
  QStringList names;
  for (QLegendMarker* marker : view->chart()->legend()->markers())
    if (marker->isVisible()) names << marker->label();
  return names;
}

}  // namespace

class TestOpenedBundleView : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { isolateSettings(settingsDir_.path(), QStringLiteral("test_opened_bundle_view")); }

  void aBundleIsDrawnOnTheDatasetsViewAndANewDatasetClearsIt() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    openDataset(window, kIris, 150);
    QTemporaryDir dir;
    const QString path = trainAndExport(window, QStringLiteral("output"), dir, QStringLiteral("iris-output.dpmodel"));
    QVERIFY(!path.isEmpty());
    auto* hide = window.findChild<QAction*>(QStringLiteral("hideOpenedModelAction"));
    QVERIFY(!hide->isEnabled());
    saveScreenshot(&window, QStringLiteral("trained-model"));

    showInView(window, path);
    const QString title = window.scatterView()->titleText();
    QVERIFY2(title.startsWith(QStringLiteral("Opened model: iris-output.dpmodel \u2014 ")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("Output perturbation, \u03b5 = 20")), qPrintable(title));
    QVERIFY2(title.endsWith(QStringLiteral("(its own preprocessing)")), qPrintable(title));
    const QString html = window.scatterView()->chart()->title();
    QVERIFY2(html.contains(QStringLiteral("#1b5e20")), qPrintable(html));  // marked private, as a trained model
    QVERIFY2(html.contains(QStringLiteral("norm bound R = 20")), qPrintable(html));
    // Release noise (the GUI's default), but the stratified split read the labels: the bundle
    // disclaims that itself, and the title says so.
    QVERIFY2(html.contains(QStringLiteral("not private as a file, the bundle says: structure read off the data")),
             qPrintable(html));
    QVERIFY(window.openedModelOverlay()->colours().sameClasses);
    QCOMPARE(window.scatterView()->pointCount(), 150);  // the dataset's rows, raw
    QVERIFY(!window.decisionOverlay()->isShowing());
    QVERIFY(hide->isEnabled());
    compareWithCore(window, path);
    saveScreenshot(&window, QStringLiteral("opened-bundle"));

    // Another view of the same dataset: the opened model is drawn again on the new plane.
    ViewSpec random;
    random.kind = ViewKind::RandomProjection;
    random.seed = 5;
    window.controller()->setViewSpec(random);
    QTRY_COMPARE_WITH_TIMEOUT(window.document()->view()->spec.kind, ViewKind::RandomProjection, kTimeoutMs);
    waitForOpenedRegions(window);
    QTRY_VERIFY_WITH_TIMEOUT(!window.trainer()->isBusy(), kTimeoutMs);
    waitForOpenedRegions(window);
    QVERIFY(window.scatterView()->titleText().startsWith(QStringLiteral("Opened model:")));
    compareWithCore(window, path);

    // Another dataset of the same dimension: the opened model's picture goes with the old one.
    openDataset(window, kBlobs4, 300);
    QVERIFY(!window.openedModelOverlay()->isShowing());
    QVERIFY(!window.openedModelOverlay()->requested());
    QVERIFY(!hide->isEnabled());
    QVERIFY(!window.scatterView()->titleText().contains(QStringLiteral("Opened model")));
    QVERIFY(window.scatterView()->underlay().isNull());
  }

  void trainingAgainOrHidingBringsBackTheTrainedModel() {
    MainWindow window;
    window.show();
    openDataset(window, kIris, 150);
    QTemporaryDir dir;
    const QString path = trainAndExport(window, QStringLiteral("output"), dir, QStringLiteral("iris.dpmodel"));
    QVERIFY(!path.isEmpty());
    // The stale note speaks of the trained model: not over the opened one.
    mechanismForm(window)->epsilonField()->setValue(5.0);
    QTRY_VERIFY(window.scatterView()->titleText().contains(QStringLiteral("\u26a0")));
    showInView(window, path);
    QVERIFY2(!window.scatterView()->titleText().contains(QStringLiteral("\u26a0")),
             qPrintable(window.scatterView()->titleText()));

    window.findChild<QAction*>(QStringLiteral("hideOpenedModelAction"))->trigger();
    QVERIFY(!window.openedModelOverlay()->isShowing());
    QVERIFY(window.decisionOverlay()->isShowing(window.training()->result(), window.training()->view()));
    QVERIFY(!window.scatterView()->titleText().startsWith(QStringLiteral("Opened model:")));
    QVERIFY(window.scatterView()->titleText().contains(QStringLiteral("\u26a0")));  // the stale note is back

    showInView(window, path);
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    QVERIFY(!window.openedModelOverlay()->isShowing());
    QVERIFY(!window.openedModelOverlay()->requested());
    QVERIFY(window.decisionOverlay()->isShowing(window.training()->result(), window.training()->view()));
    QVERIFY2(window.scatterView()->titleText().startsWith(QStringLiteral("iris")),
             qPrintable(window.scatterView()->titleText()));
  }

  void predictorsAndOtherDimensionsAreNotDrawn() {
    MainWindow window;
    window.show();
    openDataset(window, kIris, 150);
    QTemporaryDir dir;
    const QString predictor =
        trainAndExport(window, QStringLiteral("prediction"), dir, QStringLiteral("predictor.dpmodel"));
    QVERIFY(!predictor.isEmpty());
    {
      auto dialog = openModel(window, predictor);
      QVERIFY(!dialog->showInViewButton()->isEnabled());
      const QString why = dialog->showInViewButton()->toolTip();
      QVERIFY2(why.contains(QStringLiteral("prediction sensitivity")) && why.contains(QStringLiteral("spend")),
               qPrintable(why));
      QVERIFY2(why.contains(QStringLiteral("50 of 50 left")), qPrintable(why));
    }
    const QString model = trainAndExport(window, QStringLiteral("output"), dir, QStringLiteral("iris.dpmodel"));
    openDataset(window, kBlobs3Classes, 300);  // 2 features
    auto dialog = openModel(window, model);
    QVERIFY(!dialog->showInViewButton()->isEnabled());
    const QString why = dialog->showInViewButton()->toolTip();
    QVERIFY2(why.contains(QStringLiteral("reads 4 raw features")) && why.contains(QStringLiteral("has 2")),
             qPrintable(why));
    // Not drawable, not drawn, whoever asks.
    dialog->showInView();
    QVERIFY(!window.openedModelOverlay()->requested());
  }

  void classesAreMatchedByName() {
    MainWindow window;
    window.resize(1200, 800);
    window.show();
    openDataset(window, kIris, 150);
    QTemporaryDir dir;
    const QString path = trainAndExport(window, QStringLiteral("output"), dir, QStringLiteral("iris.dpmodel"));
    QVERIFY(!path.isEmpty());
    // Iris's classes are not the blobs': said in the title, coloured apart, named in the legend.
    openDataset(window, kBlobs4, 300);
    showInView(window, path);
    const ui::ClassColours& colours = window.openedModelOverlay()->colours();
    QCOMPARE(colours.colour, (std::vector<int>{3, 4, 5}));
    QCOMPARE(colours.unmatched, (QStringList{"setosa", "versicolor", "virginica"}));
    const QString html = window.scatterView()->chart()->title();
    QVERIFY2(html.contains(QStringLiteral("classes setosa, versicolor, virginica are not among")), qPrintable(html));
    QVERIFY(legendNames(window.scatterView()).contains(QStringLiteral("setosa (the model's only)")));
    compareWithCore(window, path);

    // A bundle of two of the blobs' three classes: matched by name, the dataset's colours.
    openDataset(window, QStringLiteral("builtin:blobs:classes=2,dim=4"), 200);
    const QString two = trainAndExport(window, QStringLiteral("output"), dir, QStringLiteral("two.dpmodel"));
    QVERIFY(!two.isEmpty());
    openDataset(window, kBlobs4, 300);
    showInView(window, two);
    QCOMPARE(window.openedModelOverlay()->colours().colour, (std::vector<int>{0, 1}));
    QVERIFY(window.openedModelOverlay()->colours().unmatched.isEmpty());
    QVERIFY2(window.scatterView()->chart()->title().contains(QStringLiteral("knows 2 of")),
             qPrintable(window.scatterView()->chart()->title()));
    compareWithCore(window, two);
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TestOpenedBundleView)
#include "test_opened_bundle_view.moc"

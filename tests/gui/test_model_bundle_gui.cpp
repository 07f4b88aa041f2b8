// File → Export Model… and Open Model… (issue 12): a model trained in the dock becomes a
// .dpmodel bundle that core reads back and that answers the dataset's rows as the model
// shown does; a private predictor's bundle carries the answers already given, and answering
// more rows than its budget has left is refused with the bundle untouched.

#include <QByteArray>
#include <QIODevice>
#include <QTest>

#include <QAction>
#include <QFile>
#include <QTextBrowser>
#include <QTemporaryDir>

#include "core/bundle/bundle_reader.h"
#include "tests/gui/gui_training_support.h"
#include "tests/gui/prediction_dock_support.h"
#include "ui/bundle/model_export.h"
#include "ui/training/prediction_answers.h"
#include "ui/training/prediction_answers_box.h"
#include "ui/training/prediction_fields.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

class TestModelBundleGui : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { isolateSettings(settingsDir_.path(), QStringLiteral("test_model_bundle_gui")); }

  void aPrivateModelExportsAndAnswersLikeTheModelShown() {
    MainWindow window;
    window.show();
    openDataset(window, kIris, 150);
    QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("output")));
    mechanismForm(window)->epsilonField()->setValue(20.0);
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    QTemporaryDir dir;
    const QString path = dir.filePath("iris.dpmodel");
    QCOMPARE(window.exportModelTo(path), QString());
    auto loaded = bundle::readBundle(path);
    QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().toString().c_str());
    QVERIFY(!loaded.value().stateful());
    QCOMPARE(loaded.value().contents.manifest["privacy"].toObject()["mechanism"].toString(), QStringLiteral("output"));

    // Answering all 150 rows through the bundle agrees with the released model on its own
    // (preprocessed) test part: the same parameters and preprocessing.
    const auto result = window.training()->result();
    ui::ModelImportDialog dialog(std::move(loaded).value(), path, window.document(), &window.ledger());
    QVERIFY(dialog.evaluateButton()->isEnabled());
    QVERIFY(dialog.cardView()->toPlainText().contains(QStringLiteral("privacy"), Qt::CaseInsensitive));
    dialog.evaluate();
    QVERIFY2(dialog.resultLabel()->text().contains(QStringLiteral("150 rows: accuracy")),
             qPrintable(dialog.resultLabel()->text()));
    auto again = bundle::readBundle(path);
    QVERIFY(again.ok());
    auto noise = privacy::makeNoiseSource(privacy::NoiseKind::Experiment, 1);
    auto predictions = bundle::predict(again.value(), result->source->X, *noise.value());
    QVERIFY(predictions.ok());
    // iris's only preprocessing is the public bound R = 20 (no row reaches it): the released
    // model on x/20 must give the bundle's labels on the raw rows, row for row.
    QCOMPARE(*result->settings.data.preprocess.normBound, 20.0);
    QVERIFY(!result->settings.data.preprocess.unitRows && !result->settings.data.preprocess.intercept);
    const TrainedModel& shown = result->release->model;
    const Eigen::VectorXi direct = shown.model->predict(shown.theta, result->source->X / 20.0);
    QCOMPARE(predictions.value().labels.size(), direct.size());
    QVERIFY(predictions.value().labels == direct);
    QVERIFY(window.findChild<QAction*>(QStringLiteral("exportModelAction"))->isEnabled());
  }

  void aPredictorsBudgetTravelsWithItsBundle() {
    MainWindow window;
    window.show();
    openDataset(window, kIris, 150);
    QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("prediction")));
    fields(window)->budgetField()->setValue(10);
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    window.modelPanel()->answersBox()->countBox()->setValue(4);
    window.modelPanel()->answersBox()->answerButton()->click();
    QTRY_COMPARE(window.training()->answers()->answered(), Index{4});
    QTemporaryDir dir;
    const QString path = dir.filePath("predictor.dpmodel");
    QCOMPARE(window.exportModelTo(path), QString());
    auto loaded = bundle::readBundle(path);
    QVERIFY(loaded.ok());
    QVERIFY(loaded.value().stateful());
    QCOMPARE(*loaded.value().budgetRemaining(), 6LL);

    // 150 rows > 6 answers left: refused as a whole, nothing spent, the file unchanged.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    ui::ModelImportDialog dialog(std::move(loaded).value(), path, window.document(), &window.ledger());
    dialog.setConfirmSpending(false);
    dialog.evaluate();
    QVERIFY2(dialog.resultLabel()->text().contains(QStringLiteral("\u26a0")), qPrintable(dialog.resultLabel()->text()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), before);
  }

  // Issue 13 §4: the bundle's answers are the same budget's: the session's entry of it, which
  // its first answer opened, counts them, and no second ε is recorded.
  void aBundlesAnswersCountAgainstTheBudgetsEntry() {
    MainWindow window;
    window.show();
    openDataset(window, kIris, 150);
    QVERIFY(mechanismForm(window)->setChoice(QStringLiteral("prediction")));
    fields(window)->budgetField()->setValue(200);
    pressAndWaitForModel(window, window.modelPanel()->trainButton());
    window.modelPanel()->answersBox()->countBox()->setValue(4);
    window.modelPanel()->answersBox()->answerButton()->click();
    QTRY_COMPARE(window.ledger().size(), std::size_t{1});
    const double epsilon = window.ledger().entries().front().epsilon;
    QTemporaryDir dir;
    const QString path = dir.filePath("predictor.dpmodel");
    QCOMPARE(window.exportModelTo(path), QString());
    auto loaded = bundle::readBundle(path);
    QVERIFY(loaded.ok());
    QCOMPARE(*loaded.value().budgetId, window.ledger().entries().front().inferenceBudget->id);
    ui::ModelImportDialog dialog(std::move(loaded).value(), path, window.document(), &window.ledger());
    dialog.setConfirmSpending(false);
    dialog.evaluate();
    QVERIFY2(dialog.resultLabel()->text().contains(QStringLiteral("ledger counts them")),
             qPrintable(dialog.resultLabel()->text()));
    QCOMPARE(window.ledger().size(), std::size_t{1});
    QCOMPARE(window.ledger().entries().front().inferenceBudget->counted(), 154LL);
    QCOMPARE(window.ledger().total().epsilon, epsilon);
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TestModelBundleGui)
#include "test_model_bundle_gui.moc"

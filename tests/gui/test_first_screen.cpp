// The first screen teaches (issue 11 item 4): a first start — no dataset named, none from
// last time — opens the teaching set with a private model already trained over the dashed
// non-private one and recorded in the ledger; Redraw noise is one key away. Private
// mechanisms start from a λ at which the noise leaves a model (defaultPrivateLambda), λ goes
// back when the mechanism does, an edited λ stays; and a λ whose noise swamps every model
// is flagged in the live calibration before anything is trained.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the first screen.

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QSettings>
#include <QKeySequence>
#include <QLabel>
#include <QRectF>
#include <QSignalSpy>
#include <QTest>

#include <QTemporaryDir>

#include <algorithm>
#include <vector>

#include "core/learn/learner.h"
#include "tests/gui/gui_training_support.h"
#include "ui/plot/region_image.h"
#include "ui/privacy/ledger_view.h"
#include "ui/startup_options.h"
#include "ui/training/mechanism_form.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

class TestFirstScreen : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { isolateSettings(settingsDir_.path(), QStringLiteral("test_first_screen")); }

  void aFirstStartShowsAPrivateModel() {
    QVERIFY(MainWindow::lastDatasetSpec().isEmpty());
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.resize(1400, 900);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QVERIFY(ui::applyStartupOptions(window, {}).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window.decisionOverlay()->isComputingRegions(), kTimeoutMs);
    saveScreenshot(&window, QStringLiteral("first-screen"));
    QCOMPARE(window.document()->source().spec, ui::firstScreenDataset());
    const auto result = window.training()->result();
    QVERIFY(result);
    QVERIFY2(result->release, "the model shown is a private release");
    QCOMPARE(result->settings.privacy.options.kind, mech::MechanismKind::Output);
    QCOMPARE(result->settings.learner.lambda, defaultPrivateLambda(ModelKind::LogisticRegression));
    // The teaching set has a public bound from its generator: no row norm read off the data.
    QVERIFY(result->settings.data.preprocess.normBound.has_value());
    QCOMPARE(window.ledger().size(), std::size_t{1});
    QVERIFY(window.modelPanel()->redrawButton()->isEnabled());
    QCOMPARE(window.modelPanel()->redrawButton()->shortcut(), QKeySequence(QStringLiteral("Ctrl+R")));
    // The release draws fresh OS noise (issue 30), so its own accuracy varies from start to
    // start (at ε = 1 one draw in ten is near chance); what the settings promise is checked on
    // the seeded draws below.
    QVERIFY(result->release->testAccuracy.has_value());
    QCOMPARE(result->release->noise.kind, privacy::NoiseKind::Release);

    // Draw N: 12 more private models of the same settings, drawn faintly over the regions;
    // an experiment, so the ledger keeps its one entry.
    QVERIFY(window.modelPanel()->spreadButton()->isVisibleTo(&window));
    window.modelPanel()->spreadCountBox()->setValue(12);
    QSignalSpy regions(window.decisionOverlay(), &ui::DecisionOverlay::regionsUpdated);
    window.modelPanel()->spreadButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(window.training()->spread() != nullptr, kTimeoutMs);
    QCOMPARE(window.training()->spread()->size(), std::size_t{12});
    QTRY_VERIFY_WITH_TIMEOUT(regions.count() >= 1 && !window.decisionOverlay()->isComputingRegions(), kTimeoutMs);
    QCOMPARE(window.ledger().size(), std::size_t{1});
    QVERIFY2(window.scatterView()->titleText().contains(QStringLiteral("12 more private draws")) &&
                 window.scatterView()->titleText().contains(QStringLiteral("not released, not in the ledger")),
             qPrintable(window.scatterView()->titleText()));
    // The draws differ (fresh noise) and none is the release shown.
    const auto& spread = *window.training()->spread();
    // And these settings leave a model: the median of the 12 seeded draws is far better than
    // chance (1/3 on three blobs).
    std::vector<double> accuracies;
    const Dataset& test = result->data->test;
    for (const TrainedModel& draw : spread) accuracies.push_back(accuracy(*draw.model, draw.theta, test.X, test.y));
    std::sort(accuracies.begin(), accuracies.end());
    const double median = 0.5 * (accuracies[5] + accuracies[6]);
    QVERIFY2(median > 0.6, qPrintable(QString::number(median)));
    QVERIFY(!spread[0].theta.isApprox(spread[1].theta));
    QVERIFY(!spread[0].theta.isApprox(result->release->model.theta));
    // Their boundaries darken pixels the release's regions alone left light: the image the
    // view shows is the release's regions with the spread drawn over them.
    const QImage after = window.scatterView()->underlay();
    const QRectF rect = window.scatterView()->visibleDataRect();
    const auto& projection = window.training()->view()->geometry.projection;
    const TrainedModel& release = result->release->model;
    const QImage plain =
        ui::computeRegionImage(*release.model, release.theta, projection, rect, after.size(), true, &result->model).image;
    const QImage withSpread = ui::computeRegionImage(*release.model, release.theta, projection, rect, after.size(), true,
                                                     &result->model, &spread)
                                  .image;
    QCOMPARE(after.convertToFormat(QImage::Format_RGB32), withSpread.convertToFormat(QImage::Format_RGB32));
    long long darker = 0;
    for (int y = 0; y < plain.height(); ++y)
      for (int x = 0; x < plain.width(); ++x)
        if (qGray(withSpread.pixel(x, y)) + 10 < qGray(plain.pixel(x, y))) ++darker;
    QVERIFY2(darker > 100, qPrintable(QString::number(darker)));
    saveScreenshot(&window, QStringLiteral("draw-n"));
    // A new model clears them.
    pressAndWaitForModel(window, window.modelPanel()->redrawButton());
    QVERIFY(!window.training()->spread());
    QVERIFY(!window.scatterView()->titleText().contains(QStringLiteral("more private draws")));
  }

  // Issue 32: the first screen teaches with output perturbation; the first file of the
  // user's own that opens after it switches to Private selection — unless the user picked a
  // mechanism in between.
  void ownDataGetsPrivateSelection() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("mine.csv"));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("a,b,label\n");
    for (int i = 0; i < 40; ++i) file.write(QStringLiteral("%1,%2,%3\n").arg(i % 7).arg(i % 5).arg(i % 2 ? "x" : "y").toUtf8());
    file.close();
    for (const bool userPicks : {false, true}) {
      QSettings().clear();
      MainWindow window;
      window.setErrorDialogsEnabled(false);
      window.show();
      QSignalSpy shown(&window, &MainWindow::modelShown);
      QVERIFY(ui::applyStartupOptions(window, {}).isEmpty());
      QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, kTimeoutMs);
      ui::MechanismForm* form = window.modelPanel()->form()->mechanismForm();
      QCOMPARE(form->choice(), QStringLiteral("output"));
      if (userPicks) {
        QComboBox* box = form->mechanismBox();
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Down);  // the next entry, chosen by the user
        QCOMPARE(form->choice(), QStringLiteral("objective"));
      }
      openDataset(window, csv, 40);
      QCOMPARE(form->choice(), userPicks ? QStringLiteral("objective") : ui::MechanismForm::selectionChoice());
    }
  }

  void privateMechanismsStartFromTheirOwnLambda() {
    MainWindow window;
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    ui::ModelSettingsForm* form = window.modelPanel()->form();
    ui::MechanismForm* mechanism = form->mechanismForm();
    QVERIFY(mechanism->setChoice(QStringLiteral("none")));
    QCOMPARE(form->lambdaField()->value().value(), defaultLambda(ModelKind::LogisticRegression));
    QVERIFY(mechanism->setChoice(QStringLiteral("output")));
    QCOMPARE(form->lambdaField()->value().value(), defaultPrivateLambda(ModelKind::LogisticRegression));
    QVERIFY(mechanism->setChoice(QStringLiteral("objective")));
    QCOMPARE(form->lambdaField()->value().value(), defaultPrivateLambda(ModelKind::LogisticRegression));
    QVERIFY(mechanism->setChoice(QStringLiteral("none")));
    QCOMPARE(form->lambdaField()->value().value(), defaultLambda(ModelKind::LogisticRegression));
    // A λ the user typed is theirs.
    form->lambdaField()->setText(QStringLiteral("0.003"));
    QVERIFY(mechanism->setChoice(QStringLiteral("output")));
    QCOMPARE(form->lambdaField()->value().value(), 0.003);
  }

  void noiseThatSwampsTheModelIsFlagged() {
    MainWindow window;
    openDataset(window, QStringLiteral("builtin:iris"), 150);
    ui::ModelSettingsForm* form = window.modelPanel()->form();
    QVERIFY(form->mechanismForm()->setChoice(QStringLiteral("output")));
    QLabel* warning = form->mechanismForm()->calibrationWarning();
    // λ = 0.1: E‖b‖ ≈ 2.1 per class against ‖θ*‖ ≤ 3.7: a model survives.
    form->lambdaField()->setText(QStringLiteral("0.1"));
    QTRY_VERIFY(!warning->isVisibleTo(&window) || !warning->text().contains(QStringLiteral("swamps")));
    // iris at λ = 1e-4: Δ = 2/(nλ) ≈ 180 per class, E‖b‖ ≈ 900 against ‖θ*‖ ≤ √(2 log 2/λ) ≈ 118.
    form->lambdaField()->setText(QStringLiteral("1e-4"));
    QTRY_VERIFY(warning->isVisibleTo(&window) && warning->text().contains(QStringLiteral("noise swamps the model")));
    QVERIFY(warning->text().contains(QStringLiteral("\u03bb above")));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TestFirstScreen)
#include "test_first_screen.moc"

// The privacy–utility view's published bounds and paper figures (issue 11), driven as a person
// does:
//  · "Theoretical bounds (as published)" opens a panel under the accuracy chart that draws,
//    for a multiparty sweep, the measured quantity and the paper's bound on it (dashed), says
//    in the tooltip that the bound is as published and not verified, clips a vacuous bound
//    with a mark and a note; with no bound that applies it says why;
//  · "Paper figure" without the paper's data runs the quick version on a built-in set, labelled
//    so in the chart's title, without a dataset open; with the data folder (label realdata),
//    the preset loads the real files on the worker — the window keeps answering — and writes
//    the trial table dpstudio-cli sweep --preset writes.
//
// DPSTUDIO_TEST_SCREENSHOTS=DIR saves the window with the bounds and with a preset.

#include <QPointF>
#include <QStringList>
#include <QTest>
#include <QTimer>

#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolTip>

#include "core/experiment/trial_table.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"
#include "tests/gui/gui_training_support.h"
#include "ui/plot/utility_chart.h"
#include "ui/sweep/bound_chart.h"
#include "ui/sweep/bounds_panel.h"
#include "ui/sweep/preset_chooser.h"
#include "ui/sweep/sweep_form.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

constexpr int kSweepTimeoutMs = 300000;

// The trial table's rows without the seconds column (timings differ between runs).
QStringList trialRows(const experiment::TrialTable& table) {
  QStringList rows;
  for (const auto& t : table.trials)
    rows << QStringLiteral("%1,%2,%3,%4,%5")
                .arg(QString::fromStdString(t.series))
                .arg(t.value, 0, 'g', 17)
                .arg(t.id.repeat)
                .arg(t.seed)
                .arg(t.accuracy, 0, 'g', 17);
  return rows;
}

}  // namespace

class TestSweepBoundsPresets : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { isolateSettings(settingsDir_.path(), QStringLiteral("test_sweep_bounds_presets")); }

  void multipartyBoundsAreDrawnAsPublished() {
    MainWindow window;
    window.resize(1400, 1000);
    window.show();
    openDataset(window, QStringLiteral("builtin:breast_cancer"), 569);
    window.modelPanel()->form()->setModelKind(ModelKind::LogisticRegression);
    // Multiparty needs rows in the unit ball (paper 004's contract): raw breast cancer is
    // refused, so scale every row to norm 1 (per example: no privacy cost).
    window.modelPanel()->form()->unitRowsBox()->setChecked(true);
    ui::SweepView* view = window.sweepView();
    window.centralTabs()->setCurrentWidget(view);
    view->form()->setMechanisms({"multiparty"});
    view->form()->setRepeats(4);
    // Shown before any sweep: says what to do.
    view->boundsBox()->setChecked(true);
    ui::BoundsPanel* panel = view->boundsPanel();
    QVERIFY(panel->isVisible());
    QCOMPARE(panel->quantityBox()->count(), 0);
    view->startButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSweepTimeoutMs);

    // Distance, empirical and true excess risk: the three paper 004 bounds.
    QCOMPARE(panel->quantityBox()->count(), 3);
    QVERIFY(panel->setQuantity(experiment::BoundedQuantity::ParameterDistance));
    ui::BoundChart* chart = panel->chart();
    QCOMPARE(chart->measuredSeries().size(), 1);
    QCOMPARE(chart->boundSeries().size(), 1);
    QCOMPARE(chart->measuredSeries().front()->count(), 5);  // one point per ε
    QCOMPARE(chart->boundSeries().front()->pen().style(), Qt::DashLine);
    QVERIFY(chart->boundSeries().front()->name().contains(QStringLiteral("as published")));
    const QString tooltip = chart->boundDescription(0);
    QVERIFY(tooltip.contains(QStringLiteral("Theorem 4.2")));
    QVERIFY(tooltip.contains(QStringLiteral("not verified by this product")));
    QVERIFY(!chart->levelSeries().isEmpty());  // 2√(log 2/λ): the largest possible distance
    // Hovering the dashed line shows that text.
    emit chart->boundSeries().front()->hovered(chart->boundSeries().front()->at(0), true);
    QTRY_VERIFY(QToolTip::text().contains(QStringLiteral("not verified by this product")));

    // The excess-risk bound of Theorem 4.3 is far above log 2 on 427 rows: clipped, marked, noted.
    QVERIFY(panel->setQuantity(experiment::BoundedQuantity::EmpiricalExcessRisk));
    QCOMPARE(chart->boundSeries().size(), 1);
    QVERIFY(chart->clippedPoints() > 0);
    for (const QPointF& p : chart->boundSeries().front()->points()) QVERIFY(p.y() <= chart->clipLevel() * (1 + 1e-12));
    QVERIFY(panel->notesText().contains(QStringLiteral("vacuous")));
    QVERIFY(panel->notesText().contains(QStringLiteral("as published")));
    QVERIFY(panel->notesText().contains(QStringLiteral("clipped")));
    // The corrected noise is not what the paper's theorem is about: said so.
    QVERIFY(panel->notesText().contains(QStringLiteral("drawn for reference")));
    saveScreenshot(&window, QStringLiteral("sweep-bounds"));

    // Output perturbation has no published bound here: the panel says why instead of a chart.
    view->form()->setMechanisms({"output"});
    view->startButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSweepTimeoutMs);
    QCOMPARE(panel->quantityBox()->count(), 0);
    QVERIFY(panel->chartView()->isHidden());
    QVERIFY(panel->findChild<QLabel*>(QStringLiteral("sweepBoundEmpty"))->text().contains(QStringLiteral("DP-LMGC")));
  }

  void quickPaperFigureWithoutTheData() {
    QTemporaryDir empty;
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ui::SweepView* view = window.sweepView();
    window.centralTabs()->setCurrentWidget(view);
    ui::PresetChooser* chooser = view->form()->presetChooser();
    chooser->setDataFolder(empty.path());
    QVERIFY(chooser->setPreset("paper003-fig1a"));
    QVERIFY(view->form()->presetMode());
    // The paper's files are missing: the quick version is forced, and labelled.
    QVERIFY(chooser->quickBox()->isChecked());
    QVERIFY(!chooser->quickBox()->isEnabled());
    QVERIFY(chooser->quickBox()->text().contains(QStringLiteral("not the paper's data")));
    QVERIFY(chooser->descriptionLabel()->text().contains(QStringLiteral("quick version on built-in digits")));
    QCOMPARE(view->form()->repeatsBox()->value(), 10);  // the quick version's default
    view->form()->setRepeats(2);
    // No dataset is open: the preset brings its own.
    QVERIFY(view->startButton()->isEnabled());
    view->startButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSweepTimeoutMs);
    const QString title = view->chart()->title();
    QVERIFY2(title.contains(QStringLiteral("Paper 003 Fig. 1a")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("quick version on built-in digits, not the paper")), qPrintable(title));
    QCOMPARE(view->chart()->meanSeries().size(), 4);  // output, loss, prediction, subsample
    QCOMPARE(view->session()->finishedTrials(), 5LL * 6 * 2);  // 4 mechanisms and the reference, 6 values
    saveScreenshot(&window, QStringLiteral("sweep-preset-quick"));

    // The settings held fixed are the figure's: its own δ, and never the swept parameter's.
    QVERIFY(chooser->setPreset("paper003-fig1b"));
    QVERIFY2(chooser->descriptionLabel()->text().contains(QStringLiteral("\u03b4 = 1e-05")),
             qPrintable(chooser->descriptionLabel()->text()));
    QVERIFY(chooser->setPreset("paper003-fig3"));
    QVERIFY(!chooser->descriptionLabel()->text().contains(QStringLiteral("\u03b4 =")));
    QVERIFY(chooser->setPreset("paper003-fig2"));
    QVERIFY(!chooser->descriptionLabel()->text().contains(QStringLiteral("B = ")));

    // Back to none: the dock's controls return.
    QVERIFY(chooser->setPreset(""));
    QVERIFY(!view->form()->presetMode());
  }

  // Issue 37: paper 003 Figs. 1b, 2a, 2b and 3 are in the Paper figure list, chosen there as a
  // click on the item would, each described with its series (DP-SGD among them where δ > 0),
  // its axis and the paper's 100 repetitions; Fig. 1b's quick version runs with all five series.
  void smallDeltaPaperFiguresInTheList() {
    QTemporaryDir empty;
    MainWindow window;
    window.resize(1366, 768);
    window.show();
    ui::SweepView* view = window.sweepView();
    window.centralTabs()->setCurrentWidget(view);
    ui::PresetChooser* chooser = view->form()->presetChooser();
    chooser->setDataFolder(empty.path());
    auto* list = chooser->findChild<QComboBox*>(QStringLiteral("sweepPreset"));
    QVERIFY(list);
    // Figure 7 has no entry, and the list says why (a convolutional network).
    QVERIFY(list->toolTip().contains(QStringLiteral("Figure 7")));
    QVERIFY(list->toolTip().contains(QStringLiteral("convolutional")));
    struct Entry {
      const char* name;
      const char* figure;
      experiment::SweepAxis axis;
      int series;
      bool dpSgd;
    };
    using A = experiment::SweepAxis;
    for (const Entry& e : {Entry{"paper003-fig1b", "Paper 003 Fig. 1b", A::Epsilon, 5, true},
                           Entry{"paper003-fig2", "Paper 003 Fig. 2a", A::Budget, 4, false},
                           Entry{"paper003-fig2b", "Paper 003 Fig. 2b", A::Budget, 5, true},
                           Entry{"paper003-fig3", "Paper 003 Fig. 3", A::Delta, 5, true}}) {
      const int index = list->findData(QString::fromLatin1(e.name));
      QVERIFY2(index > 0, e.name);
      QVERIFY2(list->itemText(index).startsWith(QString::fromLatin1(e.figure)), qPrintable(list->itemText(index)));
      list->setCurrentIndex(index);
      QVERIFY(view->form()->presetMode());
      QCOMPARE(chooser->preset()->name, std::string(e.name));
      const QString description = chooser->descriptionLabel()->text();
      QVERIFY2(description.contains(QStringLiteral("%1 series").arg(e.series)), qPrintable(description));
      QVERIFY2(description.contains(QString::fromStdString(experiment::axisTitle(e.axis))), qPrintable(description));
      QVERIFY2(description.contains(QStringLiteral("The paper averages 100 repetitions")), qPrintable(description));
      QCOMPARE(chooser->descriptionLabel()->toolTip().contains(QStringLiteral("DP-SGD")), e.dpSgd);
    }

    // Fig. 1b's quick version at one repetition: the five series and the reference at five ε.
    QVERIFY(chooser->setPreset("paper003-fig1b"));
    view->form()->setRepeats(1);
    view->startButton()->click();
    QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSweepTimeoutMs);
    const QString title = view->chart()->title();
    QVERIFY2(title.contains(QStringLiteral("Paper 003 Fig. 1b")), qPrintable(title));
    QVERIFY2(title.contains(QStringLiteral("not the paper")), qPrintable(title));
    QCOMPARE(view->chart()->meanSeries().size(), 5);
    QCOMPARE(view->session()->finishedTrials(), 6LL * 5);
    saveScreenshot(&window, QStringLiteral("sweep-preset-fig1b-quick"));
  }

  // The real a9a files: loaded on the worker with the window answering, and the table the
  // CLI writes for the same preset and seed.
  void paperFigureOnTheRealDataIsTheClis() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    ui::SweepView* view = window.sweepView();
    window.centralTabs()->setCurrentWidget(view);
    ui::PresetChooser* chooser = view->form()->presetChooser();
    chooser->setDataFolder(realDataDir());
    QVERIFY(chooser->setPreset("paper004-fig2"));
    QVERIFY(chooser->quickBox()->isEnabled());
    QVERIFY(!chooser->quickBox()->isChecked());
    QCOMPARE(view->form()->repeatsBox()->value(), 20);
    view->form()->setRepeats(2);
    view->form()->setSeed(3);

    // A probe timer measures the longest pause of the event loop while the data load and the
    // trials run (nothing long on the GUI thread).
    QElapsedTimer clock, sinceLast;
    qint64 longest = 0;
    QTimer probe;
    probe.setInterval(5);
    connect(&probe, &QTimer::timeout, this, [&] {
      longest = std::max(longest, sinceLast.restart());
    });
    clock.start();
    sinceLast.start();
    probe.start();
    view->startButton()->click();
    QVERIFY(view->session()->isLoading());
    QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), kSweepTimeoutMs);
    probe.stop();
    qInfo("a9a preset at 2 repetitions: %.1f s (data loaded in %.1f s); longest event-loop gap %lld ms",
          clock.elapsed() / 1000.0, view->session()->loadSeconds(), longest);
    QVERIFY2(longest < 1000, qPrintable(QString::number(longest)));
    QVERIFY(view->session()->loadSeconds() > 0);
    QVERIFY(view->chart()->title().contains(QStringLiteral("Paper 004 Fig. 2 \u2014 UCI Adult (a9a)")));
    QCOMPARE(view->chart()->meanSeries().size(), 8);
    saveScreenshot(&window, QStringLiteral("sweep-preset"));

    QTemporaryDir dir;
    QString error;
    QVERIFY2(view->exportTo(dir.filePath("gui.csv"), &error), qPrintable(error));
    const CliRun run = runCli({"sweep", "--preset", "paper004-fig2", "--data-dir", realDataDir(), "--repeats", "2",
                               "--seed", "3", "--out", dir.filePath("cli.csv")},
                              kSweepTimeoutMs);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const auto gui = orDie(experiment::readTrialTable(dir.filePath("gui.csv").toStdString()));
    const auto cli = orDie(experiment::readTrialTable(dir.filePath("cli.csv").toStdString()));
    QCOMPARE(gui.layout.fingerprint, cli.layout.fingerprint);
    QCOMPARE(trialRows(gui), trialRows(cli));
  }

 private:
  QTemporaryDir settingsDir_;
};

QTEST_MAIN(TestSweepBoundsPresets)
#include "test_sweep_bounds_presets.moc"

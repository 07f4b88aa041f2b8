// The window on a classroom laptop and a projector (issue 33): run once on a 1366×768 screen
// and once on 1280×720 (tests/fixtures/offscreen-*.json), it opens within the screen, every
// mechanism's form fits the Training dock without scrolling sideways, every page of the
// central area fits its width with its actions in sight, and the charts' axis titles are
// not elided. A failure names the widget that overflows, so the cause is in the log.

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QGuiApplication>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

#include "tests/gui/gui_training_support.h"
#include "ui/plot/series_legend.h"
#include "ui/plot/utility_chart.h"
#include "ui/privacy/audit_view.h"
#include "ui/sweep/preset_chooser.h"
#include "ui/sweep/sweep_form.h"
#include "ui/sweep/sweep_session.h"
#include "ui/sweep/sweep_view.h"

#include <algorithm>
#include <vector>

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

namespace {

QString describe(const QWidget* widget) {
  QString text = QString::fromLatin1(widget->metaObject()->className());
  if (!widget->objectName().isEmpty()) text += QLatin1Char('#') + widget->objectName();
  if (const auto* label = qobject_cast<const QLabel*>(widget)) text += QStringLiteral(" \"%1\"").arg(label->text().left(60));
  if (const auto* button = qobject_cast<const QAbstractButton*>(widget))
    text += QStringLiteral(" \"%1\"").arg(button->text().left(60));
  return text + QStringLiteral(" (min %1 px)").arg(widget->minimumSizeHint().width());
}

// The visible widgets under `root` whose right edge passes their parent's: the deepest ones,
// which are what made their ancestors too wide. Scroll-area contents are judged by their
// scroll area (see overflowingScrollAreas).
void collectOverflow(const QWidget* root, QStringList& out) {
  for (const QWidget* child : root->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
    if (!child->isVisible() || child->isWindow()) continue;
    if (qobject_cast<const QAbstractScrollArea*>(root)) continue;  // viewport and bars: Qt's own
    if (child->geometry().right() > root->width() + 1)
      out << QStringLiteral("%1 ends at %2 in %3 of width %4")
                 .arg(describe(child))
                 .arg(child->geometry().right())
                 .arg(describe(root))
                 .arg(root->width());
    collectOverflow(child, out);
  }
}

// Scroll areas under `root` whose contents are wider than their viewport: scrolled sideways
// or clipped. Each entry names what inside is too wide.
QStringList overflowingScrollAreas(const QWidget* root) {
  QStringList out;
  for (const QScrollArea* area : root->findChildren<QScrollArea*>()) {
    if (!area->isVisible() || !area->widget()) continue;
    const QWidget* contents = area->widget();
    if (contents->width() <= area->viewport()->width()) continue;
    // The likely cause: the widgets with the widest minimum beyond the viewport's edge.
    std::vector<const QWidget*> beyond;
    for (const QWidget* child : contents->findChildren<QWidget*>()) {
      if (!child->isVisible() || qobject_cast<const QAbstractScrollArea*>(child->parentWidget())) continue;
      const int right = child->mapTo(contents, QPoint(child->width(), 0)).x();
      if (right > area->viewport()->width()) beyond.push_back(child);
    }
    std::sort(beyond.begin(), beyond.end(), [](const QWidget* a, const QWidget* b) {
      return a->minimumSizeHint().width() > b->minimumSizeHint().width();
    });
    QStringList causes;
    for (std::size_t i = 0; i < beyond.size() && i < 6; ++i) causes << describe(beyond[i]);
    out << QStringLiteral("%1: contents %2 px in a viewport of %3 px; widest: %4")
               .arg(describe(area))
               .arg(contents->width())
               .arg(area->viewport()->width())
               .arg(causes.join(QStringLiteral("; ")));
  }
  return out;
}

void settle() {
  for (int i = 0; i < 3; ++i) {
    QCoreApplication::processEvents();
    QTest::qWait(20);
  }
}

// An axis title or tick label Qt Charts would have to elide: the text is wider than the side
// of the plot area it stands along.
QStringList elidedAxisTexts(const QChart* chart) {
  QStringList out;
  const QRectF plot = chart->plotArea();
  for (const QAbstractAxis* axis : chart->axes()) {
    if (!axis->isVisible() || axis->titleText().isEmpty() || !axis->isTitleVisible()) continue;
    QString plain = axis->titleText();
    plain.remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    const double along = axis->orientation() == Qt::Horizontal ? plot.width() : plot.height();
    const double width = QFontMetricsF(axis->titleFont()).horizontalAdvance(plain);
    if (width > along)
      out << QStringLiteral("axis title \"%1\" needs %2 px beside a plot side of %3 px").arg(plain).arg(width).arg(along);
  }
  return out;
}

// Why the window is as wide as it is: the visible docks' and the central pages' minimum widths.
QString minimumWidths(const MainWindow& window) {
  QStringList minimums;
  for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
    if (dock->isVisible()) minimums << QStringLiteral("%1 %2").arg(dock->objectName()).arg(dock->minimumSizeHint().width());
  minimums << QStringLiteral("central %1").arg(window.centralWidget()->minimumSizeHint().width());
  for (int i = 0; i < window.centralTabs()->count(); ++i)
    minimums << QStringLiteral("%1 %2").arg(window.centralTabs()->tabText(i)).arg(window.centralTabs()->widget(i)->minimumSizeHint().width());
  minimums << QStringLiteral("status bar %1").arg(window.statusBar()->minimumSizeHint().width());
  minimums << QStringLiteral("window %1").arg(window.minimumSizeHint().width());
  return minimums.join(QStringLiteral(", "));
}

QString windowOnScreen(const MainWindow& window) {
  const QRect frame = window.frameGeometry();
  const QRect screen = window.screen()->availableGeometry();
  return QStringLiteral("window %1,%2 %3x%4 on a screen of %5x%6; minimum widths: %7")
      .arg(frame.x())
      .arg(frame.y())
      .arg(frame.width())
      .arg(frame.height())
      .arg(screen.width())
      .arg(screen.height())
      .arg(minimumWidths(window));
}

}  // namespace

class TestSmallScreenLayout : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void windowOpensWithinTheScreen();
  void everyMechanismFitsTheTrainingDock();
  void everyPageFitsItsWidthWithItsActionsInSight();
  void aFinishedSweepKeepsTheWindowOnTheScreen();

 private:
  QTemporaryDir settingsDir_;
};

void TestSmallScreenLayout::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  isolateSettings(settingsDir_.path(), QStringLiteral("test_small_screen_layout"));
  const QSize screen = QGuiApplication::primaryScreen()->size();
  qInfo("screen %dx%d", screen.width(), screen.height());
  QVERIFY2(screen.width() <= 1366 && screen.height() <= 768, "run on the small-screen fixtures (CMake sets them)");
}

void TestSmallScreenLayout::init() { QSettings().clear(); }

void TestSmallScreenLayout::windowOpensWithinTheScreen() {
  MainWindow window;
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  const QRect screen = window.screen()->availableGeometry();
  QVERIFY2(screen.contains(window.frameGeometry()), qPrintable(windowOnScreen(window)));
  const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
  QVERIFY2(minimum.width() <= screen.width() && minimum.height() <= screen.height(),
           qPrintable(QStringLiteral("minimum %1x%2").arg(minimum.width()).arg(minimum.height())));
}

void TestSmallScreenLayout::everyMechanismFitsTheTrainingDock() {
  MainWindow window;
  showActiveOnIris(window);
  auto* dock = window.findChild<QDockWidget*>(QStringLiteral("trainingDock"));
  QVERIFY(dock);
  QComboBox* mechanisms = mechanismForm(window)->mechanismBox();
  const auto* items = qobject_cast<const QStandardItemModel*>(mechanisms->model());
  QStringList problems;
  int checked = 0;
  for (int i = 0; i < mechanisms->count(); ++i) {
    if (items && items->item(i) && !items->item(i)->isEnabled()) continue;  // a section header
    mechanisms->setCurrentIndex(i);
    mechanismForm(window)->flushCalibration();
    settle();
    ++checked;
    for (const QString& problem : overflowingScrollAreas(dock))
      problems << QStringLiteral("%1: %2").arg(mechanisms->itemText(i), problem);
    QStringList clipped;
    collectOverflow(dock, clipped);
    for (const QString& problem : clipped) problems << QStringLiteral("%1: %2").arg(mechanisms->itemText(i), problem);
    saveScreenshot(dock, QStringLiteral("training-dock-%1").arg(i));
  }
  QVERIFY(checked >= 8);
  // And with a result below the form: a non-private model, then a released private one (its
  // calibration rows, accuracy, baseline and ledger lines).
  mechanismForm(window)->setChoice(QStringLiteral("none"));
  trainFromDock(window, ModelKind::LogisticRegression);
  mechanismForm(window)->setChoice(QStringLiteral("output"));
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  settle();
  for (const QString& problem : overflowingScrollAreas(dock)) problems << QStringLiteral("trained: %1").arg(problem);
  QStringList clipped;
  collectOverflow(dock, clipped);
  for (const QString& problem : clipped) problems << QStringLiteral("trained: %1").arg(problem);
  saveScreenshot(&window, QStringLiteral("training-dock-trained"));
  QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
  // The dock's actions stay in sight below the form whatever it shows.
  for (QPushButton* button : {window.modelPanel()->trainButton(), window.modelPanel()->sweepButton()}) {
    QVERIFY(button->isVisible());
    const QRect onWindow(button->mapTo(&window, QPoint(0, 0)), button->size());
    QVERIFY2(window.rect().contains(onWindow), qPrintable(button->text()));
  }
}

// Every entry of every legend widget shown under `root` that is narrower than its name needs.
QStringList clippedLegendEntries(QWidget* root) {
  QStringList problems;
  for (const ui::SeriesLegend* legend : root->findChildren<ui::SeriesLegend*>()) {
    if (!legend->isVisible()) continue;
    for (const QCheckBox* entry : legend->findChildren<QCheckBox*>(QStringLiteral("legendEntry")))
      if (!entry->isVisible() || entry->width() < entry->sizeHint().width())
        problems << QStringLiteral("legend entry \"%1\" is %2 px of the %3 it needs")
                        .arg(entry->text())
                        .arg(entry->isVisible() ? entry->width() : 0)
                        .arg(entry->sizeHint().width());
  }
  return problems;
}

void TestSmallScreenLayout::everyPageFitsItsWidthWithItsActionsInSight() {
  MainWindow window;
  showActiveOnIris(window);
  QTabWidget* tabs = window.centralTabs();
  const std::map<QWidget*, std::vector<QPushButton*>> actions = {
      {window.sweepView(), {window.sweepView()->startButton(), window.sweepView()->exportButton()}},
      {window.auditView(), {window.auditView()->runButton()}},
  };
  QStringList problems;
  for (int i = 0; i < tabs->count(); ++i) {
    tabs->setCurrentIndex(i);
    settle();
    QWidget* page = tabs->widget(i);
    const QString name = tabs->tabText(i);
    for (const QString& problem : overflowingScrollAreas(page)) problems << QStringLiteral("%1: %2").arg(name, problem);
    QStringList clipped;
    collectOverflow(page, clipped);
    for (const QString& problem : clipped) problems << QStringLiteral("%1: %2").arg(name, problem);
    if (const auto found = actions.find(page); found != actions.end())
      for (QPushButton* button : found->second) {
        const QRect onPage(button->mapTo(page, QPoint(0, 0)), button->size());
        if (!button->isVisible() || !page->rect().contains(onPage))
          problems << QStringLiteral("%1: \"%2\" is not in sight").arg(name, button->text());
      }
    for (const QChartView* view : page->findChildren<QChartView*>()) {
      if (!view->isVisible()) continue;
      for (const QString& problem : elidedAxisTexts(view->chart())) problems << QStringLiteral("%1: %2").arg(name, problem);
    }
    for (const QString& problem : clippedLegendEntries(page)) problems << QStringLiteral("%1: %2").arg(name, problem);
    saveScreenshot(&window, QStringLiteral("page-%1").arg(i));
  }
  QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

// A sweep's legend ("Non-private (softmax, λ = 0.001)" and five mechanisms) and its status
// once widened the window to 1 479 px, the Training dock's fields off the screen's edge.
void TestSmallScreenLayout::aFinishedSweepKeepsTheWindowOnTheScreen() {
  QTemporaryDir noPaperData;
  MainWindow window;
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  ui::SweepView* view = window.sweepView();
  window.centralTabs()->setCurrentWidget(view);
  ui::PresetChooser* chooser = view->form()->presetChooser();
  chooser->setDataFolder(noPaperData.path());
  QVERIFY(chooser->setPreset("paper003-fig3"));  // the quick version on built-in digits
  view->form()->setRepeats(1);
  settle();
  QVERIFY2(window.screen()->availableGeometry().contains(window.frameGeometry()),
           qPrintable(QStringLiteral("with the preset chosen: ") + windowOnScreen(window)));
  QVERIFY(view->startButton()->isEnabled());
  view->startButton()->click();
  QTRY_VERIFY_WITH_TIMEOUT(view->session()->finishedTrials() > 0, 120000);
  settle();
  QVERIFY2(window.screen()->availableGeometry().contains(window.frameGeometry()),
           qPrintable(QStringLiteral("while running: ") + windowOnScreen(window)));
  QTRY_VERIFY_WITH_TIMEOUT(!view->session()->isRunning(), 300000);
  settle();
  saveScreenshot(&window, QStringLiteral("sweep-finished"));
  QVERIFY2(window.screen()->availableGeometry().contains(window.frameGeometry()), qPrintable(windowOnScreen(window)));
  QStringList problems = overflowingScrollAreas(&window);
  collectOverflow(view, problems);
  for (const QString& problem : elidedAxisTexts(view->chart())) problems << problem;
  // The legend under the chart names every line in full.
  QCOMPARE(view->legend()->findChildren<QCheckBox*>(QStringLiteral("legendEntry")).size(),
           7);  // five methods, the non-private model, the most common class
  problems << clippedLegendEntries(view);
  QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestSmallScreenLayout)
#include "test_small_screen_layout.moc"

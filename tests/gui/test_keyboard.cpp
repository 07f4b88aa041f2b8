// The GUI by keyboard and wheel, scripted with the window shown (issue 33): each case is
// named after what it once broke —
//
// - the wheel over the dock changed the spin box under the pointer;
// - Ctrl+T trained once only, and Enter in a field did nothing;
// - Tab into the Ledger table could not leave it;
// - Alt+M focused the Mechanism box out of sight;
// - Ctrl+3/4/5 hid a tabbed dock instead of raising it (now they turn to pages);
// - ticking "Norm bound R" and typing into it moved the form under the pointer.

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTableView>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <cstdlib>

#include "tests/common/test_files.h"
#include "tests/common/test_support.h"
#include "tests/gui/gui_training_support.h"
#include "ui/privacy/ledger_view.h"
#include "ui/training/model_settings_form.h"
#include "ui/widgets/number_field.h"

using namespace dpstudio;
using namespace dpstudio::test;
using dpstudio::ui::MainWindow;

class TestKeyboard : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void wheelOverTheDockScrollsInsteadOfChangingValues();
  void keyboardTrains();
  void tabLeavesTheLedgerTable();
  void tabStopsOnlyWhereSomethingIsShown();
  void altShortcutScrollsToItsField();
  void viewShortcutsTurnToPages();
  void normBoundFieldStaysWhereTheUserTypes();
  void wheelChangesNoValueItWasNotGiven();

 private:
  QTemporaryDir settingsDir_;
};

void TestKeyboard::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  isolateSettings(settingsDir_.path(), QStringLiteral("test_keyboard"));
}

void TestKeyboard::init() { QSettings().clear(); }

void TestKeyboard::wheelOverTheDockScrollsInsteadOfChangingValues() {
  MainWindow window;
  window.resize(1366, 768);
  showActiveOnIris(window);
  QSpinBox* seed = window.modelPanel()->form()->splitSeedBox();
  QComboBox* model = window.modelPanel()->form()->modelBox();
  window.modelPanel()->trainButton()->setFocus();
  for (QWidget* widget : std::initializer_list<QWidget*>{seed, model}) {
    QVERIFY(!widget->hasFocus());
    const int seedBefore = seed->value();
    const int modelBefore = model->currentIndex();
    const QPoint centre = widget->rect().center();
    QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &wheel);
    QCOMPARE(seed->value(), seedBefore);
    QCOMPARE(model->currentIndex(), modelBefore);
    QVERIFY(!widget->hasFocus());
  }
  // Clicked into, the spin box takes the wheel as usual.
  auto wheelUp = [](QWidget* widget) {
    const QPoint centre = widget->rect().center();
    QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &wheel);
  };
  for (QWidget* up = seed->parentWidget(); up != nullptr; up = up->parentWidget())
    if (auto* area = qobject_cast<QScrollArea*>(up)) {
      area->ensureWidgetVisible(seed);
      break;
    }
  QTest::mouseClick(seed, Qt::LeftButton, {}, seed->rect().center());
  QTRY_VERIFY(seed->hasFocus());
  const int before = seed->value();
  wheelUp(seed);
  QCOMPARE(seed->value(), before + 1);
  // A click on an empty spot of the dock leaves the focus in the box (the dock takes none),
  // but the user has moved on: the wheel over the box scrolls again (issue 33: Split seed
  // 1 → 0 and Max iterations 3000 → 3001 that way).
  QWidget* panel = window.modelPanel();
  QTest::mouseClick(panel, Qt::LeftButton, {}, QPoint(2, 2));
  QVERIFY(seed->hasFocus());
  wheelUp(seed);
  QCOMPARE(seed->value(), before + 1);
  // Tabbed into, it takes the wheel again; focus a program moved there does not count.
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
  QTRY_VERIFY(seed->hasFocus());
  wheelUp(seed);
  QCOMPARE(seed->value(), before + 2);
  model->setFocus();
  QTRY_VERIFY(model->hasFocus());
  const int modelIndex = model->currentIndex();
  wheelUp(model);
  QCOMPARE(model->currentIndex(), modelIndex);

  // Pressing Train disables it while the model trains: the focus must not move on to a value
  // box of the tab chain, where scrolling the dock would then change it. (Under Xvfb, once,
  // after a multiparty run, the wheel turned Logistic regression into Huber SVM: the Model box
  // had the focus; how it got it was not found again.)
  auto* train = window.modelPanel()->trainButton();
  train->setFocus();
  QTRY_VERIFY(train->hasFocus());
  QSignalSpy shown(&window, &MainWindow::modelShown);
  train->click();
  QVERIFY(!train->isEnabled());
  QWidget* focused = QApplication::focusWidget();
  QVERIFY2(!focused || (!qobject_cast<QAbstractSpinBox*>(focused) && !qobject_cast<QComboBox*>(focused) &&
                        !qobject_cast<QLineEdit*>(focused)),
           focused ? focused->metaObject()->className() : "");
  QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kTimeoutMs);
}

// Issue 33: Ctrl+T did not train after the first training (the button's setText() dropped
// its shortcut), and Enter in a field did nothing. Each, three times in a row, must train.
void TestKeyboard::keyboardTrains() {
  MainWindow window;
  showActiveOnIris(window);
  QSignalSpy shown(&window, &MainWindow::modelShown);
  auto* train = window.modelPanel()->trainButton();
  for (int run = 1; run <= 3; ++run) {
    QTRY_VERIFY(train->isEnabled());
    QTest::keyClick(&window, Qt::Key_T, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), run, kTimeoutMs);
  }
  QLineEdit* lambda = window.modelPanel()->form()->lambdaField();
  for (int run = 4; run <= 6; ++run) {
    QTRY_VERIFY(train->isEnabled());
    lambda->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(lambda->hasFocus());
    QTest::keyClick(lambda, Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), run, kTimeoutMs);
  }
  // Enter in a field with a value Train refuses does nothing (Train is off).
  lambda->setText(QStringLiteral("-1"));
  QTRY_VERIFY(!train->isEnabled());
  QTest::keyClick(lambda, Qt::Key_Return);
  QTest::qWait(200);
  QCOMPARE(shown.count(), 6);
}

// Issue 33: Tab into the Ledger table and Tab, Shift+Tab stayed there, moving from cell to
// cell. Arrows move within a table; Tab and Shift+Tab leave it.
void TestKeyboard::tabLeavesTheLedgerTable() {
  MainWindow window;
  showActiveOnIris(window);
  // Two releases: a table of rows, in which Tab used to move from cell to cell.
  mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  QTRY_COMPARE_WITH_TIMEOUT(window.ledger().size(), std::size_t{2}, kTimeoutMs);
  QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
  QTableView* table = window.ledgerView()->table();
  table->setCurrentIndex(table->model()->index(0, 0));
  QTRY_VERIFY(table->isVisible());
  for (const Qt::Key key : {Qt::Key_Tab, Qt::Key_Backtab}) {
    table->setFocus(Qt::TabFocusReason);
    QTRY_VERIFY(table->hasFocus());
    QTest::keyClick(table, key);
    QTRY_VERIFY2(!table->hasFocus(), key == Qt::Key_Tab ? "Tab" : "Shift+Tab");
  }
}

// Issue 33: Tab stopped on a Calibration box of zero height. Tab through the whole window,
// for a mechanism of each plan kind, after a private model is trained: every stop is a
// visible widget with an area, on the window.
void TestKeyboard::tabStopsOnlyWhereSomethingIsShown() {
  MainWindow window;
  showActiveOnIris(window);
  mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
  pressAndWaitForModel(window, window.modelPanel()->trainButton());
  // Every entry of the Mechanism list in turn, then the first again: a row shown after
  // another choice kept a hidden row's place in Qt 6.4's form layout and was laid out zero
  // pixels tall, still taking Tab (private selection's ε, DP-SGD's fields, multiparty's
  // Baseline and Aggregation; ui/widgets/form_rows.h).
  QStringList choices;
  QComboBox* box = mechanismForm(window)->mechanismBox();
  for (int i = 0; i < box->count(); ++i) {
    const QString name = box->itemData(i).toString();
    const auto* items = qobject_cast<const QStandardItemModel*>(box->model());
    if (!name.isEmpty() && items && items->item(i) && items->item(i)->isEnabled()) choices << name;
  }
  QVERIFY2(choices.size() >= 8, qPrintable(choices.join(QStringLiteral(", "))));
  choices << choices.front();
  for (const QString& choice : choices) {
    QVERIFY2(mechanismForm(window)->setChoice(choice), qPrintable(choice));
    QTest::qWait(100);  // the rows shown get their geometry when the layout next runs
    mechanismForm(window)->mechanismBox()->setFocus(Qt::TabFocusReason);
    QStringList bad;
    QSet<QWidget*> seen;
    for (int i = 0; i < 200; ++i) {
      QWidget* focus = QApplication::focusWidget();
      QVERIFY(focus);
      if (seen.contains(focus)) break;  // round the whole chain
      seen.insert(focus);
      if (!focus->isVisible() || focus->width() <= 0 || focus->height() <= 0)
        bad << QStringLiteral("%1 \"%2\" %3x%4")
                   .arg(QString::fromLatin1(focus->metaObject()->className()), focus->accessibleName())
                   .arg(focus->width())
                   .arg(focus->height());
      QTest::keyClick(focus, Qt::Key_Tab);
    }
    QVERIFY2(seen.size() > 10, qPrintable(choice));
    QVERIFY2(bad.isEmpty(), qPrintable(choice + QStringLiteral(": ") + bad.join(QStringLiteral("; "))));
  }
}

// Issue 33: Alt+M focused the Mechanism box without scrolling the Training dock to it.
void TestKeyboard::altShortcutScrollsToItsField() {
  MainWindow window;
  showActiveOnIris(window);
  mechanismForm(window)->setMechanism(mech::MechanismKind::DpSgd);  // the tallest form
  window.resize(1280, 720);
  QComboBox* mechanism = mechanismForm(window)->mechanismBox();
  QScrollArea* area = nullptr;
  for (QWidget* up = mechanism->parentWidget(); up != nullptr && !area; up = up->parentWidget())
    area = qobject_cast<QScrollArea*>(up);
  QVERIFY(area);
  auto inSight = [&] {
    const QRect shown(mechanism->mapTo(area->viewport(), QPoint(0, 0)), mechanism->size());
    return area->viewport()->rect().intersects(shown);
  };
  window.modelPanel()->trainButton()->setFocus();
  QTest::qWait(50);  // the resized layout
  area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
  QVERIFY2(!inSight(), "the dock is tall enough to show the box from its bottom: nothing to test");
  QTest::keyClick(&window, Qt::Key_M, Qt::AltModifier);
  QTRY_VERIFY(mechanism->hasFocus());
  QTRY_VERIFY(inSight());
}

// Ctrl+3/4/5 turn to the Ledger, Audit and Noise pages of the central area (they were docks
// under the plot, which at 1366×768 left the chart ~50 px tall), and back, pressed twice.
void TestKeyboard::viewShortcutsTurnToPages() {
  MainWindow window;
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  activate(window);
  QTabWidget* tabs = window.centralTabs();
  QWidget* ledger = window.findChild<QWidget*>(QStringLiteral("ledgerPage"));
  QWidget* audit = window.findChild<QWidget*>(QStringLiteral("auditPage"));
  QWidget* noise = window.findChild<QWidget*>(QStringLiteral("noisePage"));
  QVERIFY(ledger && audit && noise);
  const struct {
    QWidget* page;
    Qt::Key key;
  } steps[] = {{audit, Qt::Key_4}, {noise, Qt::Key_5}, {ledger, Qt::Key_3}, {ledger, Qt::Key_3}, {audit, Qt::Key_4}};
  for (const auto& step : steps) {
    QTest::keyClick(&window, step.key, Qt::ControlModifier);
    QTRY_COMPARE(tabs->currentWidget(), step.page);
    QTRY_VERIFY2(step.page->isVisible() && !step.page->visibleRegion().isEmpty(), qPrintable(step.page->objectName()));
    // The page has the central area's height, not a strip under the plot.
    QVERIFY2(step.page->height() > window.height() / 2, qPrintable(QString::number(step.page->height())));
  }
}

// Issue 33: on a file with no documented bound, ticking "Norm bound R" moved the form 16 px
// and typing 30 into R moved it 68 px the other way (the calibration above it changes
// length), so the next click landed in Split seed. The field the user works in stays put.
void TestKeyboard::normBoundFieldStaysWhereTheUserTypes() {
  QTemporaryDir dir;
  QByteArray csv = "height,weight,age,outcome\n";
  for (int i = 0; i < 200; ++i)
    csv += QStringLiteral("%1,%2,%3,%4\n")
               .arg(150 + i % 40)
               .arg(50 + (i * 7) % 45)
               .arg(20 + (i * 3) % 50)
               .arg(i % 3 == 0 ? "yes" : "no")
               .toUtf8();
  const QString path = writeFile(dir, QStringLiteral("own.csv"), csv);
  MainWindow window;
  window.resize(1366, 768);
  window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&window));
  activate(window);
  openDataset(window, path, 200);
  mechanismForm(window)->setMechanism(mech::MechanismKind::Output);
  auto* settingsForm = window.modelPanel()->form();
  QCheckBox* tick = settingsForm->normBoundBox();
  ui::NumberField* bound = settingsForm->normBoundField();
  QVERIFY(!tick->isChecked());
  QScrollArea* area = nullptr;
  for (QWidget* up = tick->parentWidget(); up != nullptr && !area; up = up->parentWidget())
    area = qobject_cast<QScrollArea*>(up);
  QVERIFY(area);
  QScrollBar* bar = area->verticalScrollBar();
  auto viewportY = [&](QWidget* widget) { return widget->mapTo(area->viewport(), QPoint(0, 0)).y(); };
  // The dock scrolled down towards the tick (the rows above it can then move either way).
  QTest::qWait(50);
  bar->setValue(bar->value() + viewportY(tick) - area->viewport()->height() / 2);
  QTest::qWait(50);
  QVERIFY2(bar->value() > 0, "the dock does not scroll: nothing to test");

  const int tickY = viewportY(tick);
  QTest::mouseClick(tick, Qt::LeftButton, {}, QPoint(8, tick->height() / 2));
  QVERIFY(tick->isChecked());
  QTest::qWait(200);  // the calibration is recomputed and the form laid out again
  QVERIFY2(std::abs(viewportY(tick) - tickY) <= 2,
           qPrintable(QStringLiteral("the tick moved from %1 to %2").arg(tickY).arg(viewportY(tick))));

  QTRY_VERIFY(bound->isEnabled() && bound->isVisible());
  QTest::mouseClick(bound, Qt::LeftButton, {}, QPoint(bound->width() / 2, bound->height() / 2));
  QTRY_VERIFY(bound->hasFocus());
  const int boundY = viewportY(bound);
  bound->selectAll();
  QTest::keyClicks(bound, QStringLiteral("30"));
  QTest::qWait(200);
  QVERIFY2(std::abs(viewportY(bound) - boundY) <= 2,
           qPrintable(QStringLiteral("R moved from %1 to %2").arg(boundY).arg(viewportY(bound))));
  QCOMPARE(bound->text(), QStringLiteral("30"));
  // What the user now sees at R's place is R: a click there types into R, not Split seed.
  const QPoint centre = bound->mapTo(area->viewport(), bound->rect().center());
  QCOMPARE(area->viewport()->childAt(centre), static_cast<QWidget*>(bound));
}

// Issue 33: the wheel over any value widget — every spin box and list of the docks and of
// every page, each page in front in turn — changes nothing while the focus is elsewhere.
void TestKeyboard::wheelChangesNoValueItWasNotGiven() {
  MainWindow window;
  window.resize(1366, 768);
  showActiveOnIris(window);
  trainFromDock(window, ModelKind::Softmax);
  QTabWidget* tabs = window.centralTabs();
  int wheeled = 0;
  QStringList changed;
  for (int page = 0; page < tabs->count(); ++page) {
    tabs->setCurrentIndex(page);
    QTest::qWait(50);
    QList<QWidget*> values;
    for (QAbstractSpinBox* box : window.findChildren<QAbstractSpinBox*>()) values << box;
    for (QComboBox* box : window.findChildren<QComboBox*>()) values << box;
    for (QWidget* widget : values) {
      if (!widget->isVisible() || !widget->isEnabled()) continue;
      window.modelPanel()->trainButton()->setFocus();
      const auto value = [widget] {
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(widget)) return spin->text();
        return QString::number(qobject_cast<QComboBox*>(widget)->currentIndex());
      };
      const QString before = value();
      for (int delta : {-120, 120, 120}) {
        const QPoint centre = widget->rect().center();
        QWheelEvent wheel(centre, widget->mapToGlobal(centre), QPoint(), QPoint(0, delta), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(widget, &wheel);
      }
      ++wheeled;
      if (value() != before)
        changed << QStringLiteral("%1 \"%2\" on %3: %4 -> %5")
                       .arg(QString::fromLatin1(widget->metaObject()->className()), widget->accessibleName(),
                            tabs->tabText(page), before, value());
    }
  }
  QVERIFY2(wheeled > 20, qPrintable(QString::number(wheeled)));
  QVERIFY2(changed.isEmpty(), qPrintable(changed.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestKeyboard)
#include "test_keyboard.moc"

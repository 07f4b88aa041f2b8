// Help → Algorithms: the compiled-in reference, a heading for every mechanism the product
// offers and its "as published" notes, the F1 action in the Help menu, the find field, and
// the dialog's remembered size.

#include <QIODevice>
#include <QKeySequence>
#include <QSize>
#include <QStringList>
#include <QTest>
#include <QTextCursor>

#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

#include <algorithm>

#include "ui/main_window.h"
#include "ui/widgets/help_dialog.h"
#include "ui/widgets/screen_fit.h"

using dpstudio::ui::HelpDialog;
using dpstudio::ui::MainWindow;

namespace {

// The lower-cased text of every heading of the rendered document.
QStringList headings(const QTextDocument& document) {
  QStringList out;
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
    if (block.blockFormat().headingLevel() > 0) out << block.text().toLower();
  return out;
}

QMenu* helpMenu(MainWindow& window) {
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && action->text().remove(QLatin1Char('&')) == QLatin1String("Help")) return action->menu();
  return nullptr;
}

}  // namespace

class TestHelpDialog : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();

  void resourceIsCompiledIn();
  void documentHasEveryMechanism();
  void helpMenuOpensItWithF1();
  void searchSelectsTheNextMatch();
  void remembersItsSize();

 private:
  QTemporaryDir dir_;
};

void TestHelpDialog::initTestCase() {
  QVERIFY(dir_.isValid());
  // Keep the user's real settings out of it.
  QCoreApplication::setOrganizationName(QStringLiteral("dpstudio-tests"));
  QCoreApplication::setApplicationName(QStringLiteral("test_help_dialog"));
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
  qputenv("DPSTUDIO_LEDGER_FILE", dir_.filePath(QStringLiteral("ledger.json")).toUtf8());
  qputenv("DPSTUDIO_SESSION_DIR", dir_.filePath(QStringLiteral("sessions")).toUtf8());
}

void TestHelpDialog::init() { QSettings().clear(); }

void TestHelpDialog::resourceIsCompiledIn() {
  QFile file(HelpDialog::algorithmsResource());
  QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.errorString()));
  const QString text = QString::fromUtf8(file.readAll());
  QVERIFY(text.size() > 1000);
  QVERIFY(text.startsWith(QLatin1String("# ")));
}

void TestHelpDialog::documentHasEveryMechanism() {
  HelpDialog dialog;
  const QTextDocument& document = *dialog.browser()->document();
  const QStringList found = headings(document);
  QVERIFY2(found.size() >= 16, qPrintable(found.join(QLatin1String(" | "))));
  const QStringList mechanisms = {
      QStringLiteral("norm-bound"),         QStringLiteral("noise families"),
      QStringLiteral("ledger"),             QStringLiteral("rdp accountant"), QStringLiteral("pld accountant"),
      QStringLiteral("output perturbation"), QStringLiteral("objective perturbation"),
      QStringLiteral("loss perturbation"),  QStringLiteral("dp-lmgc"),
      QStringLiteral("dp-sgd"),             QStringLiteral("tuning"),
      QStringLiteral("random fourier features"), QStringLiteral("prediction sensitivity"),
      QStringLiteral("subsample-and-aggregate"), QStringLiteral("multiparty"),
      QStringLiteral("audit"),
  };
  for (const QString& mechanism : mechanisms) {
    const bool present = std::any_of(found.begin(), found.end(),
                                     [&](const QString& heading) { return heading.contains(mechanism); });
    QVERIFY2(present, qPrintable(QStringLiteral("no heading for ") + mechanism));
  }
  // Rendered, not shown as source: no Markdown markers survive in the text.
  const QString plain = document.toPlainText();
  QVERIFY(plain.contains(QLatin1String("as published"), Qt::CaseInsensitive));
  QVERIFY(plain.contains(QStringLiteral("β = ε/(4K)")));
  QVERIFY(!plain.contains(QLatin1String("## ")));
  // The departures are stated with their reasons.
  QVERIFY(plain.contains(QLatin1String("NOT differentially private as stated")));
  QVERIFY(plain.contains(QLatin1String("add/remove")));
}

void TestHelpDialog::helpMenuOpensItWithF1() {
  MainWindow window;
  window.show();
  QMenu* help = helpMenu(window);
  QVERIFY(help);
  QAction* algorithms = nullptr;
  for (QAction* action : help->actions())
    if (action->shortcut() == QKeySequence(Qt::Key_F1)) algorithms = action;
  QVERIFY(algorithms);
  QVERIFY(algorithms->text().contains(QLatin1String("Algorithms")));
  QVERIFY(!window.findChild<HelpDialog*>());

  algorithms->trigger();
  auto* dialog = window.findChild<HelpDialog*>();
  QVERIFY(dialog);
  QVERIFY(dialog->isVisible());
  QVERIFY(!dialog->isModal());
  QVERIFY(!dialog->browser()->document()->isEmpty());

  // Closing and asking again shows the same dialog, not a second one.
  dialog->close();
  QVERIFY(!dialog->isVisible());
  algorithms->trigger();
  QCOMPARE(window.findChildren<HelpDialog*>().size(), 1);
  QVERIFY(dialog->isVisible());
}

void TestHelpDialog::searchSelectsTheNextMatch() {
  HelpDialog dialog;
  dialog.show();
  QTextBrowser* browser = dialog.browser();
  QCOMPARE(browser->textCursor().position(), 0);

  // Typed as a user would: the match follows the text, case-insensitively.
  QTest::keyClicks(dialog.searchField(), QStringLiteral("as published"));
  QTextCursor first = browser->textCursor();
  QVERIFY(first.hasSelection());
  QCOMPARE(first.selectedText().toLower(), QStringLiteral("as published"));

  // Enter moves on to the next occurrence.
  QTest::keyClick(dialog.searchField(), Qt::Key_Return);
  QTextCursor second = browser->textCursor();
  QCOMPARE(second.selectedText().toLower(), QStringLiteral("as published"));
  QVERIFY(second.selectionStart() > first.selectionStart());
  QVERIFY(dialog.isVisible());  // Enter found; it did not close the dialog

  // A section heading far down the page is reached too.
  dialog.searchField()->setText(QStringLiteral("Empirical privacy audit"));
  QVERIFY(dialog.findNext());
  QVERIFY(browser->textCursor().block().blockFormat().headingLevel() > 0);

  dialog.searchField()->setText(QStringLiteral("no such phrase anywhere"));
  QVERIFY(!dialog.findNext());
}

void TestHelpDialog::remembersItsSize() {
  {
    HelpDialog dialog;
    // The default when nothing is stored, within the screen (the tests' is 1366×768).
    QCOMPARE(dialog.size(), QSize(900, 700).boundedTo(dpstudio::ui::sizeWithinScreen(&dialog, QSize(900, 700))));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.resize(760, 540);
    dialog.close();
  }
  HelpDialog again;
  QCOMPARE(again.size(), QSize(760, 540));
}

QTEST_MAIN(TestHelpDialog)
#include "test_help_dialog.moc"

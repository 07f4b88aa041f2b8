#include "ui/widgets/help_dialog.h"
#include "ui/widgets/screen_fit.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QHBoxLayout>
#include <QHideEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

namespace dpstudio::ui {
namespace {

const QString kGeometryKey = QStringLiteral("helpDialog/geometry");

// The Markdown text, or a Markdown note saying it is missing (a build without the resource
// is a packaging error, but the dialog should say so rather than show a blank page).
QString loadAlgorithms() {
  QFile file(HelpDialog::algorithmsResource());
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
    return QObject::tr("# Help unavailable\n\nThe algorithms reference (`%1`) is missing from this build.")
        .arg(HelpDialog::algorithmsResource());
  return QString::fromUtf8(file.readAll());
}

}  // namespace

HelpDialog::HelpDialog(QWidget* parent)
    : QDialog(parent), browser_(new QTextBrowser), search_(new QLineEdit), status_(new QLabel) {
  setObjectName(QStringLiteral("algorithmsHelp"));
  setWindowTitle(tr("dpstudio — Algorithms"));
  setModal(false);

  browser_->setObjectName(QStringLiteral("helpBrowser"));
  browser_->setOpenExternalLinks(true);
  browser_->setMarkdown(loadAlgorithms());

  search_->setObjectName(QStringLiteral("helpSearch"));
  search_->setPlaceholderText(tr("Find in page (Enter or F3: next match)"));
  search_->setClearButtonEnabled(true);
  auto* next = new QPushButton(tr("Find &Next"));
  next->setAutoDefault(false);  // Enter in the field must find, not close the dialog
  status_->setObjectName(QStringLiteral("helpSearchStatus"));

  connect(search_, &QLineEdit::returnPressed, this, &HelpDialog::findNext);
  connect(search_, &QLineEdit::textEdited, this, &HelpDialog::findAsTyped);
  connect(next, &QPushButton::clicked, this, &HelpDialog::findNext);

  auto* findAction = new QAction(this);
  findAction->setShortcut(QKeySequence::Find);
  connect(findAction, &QAction::triggered, this, [this] {
    search_->setFocus();
    search_->selectAll();
  });
  addAction(findAction);
  auto* nextAction = new QAction(this);
  nextAction->setShortcut(QKeySequence::FindNext);
  connect(nextAction, &QAction::triggered, this, &HelpDialog::findNext);
  addAction(nextAction);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  buttons->button(QDialogButtonBox::Close)->setAutoDefault(false);

  auto* findRow = new QHBoxLayout;
  findRow->addWidget(search_, 1);
  findRow->addWidget(next);
  findRow->addWidget(status_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(findRow);
  layout->addWidget(browser_, 1);
  layout->addWidget(buttons);

  if (restoreGeometry(QSettings().value(kGeometryKey).toByteArray()))
    keepWithinScreen(this);
  else
    resize(sizeWithinScreen(this, QSize(900, 700)));
}

// Quitting with the dialog open destroys it while visible, and no hideEvent reaches this
// class then.
HelpDialog::~HelpDialog() {
  if (isVisible()) saveGeometrySetting();
}

bool HelpDialog::findNext() {
  const QTextCursor current = browser_->textCursor();
  return findFrom(current.hasSelection() ? current.selectionEnd() : current.position());
}

void HelpDialog::findAsTyped() { findFrom(browser_->textCursor().selectionStart()); }

bool HelpDialog::findFrom(int position) {
  const QString text = search_->text();
  status_->clear();
  if (text.isEmpty()) return false;
  QTextDocument* document = browser_->document();
  QTextCursor found = document->find(text, position);
  if (found.isNull()) found = document->find(text, 0);  // wrap round once
  if (found.isNull()) {
    status_->setText(tr("Not found"));
    return false;
  }
  browser_->setTextCursor(found);  // selects the match and scrolls it into view
  return true;
}

void HelpDialog::hideEvent(QHideEvent* event) {
  // Closing a non-modal dialog only hides it: save here, not in closeEvent or a destructor.
  if (!event->spontaneous()) saveGeometrySetting();
  QDialog::hideEvent(event);
}

void HelpDialog::saveGeometrySetting() const { QSettings().setValue(kGeometryKey, saveGeometry()); }

}  // namespace dpstudio::ui

#include "ui/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QToolBar>

#include "ui/dataset/dataset_panel.h"
#include "ui/dataset/recent_files.h"
#include "ui/plot/scatter_view.h"
#include "ui/privacy/audit_view.h"
#include "ui/privacy/ledger_view.h"
#include "ui/sweep/sweep_view.h"
#include "ui/training/training_dock.h"

// The main window's menus and toolbar, and the View menu's actions that turn to a page of
// the central area or show a dock: every view is reachable from the keyboard.

namespace dpstudio::ui {
namespace {

// A page turned to by its shortcut takes the focus, on its first field: Tab then goes on in
// the page, not in the dock where the shortcut was pressed (issue 33's keyboard walkthrough).
void focusFirstField(QWidget* page) {
  for (QWidget* next = page->nextInFocusChain(); next != nullptr && next != page; next = next->nextInFocusChain()) {
    if (page->isAncestorOf(next) && next->isVisible() && next->isEnabled() && (next->focusPolicy() & Qt::TabFocus)) {
      next->setFocus(Qt::ShortcutFocusReason);
      return;
    }
  }
  if (page->focusPolicy() & Qt::TabFocus) page->setFocus(Qt::ShortcutFocusReason);
}

}  // namespace

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAction_);
  file->addAction(importAction_);
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  recentFiles_ = new RecentFiles(recentMenu_, this);
  connect(recentFiles_, &RecentFiles::fileRequested, this, &MainWindow::openFile);
  file->addSeparator();
  file->addAction(exportAction_);
  file->addAction(exportModelAction_);
  file->addAction(importModelAction_);
  file->addAction(openTranscriptAction_);
  file->addSeparator();
  file->addAction(quitAction_);

  auto* toolBar = addToolBar(tr("Toolbar"));
  toolBar->setObjectName(QStringLiteral("mainToolBar"));
  toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toolBar->addAction(openAction_);
  toolBar->addAction(exportAction_);
  toolBar->addAction(resetZoomAction_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(showPageAction(scatter_, tr("Decision Vie&w"), QKeySequence(tr("Ctrl+D"))));
  view->addAction(showPageAction(sweepView_, tr("&Privacy\u2013Utility"), QKeySequence(tr("Ctrl+U"))));
  view->addSeparator();
  view->addAction(showDockAction(datasetDock_, tr("&Dataset Panel"), QKeySequence(tr("Ctrl+1"))));
  view->addAction(showDockAction(trainingDock_, tr("&Training Panel"), QKeySequence(tr("Ctrl+2"))));
  view->addAction(showPageAction(ledgerView_, tr("&Ledger"), QKeySequence(tr("Ctrl+3"))));
  view->addAction(showPageAction(auditView_, tr("&Audit"), QKeySequence(tr("Ctrl+4"))));
  view->addAction(showPageAction(findChild<QWidget*>(QStringLiteral("noisePage")), tr("&Noise"),
                                 QKeySequence(tr("Ctrl+5"))));
  QWidget* meaning = findChild<QWidget*>(QStringLiteral("meaningPage"));
  view->addAction(showPageAction(meaning, tr("What \u03b5 &Means"), QKeySequence(tr("Ctrl+6"))));
  view->addAction(toolBar->toggleViewAction());
  view->addSeparator();
  view->addAction(resetZoomAction_);
  view->addAction(hideOpenedModelAction_);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(algorithmsAction_);
  // The same page, where people look for an explanation of ε.
  QAction* meaningHelp = showPageAction(meaning, tr("What Does \u03b5 &Mean?"), {});
  meaningHelp->setObjectName(QStringLiteral("meaningHelpAction"));
  help->addAction(meaningHelp);
  help->addSeparator();
  help->addAction(aboutAction_);
  help->addAction(aboutQtAction_);
}

QAction* MainWindow::showPageAction(QWidget* page, const QString& text, const QKeySequence& shortcut) {
  auto* action = new QAction(text, this);
  action->setShortcut(shortcut);
  action->setObjectName(page->objectName() + QStringLiteral("ShowAction"));
  action->setToolTip(tr("Turn to the %1 page").arg(tabs_->tabText(tabs_->indexOf(page))));
  connect(action, &QAction::triggered, this, [this, page] {
    tabs_->setCurrentWidget(page);
    focusFirstField(page);
  });
  return action;
}

QAction* MainWindow::showDockAction(QDockWidget* dock, const QString& text, const QKeySequence& shortcut) {
  // Shows and raises, never hides: the shortcut of a dock tabbed behind another brings it to
  // the front, as a user expects; the dock's own close button hides it.
  auto* action = new QAction(text, this);
  action->setShortcut(shortcut);
  action->setObjectName(dock->objectName() + QStringLiteral("ShowAction"));
  action->setToolTip(tr("Show %1 (and bring it to the front)").arg(dock->windowTitle()));
  connect(action, &QAction::triggered, dock, [dock] {
    dock->show();
    dock->raise();
    if (QWidget* widget = dock->widget()) widget->setFocus(Qt::ShortcutFocusReason);
  });
  return action;
}

}  // namespace dpstudio::ui

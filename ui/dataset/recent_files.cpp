#include "ui/dataset/recent_files.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace dpstudio::ui {
namespace {
const QString kKey = QStringLiteral("recentFiles");
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
  files_ = QSettings().value(kKey).toStringList();
  while (files_.size() > maxCount()) files_.removeLast();
  rebuildMenu();
}

void RecentFiles::add(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  files_.removeAll(absolute);
  files_.prepend(absolute);
  while (files_.size() > maxCount()) files_.removeLast();
  save();
  rebuildMenu();
}

void RecentFiles::clear() {
  files_.clear();
  save();
  rebuildMenu();
}

void RecentFiles::save() const { QSettings().setValue(kKey, files_); }

void RecentFiles::rebuildMenu() {
  menu_->clear();
  int number = 1;
  for (const QString& path : files_) {
    const QFileInfo info(path);
    // &1 … &8 give keyboard accelerators, as desktop applications do.
    auto* action = menu_->addAction(tr("&%1  %2").arg(number++).arg(info.fileName()));
    action->setToolTip(QDir::toNativeSeparators(path));
    action->setStatusTip(QDir::toNativeSeparators(path));
    action->setEnabled(info.exists());
    connect(action, &QAction::triggered, this, [this, path] { emit fileRequested(path); });
  }
  if (!files_.isEmpty()) menu_->addSeparator();
  QAction* clearAction = menu_->addAction(tr("Clear Menu"), this, &RecentFiles::clear);
  clearAction->setEnabled(!files_.isEmpty());
  menu_->setEnabled(true);
  menu_->setToolTipsVisible(true);
}

}  // namespace dpstudio::ui

#pragma once
// The File → Open Recent menu: the last maxCount() data files opened, newest first, kept in
// QSettings under "recentFiles". Files that no longer exist are shown disabled.

#include <QObject>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QMenu;
QT_END_NAMESPACE

namespace dpstudio::ui {

class RecentFiles : public QObject {
  Q_OBJECT

 public:
  explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

  static constexpr int maxCount() { return 8; }
  QStringList files() const { return files_; }
  void add(const QString& path);
  void clear();

 signals:
  void fileRequested(const QString& path);

 private:
  void save() const;
  void rebuildMenu();

  QMenu* menu_;
  QStringList files_;
};

}  // namespace dpstudio::ui

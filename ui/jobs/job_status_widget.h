#pragma once
// The status bar's progress bar and Cancel button. track() shows a job while it runs; when
// several run, the most recently started one is shown and the others follow when it ends.
// The widget hides itself when nothing runs.

#include <QList>
#include <QPointer>
#include <QWidget>

#include "ui/jobs/job.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QToolButton;
QT_END_NAMESPACE

namespace dpstudio::ui {

class JobStatusWidget : public QWidget {
  Q_OBJECT

 public:
  explicit JobStatusWidget(QWidget* parent = nullptr);

  void track(JobHandle* job);
  JobHandle* shownJob() const;
  QToolButton* cancelButton() const { return cancelButton_; }

 private:
  void refresh();

  QList<QPointer<JobHandle>> jobs_;
  QLabel* label_;
  QProgressBar* bar_;
  QToolButton* cancelButton_;
};

}  // namespace dpstudio::ui

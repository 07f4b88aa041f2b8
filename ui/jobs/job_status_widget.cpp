#include "ui/jobs/job_status_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <cmath>

namespace dpstudio::ui {

JobStatusWidget::JobStatusWidget(QWidget* parent)
    : QWidget(parent),
      label_(new QLabel),
      bar_(new QProgressBar),
      cancelButton_(new QToolButton) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  bar_->setRange(0, 1000);
  bar_->setTextVisible(false);
  bar_->setFixedWidth(160);
  cancelButton_->setText(tr("Cancel"));
  cancelButton_->setIcon(style()->standardIcon(QStyle::SP_DialogCancelButton));
  cancelButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  cancelButton_->setAutoRaise(true);
  cancelButton_->setToolTip(tr("Stop this job; what is shown stays as it was."));
  layout->addWidget(label_);
  layout->addWidget(bar_);
  layout->addWidget(cancelButton_);
  connect(cancelButton_, &QToolButton::clicked, this, [this] {
    if (JobHandle* job = shownJob()) job->cancel();
    refresh();
  });
  hide();
}

void JobStatusWidget::track(JobHandle* job) {
  if (!job || !job->isRunning()) return;
  jobs_.append(job);
  connect(job, &JobHandle::progressChanged, this, &JobStatusWidget::refresh);
  connect(job, &JobHandle::finished, this, &JobStatusWidget::refresh);
  connect(job, &QObject::destroyed, this, &JobStatusWidget::refresh, Qt::QueuedConnection);
  refresh();
}

JobHandle* JobStatusWidget::shownJob() const {
  for (auto it = jobs_.crbegin(); it != jobs_.crend(); ++it)
    if (*it && (*it)->isRunning()) return *it;
  return nullptr;
}

void JobStatusWidget::refresh() {
  jobs_.removeIf([](const QPointer<JobHandle>& j) { return j.isNull() || !j->isRunning(); });
  JobHandle* job = shownJob();
  if (!job) {
    hide();
    return;
  }
  // Jobs that end within a blink never show, so quick loads do not flicker the status bar.
  constexpr qint64 showAfterMs = 150;
  if (isHidden() && job->elapsedMs() < showAfterMs) {
    QTimer::singleShot(showAfterMs - job->elapsedMs() + 1, this, &JobStatusWidget::refresh);
    return;
  }
  label_->setText(job->title());
  // No report yet: a busy indicator rather than a bar stuck at zero.
  if (job->progress() <= 0.0) {
    bar_->setRange(0, 0);
  } else {
    bar_->setRange(0, 1000);
    bar_->setValue(static_cast<int>(std::lround(job->progress() * 1000.0)));
  }
  cancelButton_->setEnabled(!job->stopRequested());
  show();
}

}  // namespace dpstudio::ui

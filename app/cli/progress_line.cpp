#include "app/cli/progress_line.h"

#include <algorithm>
#include <cstdio>

namespace dpstudio::cli {

ProgressLine::ProgressLine(QString what, QString unit, long long total, bool quietFirstSecond)
    : what_(std::move(what)), unit_(std::move(unit)), total_(total), quietFirstSecond_(quietFirstSecond) {
  timer_.start();
}

void ProgressLine::step() {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  print(total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0, done_ >= total_);
}

void ProgressLine::setFraction(double done) {
  const std::lock_guard<std::mutex> lock(mutex_);
  // A solver's fraction follows its convergence measure, which can step back: the line never does.
  best_ = std::max(best_, done);
  print(best_, done >= 1.0);
}

void ProgressLine::print(double fraction, bool force) {
  if (quietFirstSecond_ && timer_.elapsed() < 1000) return;
  if (!force && timer_.elapsed() - lastPrint_ < 1000) return;
  lastPrint_ = timer_.elapsed();
  const double elapsed = static_cast<double>(timer_.elapsed()) / 1000.0;
  // Nothing done yet (a solver before its first measured step) gives no rate to extrapolate.
  const QString remaining =
      fraction > 0 ? QString("about %1 s remaining").arg(elapsed * (1.0 - fraction) / fraction, 0, 'f', 1)
                   : QString("time remaining not known yet");
  const QString count =
      unit_.isEmpty()
          ? QString("%1%").arg(static_cast<long long>(100 * fraction + 0.5))
          : QString("%1/%2 %3").arg(static_cast<long long>(fraction * static_cast<double>(total_) + 0.5))
                .arg(total_)
                .arg(unit_);
  const QByteArray line = QString("%1: %2, %3 s elapsed, %4\n")
                              .arg(what_, count)
                              .arg(elapsed, 0, 'f', 1)
                              .arg(remaining)
                              .toUtf8();
  std::fwrite(line.constData(), 1, static_cast<std::size_t>(line.size()), stderr);
}

}  // namespace dpstudio::cli

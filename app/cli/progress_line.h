#pragma once
// Progress of a long command on stderr — "audit: 35% of 40000 runs, 12.0 s elapsed, about
// 22.3 s remaining" — at most once a second and at the end, so a script's stdout (JSON)
// stays clean and a person sees that the work goes on and how long it will take. A command
// that is usually quick (a fit) can stay silent for its first second: nothing is printed if
// it ends within it.

#include <QElapsedTimer>
#include <QString>

#include <mutex>

namespace dpstudio::cli {

class ProgressLine {
 public:
  // `what` names the command, `unit` what is counted ("trials", "runs"; empty: a percentage
  // of `total`). quietFirstSecond: nothing before a second has passed.
  ProgressLine(QString what, QString unit, long long total, bool quietFirstSecond = false);
  void step();                     // one more item done
  void setFraction(double done);   // or the fraction done, from any thread

 private:
  void print(double fraction, bool force);

  QString what_, unit_;
  long long total_;
  long long done_ = 0;
  double best_ = 0;  // the largest fraction reported
  bool quietFirstSecond_;
  qint64 lastPrint_ = -1000000;
  QElapsedTimer timer_;
  std::mutex mutex_;
};

}  // namespace dpstudio::cli

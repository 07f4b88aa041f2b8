// The job adapter (ui/jobs/job.h): values arrive on the GUI thread, errors as text, a
// cancelled job is "cancelled" and not an error, progress is throttled, and a job deleted
// while its worker runs drops the late result.

#include <QCoreApplication>
#include <QTest>
#include <QThreadPool>

#include <QSignalSpy>
#include <QThread>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "ui/jobs/job.h"

using dpstudio::Error;
using dpstudio::Progress;
using dpstudio::Result;
using dpstudio::ui::Job;
using dpstudio::ui::JobHandle;
using dpstudio::ui::startJob;

namespace {
constexpr int kTimeoutMs = 10000;

// Work that runs until it is asked to stop (or ten seconds pass), reporting as it goes.
Result<int> spinUntilStopped(const Progress& progress) {
  const auto start = std::chrono::steady_clock::now();
  while (!progress.cancelled()) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(10)) return 0;
    progress.report(0.5);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Error::cancelled();
}
}  // namespace

class TestUiJobs : public QObject {
  Q_OBJECT

 private slots:
  void deliversTheValueOnTheGuiThread();
  void reportsFailureWithTheErrorText();
  void cancelledIsNotAFailure();
  void cancelBeforeDeliveryDropsACompletedResult();
  void exceptionBecomesAnInternalError();
  void progressIsThrottled();
  void deletingARunningJobIsSafe();
  void cleanupTestCase() { QThreadPool::globalInstance()->waitForDone(); }
};

void TestUiJobs::deliversTheValueOnTheGuiThread() {
  std::atomic<bool> ranOnGuiThread{true};
  QThread* gui = QThread::currentThread();
  auto* job = startJob<std::vector<double>>(QStringLiteral("values"), [&](const Progress& p) {
    ranOnGuiThread = QThread::currentThread() == gui;
    p.report(0.5);
    return std::vector<double>{1.0, 2.0, 3.0};
  });
  QSignalSpy succeeded(job, &JobHandle::succeeded);
  QSignalSpy finished(job, &JobHandle::finished);
  bool finishedOnGuiThread = false;
  connect(job, &JobHandle::finished, this, [&] { finishedOnGuiThread = QThread::currentThread() == gui; });
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
  QCOMPARE(succeeded.count(), 1);
  QVERIFY(!ranOnGuiThread);
  QVERIFY(finishedOnGuiThread);
  QCOMPARE(job->state(), JobHandle::State::Succeeded);
  QCOMPARE(job->progress(), 1.0);
  QCOMPARE(job->takeValue(), (std::vector<double>{1.0, 2.0, 3.0}));
  delete job;
}

void TestUiJobs::reportsFailureWithTheErrorText() {
  auto* job = startJob<int>(QStringLiteral("bad"), [](const Progress&) -> Result<int> {
    return Error::badData("expected 3 columns, found 2", "ragged.csv", 3, "label");
  });
  QSignalSpy failed(job, &JobHandle::failed);
  QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
  QCOMPARE(job->state(), JobHandle::State::Failed);
  QCOMPARE(failed.first().first().toString(),
           QStringLiteral("ragged.csv:3: column 'label': expected 3 columns, found 2"));
  QCOMPARE(job->error().line, 3L);
  delete job;
}

void TestUiJobs::cancelledIsNotAFailure() {
  auto* job = startJob<int>(QStringLiteral("spin"), spinUntilStopped);
  QSignalSpy progress(job, &JobHandle::progressChanged);
  QSignalSpy failed(job, &JobHandle::failed);
  QSignalSpy cancelled(job, &JobHandle::cancelled);
  QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1, kTimeoutMs);  // it is running
  job->cancel();
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, kTimeoutMs);
  QCOMPARE(failed.count(), 0);
  QCOMPARE(job->state(), JobHandle::State::Cancelled);
  QVERIFY(!job->hasValue());
  delete job;
}

void TestUiJobs::cancelBeforeDeliveryDropsACompletedResult() {
  // The work ignores the stop token and succeeds; the caller still must not get the value.
  auto* job = startJob<int>(QStringLiteral("quick"), [](const Progress&) -> Result<int> { return 7; });
  job->cancel();
  QSignalSpy finished(job, &JobHandle::finished);
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
  QCOMPARE(job->state(), JobHandle::State::Cancelled);
  delete job;
}

void TestUiJobs::exceptionBecomesAnInternalError() {
  auto* job = startJob<int>(QStringLiteral("throws"), [](const Progress&) -> Result<int> {
    throw std::runtime_error("boom");
  });
  QSignalSpy failed(job, &JobHandle::failed);
  QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kTimeoutMs);
  QCOMPARE(job->error().kind, dpstudio::ErrorKind::Internal);
  QVERIFY(failed.first().first().toString().contains(QLatin1String("boom")));
  delete job;
}

void TestUiJobs::progressIsThrottled() {
  // 200 000 reports over about 300 ms must reach the GUI as at most ~30 per second.
  auto* job = startJob<int>(QStringLiteral("chatty"), [](const Progress& p) -> Result<int> {
    const auto start = std::chrono::steady_clock::now();
    const int reports = 200000;
    for (int i = 0; i < reports; ++i) {
      p.report(static_cast<double>(i) / reports);
      while (std::chrono::steady_clock::now() - start < std::chrono::microseconds(i * 3 / 2)) {}
    }
    return reports;
  });
  QSignalSpy progress(job, &JobHandle::progressChanged);
  QSignalSpy finished(job, &JobHandle::finished);
  QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
  const qint64 ms = job->elapsedMs();
  QVERIFY2(progress.count() >= 2, qPrintable(QString::number(progress.count())));
  QVERIFY2(progress.count() <= ms / 33 + 3,
           qPrintable(QStringLiteral("%1 updates in %2 ms").arg(progress.count()).arg(ms)));
  QCOMPARE(progress.last().first().toDouble(), 1.0);
  delete job;
}

void TestUiJobs::deletingARunningJobIsSafe() {
  std::atomic<bool> stopped{false};
  auto* job = startJob<int>(QStringLiteral("orphan"), [&stopped](const Progress& p) {
    Result<int> r = spinUntilStopped(p);
    stopped = true;
    return r;
  });
  QSignalSpy progress(job, &JobHandle::progressChanged);
  QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1, kTimeoutMs);
  delete job;  // requests a stop and detaches: the late result goes nowhere
  QTRY_VERIFY_WITH_TIMEOUT(stopped.load(), kTimeoutMs);
  QThreadPool::globalInstance()->waitForDone();
  QCoreApplication::processEvents();  // nothing may be delivered to the deleted job
}

QTEST_MAIN(TestUiJobs)
#include "test_ui_jobs.moc"

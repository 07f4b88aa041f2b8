// Writes are atomic (issue 12): an export killed before its commit leaves no file at the
// target; a budget decrement killed mid-way leaves the old count, completed the new one; an
// abandoned or failed write leaves an existing bundle untouched.
//
// "Killed" is real: a forked child runs the write and SIGKILLs itself from the commit hook,
// after the whole temporary file is on disk and before the rename.

#include <QFile>
#include <QByteArray>
#include <QIODevice>
#include <QStringList>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/bundle/bundle_fixtures.h"

using namespace dpstudio;

namespace {

QByteArray fileBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Runs `write` in a child process whose commit hook kills it; true when it died by SIGKILL.
bool killedMidWrite(const std::function<Status(const bundle::BeforeCommit&)>& write) {
  const pid_t child = fork();
  if (child == 0) {
    write([] {
      std::raise(SIGKILL);
      return true;
    });
    _exit(0);  // not reached: the hook kills the child
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace

class TestBundleAtomic : public QObject {
  Q_OBJECT

  bundle::BundleContents model_;
  bundle::BundleContents predictor_;

 private slots:
  void initTestCase() {
    model_ = test::exported(test::trainRun(
        experiment::PrivacyPlan::nonPrivate({ModelKind::Softmax, 1e-3, 0.5}), "builtin:iris"));
    predict::PredictionOptions o;
    o.learner = {ModelKind::Softmax, 1e-2, 0.5};
    o.budget = 20;
    predictor_ = test::exported(test::trainRun(experiment::PrivacyPlan::prediction(o), "builtin:iris"));
  }

  void killedExportLeavesNoFile() {
    test::BundleFolder folder;
    const QString path = folder.path("m.dpmodel");
    QVERIFY(killedMidWrite([&](const bundle::BeforeCommit& hook) { return bundle::writeBundle(model_, path, hook); }));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!bundle::readBundle(path));
  }

  void killedExportLeavesTheOldFileUntouched() {
    test::BundleFolder folder;
    const QString path = folder.path("m.dpmodel");
    QVERIFY(bundle::writeBundle(predictor_, path));
    const QByteArray before = fileBytes(path);
    QVERIFY(killedMidWrite([&](const bundle::BeforeCommit& hook) { return bundle::writeBundle(model_, path, hook); }));
    QCOMPARE(fileBytes(path), before);
  }

  // The budget count is either the old one or the new one, never anything else.
  void budgetDecrementIsOldOrNew() {
    test::BundleFolder folder;
    const QString path = folder.path("p.dpmodel");
    QVERIFY(bundle::writeBundle(predictor_, path));
    auto loaded = test::orDie(bundle::readBundle(path));
    const long long before = *loaded.budgetRemaining();
    privacy::ExperimentNoise noise(3);
    const Eigen::MatrixXd rows = Eigen::MatrixXd::Constant(4, 4, 0.25);
    QCOMPARE(test::orDie(bundle::predict(loaded, rows, noise)).answersSpent, 4LL);

    QVERIFY(killedMidWrite([&](const bundle::BeforeCommit& hook) {
      return bundle::writeBundle(bundle::currentContents(loaded), path, hook);
    }));
    QCOMPARE(*test::orDie(bundle::readBundle(path)).budgetRemaining(), before);  // old

    QVERIFY(bundle::writeBundle(bundle::currentContents(loaded), path));
    QCOMPARE(*test::orDie(bundle::readBundle(path)).budgetRemaining(), before - 4);  // new
  }

  void abandonedWriteChangesNothing() {
    test::BundleFolder folder;
    const QString path = folder.path("m.dpmodel");
    QVERIFY(bundle::writeBundle(model_, path));
    const QByteArray before = fileBytes(path);
    const Status abandoned = bundle::writeBundle(predictor_, path, [] { return false; });
    QVERIFY(!abandoned);
    QCOMPARE(abandoned.error().kind, ErrorKind::Internal);
    QCOMPARE(fileBytes(path), before);
    QCOMPARE(folder.entries(), QStringList{"m.dpmodel"});  // no temporary file left behind
  }

  void unwritableTargetFailsCleanly() {
    test::BundleFolder folder;
    const Status failed = bundle::writeBundle(model_, folder.path("no/such/folder/m.dpmodel"));
    QVERIFY(!failed);
    QCOMPARE(failed.error().kind, ErrorKind::Internal);
    QVERIFY(folder.entries().isEmpty());
  }

  // More rows than the budget has left: refused as a whole, nothing spent.
  void overBudgetRequestSpendsNothing() {
    test::BundleFolder folder;
    const QString path = folder.path("p.dpmodel");
    QVERIFY(bundle::writeBundle(predictor_, path));
    auto loaded = test::orDie(bundle::readBundle(path));
    const long long remaining = *loaded.budgetRemaining();
    privacy::ExperimentNoise noise(3);
    const Eigen::MatrixXd rows = Eigen::MatrixXd::Constant(remaining + 1, 4, 0.25);
    auto refused = bundle::predict(loaded, rows, noise);
    QVERIFY(!refused);
    QCOMPARE(refused.error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(*loaded.budgetRemaining(), remaining);
  }
};

QTEST_GUILESS_MAIN(TestBundleAtomic)
#include "test_bundle_atomic.moc"

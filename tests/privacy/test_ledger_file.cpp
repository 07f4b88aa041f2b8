// The ledger file (core/privacy/ledger_file.h): every field reads back as written; a write
// killed before its commit leaves the previous file whole; a corrupt file is kept aside and
// reported, never silently reset; a newer format is refused and left untouched; writers in
// several processes lose nothing; a live writer's lock is never broken, however old;
// archiving renames, never deletes.
//
// "Killed" and "several processes" are real: forked children, one SIGKILLed from the
// commit hook after the whole temporary file is written and before the rename.

#include <QByteArray>
#include <QFileDevice>
#include <QFileInfo>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>
#include <QTest>

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLockFile>
#include <QTemporaryDir>

#include <csignal>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

#include "core/privacy/ledger_file.h"
#include "core/privacy/ledger_json.h"
#include "core/privacy/ledger_totals.h"

using namespace dpstudio;
using namespace dpstudio::privacy;

namespace {

QByteArray fileBytes(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
  f.write(bytes);
}

LedgerEntry release(const std::string& id, const std::string& mechanism, double epsilon) {
  LedgerEntry e;
  e.id = id;
  e.session = "test session";
  e.mechanism = mechanism;
  e.epsilon = epsilon;
  e.dataset = "/data/a.csv";
  e.time = std::chrono::system_clock::time_point{} + std::chrono::milliseconds(1717400000123);
  return e;
}

// Every field, as the ledger file must keep it.
void compareEntries(const LedgerEntry& a, const LedgerEntry& b) {
  QCOMPARE(a.id, b.id);
  QCOMPARE(a.session, b.session);
  QCOMPARE(a.index, b.index);
  QCOMPARE(a.time, b.time);
  QCOMPARE(a.mechanism, b.mechanism);
  QCOMPARE(a.epsilon, b.epsilon);  // exactly: full precision
  QCOMPARE(a.delta, b.delta);
  QCOMPARE(a.dataset, b.dataset);
  QCOMPARE(a.datasetName, b.datasetName);
  QCOMPARE(a.note, b.note);
  QCOMPARE(a.inferenceBudget.has_value(), b.inferenceBudget.has_value());
  if (a.inferenceBudget) {
    QCOMPARE(a.inferenceBudget->id, b.inferenceBudget->id);
    QCOMPARE(a.inferenceBudget->budget, b.inferenceBudget->budget);
    QCOMPARE(a.inferenceBudget->answers, b.inferenceBudget->answers);
    QCOMPARE(a.inferenceBudget->before, b.inferenceBudget->before);
    QCOMPARE(a.inferenceBudget->opens, b.inferenceBudget->opens);
  }
}

// A valid one-entry ledger with one field replaced in its entry (or at the top).
QByteArray ledgerWith(const char* key, const QJsonValue& value, bool inEntry = true) {
  QJsonObject root = QJsonDocument::fromJson(ledgerToJson({release("e1", "output perturbation", 1.0)})).object();
  if (inEntry) {
    QJsonArray entries = root["entries"].toArray();
    QJsonObject entry = entries[0].toObject();
    entry[QLatin1String(key)] = value;
    entries[0] = entry;
    root["entries"] = entries;
  } else {
    root[QLatin1String(key)] = value;
  }
  return QJsonDocument(root).toJson();
}

// Runs `work` in a forked child; true when it exited 0 (or, with `killed`, died by SIGKILL).
bool inChild(const std::function<bool()>& work, bool killed = false) {
  const pid_t child = fork();
  if (child == 0) _exit(work() ? 0 : 1);
  int status = 0;
  waitpid(child, &status, 0);
  if (killed) return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

class TestLedgerFile : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  int n_ = 0;
  QString freshPath() { return QDir(dir_.path()).filePath(QStringLiteral("case%1/ledger.json").arg(++n_)); }
  static QStringList folderEntries(const QString& path) {
    return QFileInfo(path).absoluteDir().entryList(QDir::Files | QDir::Hidden, QDir::Name);
  }

 private slots:
  void roundTripKeepsEveryField() {
    LedgerEntry plain = release("0123456789abcdef0123456789abcdef", "Output perturbation (Logistic regression)", 0.1 + 0.2);
    plain.delta = 1.0000000000000001e-05;
    plain.note = "calibration corrected; noise l2-laplace; \"quoted\", ünïcode; ε";
    plain.index = 3;
    LedgerEntry budget = release("b", "Prediction sensitivity (Softmax regression)", 1.0 / 3.0);
    budget.datasetName = "clinic";
    budget.dataset.clear();  // unknown path: null in the file
    budget.inferenceBudget = InferenceBudgetUse{18446744073709551557ULL, 500, 123, 77, true};  // id > 2^53
    LedgerFile file(freshPath());
    QVERIFY(!QFile::exists(file.path()));
    auto written = file.merge({plain, budget});
    QVERIFY2(written, written ? "" : written.error().toString().c_str());
    auto read = file.load();
    QVERIFY(read);
    QVERIFY(!read.value().setAside);
    QCOMPARE(read.value().entries.size(), std::size_t{2});
    compareEntries(read.value().entries[0], plain);
    compareEntries(read.value().entries[1], budget);
    // The running totals are in the file for its readers.
    const QJsonObject root = QJsonDocument::fromJson(fileBytes(file.path())).object();
    QCOMPARE(root["format"].toString(), QStringLiteral("dpstudio-ledger"));
    QCOMPARE(root["version"].toInt(), 2);
    QCOMPARE(root["total"].toObject()["epsilon"].toDouble(), (0.1 + 0.2) + 1.0 / 3.0);
    QCOMPARE(root["datasets"].toArray().size(), 2);
    const QJsonObject budgets = root["budgets"].toArray()[0].toObject();
    QCOMPARE(budgets["id"].toString(), QStringLiteral("18446744073709551557"));
    QCOMPARE(budgets["used"].toInt(), 200);
    QCOMPARE(budgets["remaining"].toInt(), 300);
  }

  // Version 1 kept one entry per budget with the largest count reported: read as its opening.
  void aVersionOneLedgerIsRead() {
    LedgerFile file(freshPath());
    QVERIFY(QDir().mkpath(QFileInfo(file.path()).absolutePath()));
    QJsonObject root = QJsonDocument::fromJson(ledgerWith("inference_budget",
                                                          QJsonObject{{"id", "7"}, {"budget", 10}, {"used", 6}, {"remaining", 4}}))
                           .object();
    root["version"] = 1;
    writeBytes(file.path(), QJsonDocument(root).toJson());
    auto read = file.load();
    QVERIFY2(read, read ? "" : read.error().toString().c_str());
    const InferenceBudgetUse b = *read.value().entries.at(0).inferenceBudget;
    QCOMPARE(b.answers, 6LL);
    QCOMPARE(b.before, 0LL);
    QVERIFY(b.opens);
    // Written back as version 2, its count unchanged.
    LedgerEntry later = release("later", "prediction", 1.0);
    later.inferenceBudget = InferenceBudgetUse{7, 10, 3, 6, true};
    QVERIFY(file.merge({later}));
    QCOMPARE(QJsonDocument::fromJson(fileBytes(file.path())).object()["version"].toInt(), 2);
    QCOMPARE(budgetAnswers(file.load().value().entries, 7), 9LL);
  }

  // Sending the same entries again changes nothing (a writer may resend its session); a
  // session's count only rises; another session's answers of the budget add up, and a merge
  // that would carry them past B is refused with the file untouched.
  void mergeIsIdempotentAndAddsUpBudgets() {
    LedgerFile file(freshPath());
    LedgerEntry b = release("b", "prediction", 1.0);
    b.inferenceBudget = InferenceBudgetUse{42, 10, 2, 0, true};
    QVERIFY(file.merge({release("a", "output", 1.0), b}));
    const QByteArray before = fileBytes(file.path());
    QVERIFY(file.merge({release("a", "output", 1.0), b}));
    QCOMPARE(fileBytes(file.path()), before);  // nothing changed: not even rewritten
    b.inferenceBudget->answers = 3;
    QVERIFY(file.merge({b}));
    LedgerEntry later = release("other session", "prediction", 1.0);
    later.inferenceBudget = InferenceBudgetUse{42, 10, 5, 3, true};
    auto merged = file.merge({later});
    QVERIFY(merged);
    QCOMPARE(merged.value().entries.size(), std::size_t{3});
    const LedgerEntry& added = merged.value().entries[2];
    QVERIFY(!added.inferenceBudget->opens);
    QCOMPARE(added.epsilon, 0.0);
    QCOMPARE(budgetAnswers(file.load().value().entries, 42), 8LL);
    const QByteArray full = fileBytes(file.path());
    LedgerEntry over = release("a third session", "prediction", 1.0);
    over.inferenceBudget = InferenceBudgetUse{42, 10, 3, 0, true};
    auto refused = file.merge({over});
    QVERIFY(!refused);
    QVERIFY(refused.error().kind == ErrorKind::InvalidPrivacy);
    QVERIFY2(refused.error().message.find("counts 8 of the 10 answers") != std::string::npos,
             refused.error().message.c_str());
    QCOMPARE(fileBytes(file.path()), full);
  }

  void aWriteKilledBeforeItsCommitLeavesTheOldFile() {
    LedgerFile file(freshPath());
    QVERIFY(file.merge({release("a", "output", 1.0)}));
    const QByteArray before = fileBytes(file.path());
    QVERIFY(inChild(
        [&] {
          (void)file.merge({release("b", "output", 2.0)}, [] {
            std::raise(SIGKILL);
            return true;
          });
          return true;
        },
        true));
    QCOMPARE(fileBytes(file.path()), before);
    auto read = file.load();  // the lock the dead child held is taken over
    QVERIFY2(read, read ? "" : read.error().toString().c_str());
    QCOMPARE(read.value().entries.size(), std::size_t{1});
    QVERIFY(!read.value().setAside);
  }

  void aFirstWriteKilledBeforeItsCommitLeavesNoFile() {
    LedgerFile file(freshPath());
    QVERIFY(inChild(
        [&] {
          (void)file.merge({release("a", "output", 1.0)}, [] {
            std::raise(SIGKILL);
            return true;
          });
          return true;
        },
        true));
    QVERIFY(!QFile::exists(file.path()));
    QVERIFY(file.load().value().entries.empty());
  }

  void anAbandonedWriteLeavesNoTemporaryFile() {
    LedgerFile file(freshPath());
    QVERIFY(file.merge({release("a", "output", 1.0)}));
    const QByteArray before = fileBytes(file.path());
    auto abandoned = file.merge({release("b", "output", 1.0)}, [] { return false; });
    QVERIFY(!abandoned);
    QCOMPARE(fileBytes(file.path()), before);
    QCOMPARE(folderEntries(file.path()), QStringList{QStringLiteral("ledger.json")});  // nor a lock file left
  }

  void aCorruptFileIsKeptAsideAndReported_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    QTest::newRow("truncated") << ledgerToJson({release("a", "output", 1.0)}).left(120) << "not JSON";
    QTest::newRow("empty file") << QByteArray() << "not JSON";
    QTest::newRow("not an object") << QByteArray("[1, 2]") << "not a JSON object";
    QTest::newRow("another format") << ledgerWith("format", "something-else", false) << "not a dpstudio ledger";
    QTest::newRow("negative epsilon") << ledgerWith("epsilon", -1.0) << "entry 1: epsilon must be a finite number >= 0";
    QTest::newRow("delta 1") << ledgerWith("delta", 1.0) << "entry 1: delta must be in [0, 1)";
    QTest::newRow("no mechanism") << ledgerWith("mechanism", "") << "entry 1: mechanism must be a non-empty string";
    QTest::newRow("bad time") << ledgerWith("time", "yesterday") << "entry 1: time 'yesterday' is not an ISO 8601";
    QTest::newRow("overspent budget")
        << ledgerWith("inference_budget",
                      QJsonObject{{"id", "7"}, {"budget", 5}, {"answers", 4}, {"before", 2}, {"opens", true}})
        << "entry 1: inference_budget counts more answers than its budget";
    QTest::newRow("budget id 0")
        << ledgerWith("inference_budget",
                      QJsonObject{{"id", "0"}, {"budget", 5}, {"answers", 1}, {"before", 0}, {"opens", true}})
        << "entry 1: inference_budget.id must be a non-zero decimal string";
    QTest::newRow("opens not a boolean")
        << ledgerWith("inference_budget", QJsonObject{{"id", "7"}, {"budget", 5}, {"answers", 1}, {"before", 0}})
        << "entry 1: inference_budget.opens must be true or false";
    QJsonObject root = QJsonDocument::fromJson(ledgerToJson({release("a", "x", 1.0), release("a", "y", 1.0)})).object();
    QTest::newRow("repeated id") << QJsonDocument(root).toJson() << "entry 2: its id a appears twice";
  }

  void aCorruptFileIsKeptAsideAndReported() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    LedgerFile file(freshPath());
    QVERIFY(QDir().mkpath(QFileInfo(file.path()).absolutePath()));
    writeBytes(file.path(), bytes);
    auto loaded = file.load();
    QVERIFY2(loaded, loaded ? "" : loaded.error().toString().c_str());
    QVERIFY(loaded.value().entries.empty());
    QVERIFY(loaded.value().setAside);
    const QString message = QString::fromStdString(*loaded.value().setAside);
    QVERIFY2(message.contains(file.path()), qPrintable(message));  // names the file
    QVERIFY2(message.contains(problem), qPrintable(message));      // and what is wrong
    // Kept aside, byte for byte, under the name the message gives; never deleted.
    QVERIFY(!QFile::exists(file.path()));
    const QStringList files = folderEntries(file.path());
    QCOMPARE(files.size(), 1);
    QVERIFY2(files[0].startsWith(QStringLiteral("ledger.json.corrupt-")), qPrintable(files[0]));
    QVERIFY(message.contains(files[0]));
    QCOMPARE(fileBytes(QFileInfo(file.path()).absoluteDir().filePath(files[0])), bytes);
    // The next write starts a new ledger beside it.
    QVERIFY(file.merge({release("new", "output", 1.0)}));
    QCOMPARE(file.load().value().entries.size(), std::size_t{1});
    QCOMPARE(folderEntries(file.path()).size(), 2);
  }

  // A merge that finds the file corrupt sets it aside too, reports it, and writes its entries.
  void aMergeOverACorruptFileReportsIt() {
    LedgerFile file(freshPath());
    QVERIFY(QDir().mkpath(QFileInfo(file.path()).absolutePath()));
    writeBytes(file.path(), "{");
    auto merged = file.merge({release("a", "output", 1.0)});
    QVERIFY(merged);
    QVERIFY(merged.value().setAside);
    QCOMPARE(merged.value().entries.size(), std::size_t{1});
    QCOMPARE(folderEntries(file.path()).size(), 2);
  }

  void aNewerVersionIsRefusedAndLeftUntouched() {
    LedgerFile file(freshPath());
    QVERIFY(QDir().mkpath(QFileInfo(file.path()).absolutePath()));
    const QByteArray newer = ledgerWith("version", 3, false);
    writeBytes(file.path(), newer);
    auto loaded = file.load();
    QVERIFY(!loaded);
    const QString message = QString::fromStdString(loaded.error().toString());
    QVERIFY2(message.contains(file.path()) && message.contains(QStringLiteral("version 3 is newer")), qPrintable(message));
    auto merged = file.merge({release("b", "output", 1.0)});
    QVERIFY(!merged);
    QCOMPARE(fileBytes(file.path()), newer);
    QCOMPARE(folderEntries(file.path()), QStringList{QStringLiteral("ledger.json")});
  }

  void anUnreadableFileIsRefusedNotReset() {
    if (geteuid() == 0) QSKIP("root reads any file");
    LedgerFile file(freshPath());
    QVERIFY(file.merge({release("a", "output", 1.0)}));
    QFile::setPermissions(file.path(), QFileDevice::WriteOwner);
    auto loaded = file.load();
    QFile::setPermissions(file.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QVERIFY(!loaded);
    QVERIFY(QString::fromStdString(loaded.error().toString()).contains(QStringLiteral("cannot read the privacy ledger")));
    QCOMPARE(file.load().value().entries.size(), std::size_t{1});
  }

  // Two processes, each appending one release at a time (re-read, merge, write under the
  // lock): every release of both is in the file at the end.
  void twoProcessesAppendingConcurrentlyLoseNothing() {
    LedgerFile file(freshPath());
    QVERIFY(file.merge({}));
    constexpr int kEach = 40;
    std::vector<pid_t> children;
    for (int p = 0; p < 2; ++p) {
      const pid_t child = fork();
      if (child == 0) {
        bool ok = true;
        for (int i = 0; i < kEach; ++i)
          ok = file.merge({release("p" + std::to_string(p) + "-" + std::to_string(i), "output", 0.5)}).ok() && ok;
        _exit(ok ? 0 : 1);
      }
      children.push_back(child);
    }
    for (pid_t child : children) {
      int status = 0;
      waitpid(child, &status, 0);
      QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    auto read = file.load();
    QVERIFY(read);
    std::set<std::string> ids;
    for (const LedgerEntry& e : read.value().entries) ids.insert(e.id);
    QCOMPARE(ids.size(), std::size_t{2 * kEach});
    QCOMPARE(read.value().entries.size(), std::size_t{2 * kEach});
  }

  // Issue 30 item 10: Qt's default stale time (30 s) let a writer break into a lock file
  // older than that whose writer was still alive. A lock is never stale by age: here one
  // written by this live process, as QLockFile writes it, two minutes old and held without a
  // native lock (as over a network filesystem). The writer waits its 10 s and refuses,
  // naming the lock; the lock and the ledger are left as they are.
  void anOldLockOfALiveWriterIsNeverBroken() {
    LedgerFile file(freshPath());
    QVERIFY(file.merge({release("a", "output", 1.0)}));
    const QByteArray before = fileBytes(file.path());
    const QString lockPath = file.path() + QStringLiteral(".lock");
    QByteArray lockContents;
    {
      QLockFile live(lockPath);
      QVERIFY(live.tryLock(0));
      lockContents = fileBytes(lockPath);
      live.unlock();
    }
    QVERIFY(lockContents.startsWith(QByteArray::number(QCoreApplication::applicationPid()) + '\n'));
    writeBytes(lockPath, lockContents);
    {
      QFile lock(lockPath);
      QVERIFY(lock.open(QIODevice::ReadWrite));
      QVERIFY(lock.setFileTime(QDateTime::currentDateTime().addSecs(-120), QFileDevice::FileModificationTime));
    }
    QElapsedTimer waited;
    waited.start();
    auto merged = file.merge({release("b", "output", 1.0)});
    QVERIFY2(!merged, "the lock of a live writer was broken");
    QVERIFY(waited.elapsed() >= 9000);
    const QString message = QString::fromStdString(merged.error().toString());
    QVERIFY2(message.contains(QStringLiteral("locked by another process")) && message.contains(lockPath),
             qPrintable(message));
    QCOMPARE(fileBytes(file.path()), before);
    QCOMPARE(fileBytes(lockPath), lockContents);
    QVERIFY(QFile::remove(lockPath));
    QVERIFY(file.merge({release("b", "output", 1.0)}));  // free again
  }

  void archiveRenamesAsideAndStartsAnew() {
    LedgerFile file(freshPath());
    QCOMPARE(file.archive().value(), QString());  // nothing to archive
    QVERIFY(file.merge({release("a", "output", 1.0)}));
    const QByteArray before = fileBytes(file.path());
    auto archived = file.archive();
    QVERIFY(archived);
    QVERIFY(QFileInfo(archived.value()).fileName().startsWith(QStringLiteral("ledger.json.archived-")));
    QCOMPARE(fileBytes(archived.value()), before);
    QVERIFY(!QFile::exists(file.path()));
    QVERIFY(file.load().value().entries.empty());
  }

  void defaultPathFollowsTheEnvironment() {
    const QByteArray saved = qgetenv("DPSTUDIO_LEDGER_FILE");
    qputenv("DPSTUDIO_LEDGER_FILE", "/somewhere/else.json");
    QCOMPARE(defaultLedgerPath(), QStringLiteral("/somewhere/else.json"));
    qunsetenv("DPSTUDIO_LEDGER_FILE");
    QVERIFY(defaultLedgerPath().endsWith(QStringLiteral("/dpstudio/ledger.json")));
    if (!saved.isEmpty()) qputenv("DPSTUDIO_LEDGER_FILE", saved);
  }

  void initTestCase() { QVERIFY(dir_.isValid()); }
};

QTEST_GUILESS_MAIN(TestLedgerFile)
#include "test_ledger_file.moc"

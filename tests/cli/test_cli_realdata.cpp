// The CLI on the full real datasets (label "realdata"; needs DPSTUDIO_DATA_DIR).

#include <QtTest>

#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::runCli;

class TestCliRealData : public QObject {
  Q_OBJECT

 private slots:
  void infoOnA9a() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const auto run = runCli({"info", dpstudio::test::realDataDir() + "/a9a", "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject info = run.json();
    QCOMPARE(info["format"].toString(), QString("libsvm"));
    QCOMPARE(info["rows"].toInt(), 32561);
    QCOMPARE(info["features"].toInt(), 123);
    QCOMPARE(info["classes"].toInt(), 2);
    QCOMPARE(info["class_counts"].toObject()["-1"].toInt(), 24720);
    QCOMPARE(info["class_counts"].toObject()["+1"].toInt(), 7841);
    DPSTUDIO_COMPARE_REL(info["max_row_norm"].toDouble(), std::sqrt(14.0), 1e-12);
  }

  void infoOnMnistIdx() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const QString dir = dpstudio::test::realDataDir();
    const auto run = runCli({"info", dir + "/t10k-images-idx3-ubyte.gz", "--labels",
                             dir + "/t10k-labels-idx1-ubyte.gz", "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject info = run.json();
    QCOMPARE(info["format"].toString(), QString("idx"));
    QCOMPARE(info["rows"].toInt(), 10000);
    QCOMPARE(info["features"].toInt(), 784);
    QCOMPARE(info["classes"].toInt(), 10);
    QCOMPARE(info["class_counts"].toObject()["1"].toInt(), 1135);
  }
};

QTEST_GUILESS_MAIN(TestCliRealData)
#include "test_cli_realdata.moc"

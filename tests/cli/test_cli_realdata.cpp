// The CLI on the full real datasets (label "realdata"; needs DPSTUDIO_DATA_DIR).

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QTest>

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


  // Paper 004 Figure 2 on a9a: accuracy rises with ε for every split and calibration, every
  // curve reaches the all-data non-private accuracy at ε = 30, and at ε = 0.1 the split whose
  // smallest party holds 10 % of the rows does worse than the even split (the noise is
  // calibrated to the smallest party), which does as well as one party holding every row.
  void paper004Figure2() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    const auto run = runCli({"sweep", "--preset", "paper004-fig2", "--data-dir", dpstudio::test::realDataDir(),
                             "--repeats", "40", "--json"});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject json = run.json();
    QMap<QString, QMap<double, double>> curves;
    for (const QJsonValue& v : json["points"].toArray()) {
      const QJsonObject p = v.toObject();
      curves[p["mechanism"].toString()][p["value"].toDouble()] = p["mean"].toDouble();
    }
    QCOMPARE(curves.size(), 8);
    const double nonPrivate = json["references"].toArray()[0].toObject()["accuracy"].toDouble();
    QVERIFY2(nonPrivate > 0.83 && nonPrivate < 0.86, qPrintable(QString::number(nonPrivate)));
    for (auto it = curves.begin(); it != curves.end(); ++it) {
      const auto& c = it.value();
      QVERIFY2(c[0.1] < c[1] && c[1] <= c[30] + 0.002, qPrintable(it.key()));
      QVERIFY2(std::abs(c[30] - nonPrivate) < 0.005, qPrintable(it.key()));
    }
    const double even = curves["multiparty:parties=5"][0.1];
    const double uneven = curves["multiparty:split=0.1/0.2/0.2/0.2/0.3"][0.1];
    const double allData = curves["multiparty:parties=1"][0.1];
    QVERIFY2(uneven < even - 0.03, qPrintable(QString("%1 vs %2").arg(uneven).arg(even)));
    QVERIFY2(std::abs(allData - even) < 0.05, qPrintable(QString("%1 vs %2").arg(allData).arg(even)));
  }
};

QTEST_GUILESS_MAIN(TestCliRealData)
#include "test_cli_realdata.moc"

// dpstudio-cli accountant (docs/cli.md): JSON keys and the known answers of both accountants
// (PLD, the default, against Google's dp_accounting 0.6.0; RDP against its own) under both
// adjacencies, several events, σ calibration by --target-epsilon, and exit codes.

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <cmath>

#include "core/privacy/tradeoff.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using dpstudio::test::runCli;
namespace privacy = dpstudio::privacy;

namespace {

const QStringList kMnist{"accountant", "--q", QString::number(256.0 / 60000, 'g', 17),
                         "--sigma", "1.1", "--steps", "14063", "--delta", "1e-5"};

QStringList withJson(QStringList args) {
  args << "--json";
  return args;
}

QStringList with(QStringList args, const QStringList& more) {
  args << more;
  return args;
}

}  // namespace

class TestCliAccountant : public QObject {
  Q_OBJECT

 private slots:
  // The default: the PLD accountant for add/remove, with RDP's keys beside it.
  void knownAnswerJson() {
    const auto run = runCli(withJson(kMnist));
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    QCOMPARE(out["accountant"].toString(), QString("pld"));
    QCOMPARE(out["adjacency"].toString(), QString("add-remove"));
    // dp_accounting 0.6.0 (PLD, value discretization 1e-4): 2.3818. Within 1 %, and the
    // reference (±5e-5, its rounding) lies in [epsilon − epsilon_error, epsilon].
    const double epsilon = out["epsilon"].toDouble(), error = out["epsilon_error"].toDouble();
    QVERIFY2(std::abs(epsilon - 2.3818) <= 0.01 * 2.3818, qPrintable(run.out));
    QVERIFY2(epsilon >= 2.3818 - 5e-5 - error && epsilon - error <= 2.3818 + 5e-5, qPrintable(run.out));
    QVERIFY(error > 0 && error < 1e-3);
    // The bracket's lower end is printed, and the error is its distance from the headline.
    const double lower = out["epsilon_lower"].toDouble();
    QVERIFY2(lower <= 2.3818 + 5e-5 && lower > 0.99 * epsilon, qPrintable(run.out));
    DPSTUDIO_COMPARE_REL(error, epsilon - lower, 1e-12);
    QCOMPARE(out["epsilon"].toDouble(), std::max(out["epsilon_remove"].toDouble(), out["epsilon_add"].toDouble()));
    QVERIFY(out["delta_charged"].toDouble() > 0);
    QCOMPARE(out["discretization"].toDouble(), 1e-4);
    // RDP beside it, under docs/cli.md's keys.
    QVERIFY2(std::abs(out["epsilon_rdp"].toDouble() - 2.59708) <= 5e-6, qPrintable(run.out));
    QVERIFY2(std::abs(out["epsilon_classic"].toDouble() - 3.00921) <= 5e-6, qPrintable(run.out));
    QCOMPARE(out["order"].toDouble(), 8.0);
    QCOMPARE(out["delta"].toDouble(), 1e-5);
    QCOMPARE(out["events"].toArray().size(), 1);
    QCOMPARE(out["events"].toArray()[0].toObject()["steps"].toInt(), 14063);
    QVERIFY(!out.contains("sigma"));  // only when calibrated
  }

  void rdpKnownAnswerJson() {
    const auto run = runCli(withJson(with(kMnist, {"--accountant", "rdp"})));
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    QCOMPARE(out["accountant"].toString(), QString("rdp"));
    QVERIFY2(std::abs(out["epsilon"].toDouble() - 2.59708) <= 5e-6, qPrintable(run.out));
    QCOMPARE(out["epsilon_rdp"].toDouble(), out["epsilon"].toDouble());
    QVERIFY2(std::abs(out["epsilon_classic"].toDouble() - 3.00921) <= 5e-6, qPrintable(run.out));
    QCOMPARE(out["order"].toDouble(), 8.0);
    QCOMPARE(out["order_classic"].toDouble(), 9.0);
    QCOMPARE(out["orders_skipped"].toArray().size(), 0);
    QVERIFY(!out.contains("epsilon_error"));  // PLD's
    // The RDP bound is for add/remove adjacency; the output must not pass it off as the
    // substitution ε the mechanisms report.
    QCOMPARE(out["adjacency"].toString(), QString("add-remove"));
  }

  // dp_accounting's other known answers (REPLACE_ONE for substitution), and RDP's
  // substitution bound (the weak triangle inequality DP-SGD's report shows beside PLD's).
  void knownAnswers_data() {
    QTest::addColumn<QString>("steps");
    QTest::addColumn<QString>("adjacency");
    QTest::addColumn<double>("reference");
    QTest::addColumn<double>("rdpAbove");  // RDP: 5.7857, 0.74055 (dp_accounting: 0.7406), 1.8349
    QTest::newRow("14063 steps substitution") << "14063" << "substitution" << 4.2215 << 5.78;
    QTest::newRow("235 steps add-remove") << "235" << "add-remove" << 0.3070 << 0.74;
    QTest::newRow("235 steps substitution") << "235" << "substitution" << 0.4509 << 1.83;
  }

  void knownAnswers() {
    QFETCH(QString, steps);
    QFETCH(QString, adjacency);
    QFETCH(double, reference);
    QFETCH(double, rdpAbove);
    const QStringList args{"accountant", "--q", QString::number(256.0 / 60000, 'g', 17), "--sigma", "1.1",
                           "--steps", steps, "--delta", "1e-5", "--adjacency", adjacency, "--json"};
    const auto run = runCli(args);
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    QCOMPARE(out["adjacency"].toString(), adjacency);
    const double epsilon = out["epsilon"].toDouble(), error = out["epsilon_error"].toDouble();
    QVERIFY2(std::abs(epsilon - reference) <= 0.01 * reference, qPrintable(run.out));
    QVERIFY2(epsilon >= reference - 5e-5 - error && epsilon - error <= reference + 5e-5, qPrintable(run.out));
    QVERIFY2(out["epsilon_rdp"].toDouble() > rdpAbove && epsilon < out["epsilon_rdp"].toDouble(), qPrintable(run.out));
    // The RDP accountant's own answer is the epsilon_rdp beside PLD's.
    const auto rdp = runCli(with(args, {"--accountant", "rdp"}));
    QCOMPARE(rdp.exitCode, 0);
    QCOMPARE(rdp.json()["epsilon"].toDouble(), out["epsilon_rdp"].toDouble());
    QCOMPARE(rdp.json()["adjacency"].toString(), adjacency);
  }

  // What the ε means (issue 35): the sentence, and the exact trade-off of the composed events
  // from the PLD accountant, inside the (ε, δ) region and strictly tighter somewhere.
  void meaningWithTheExactTradeOff() {
    const auto run = runCli(withJson(kMnist));
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QJsonObject out = run.json();
    const QJsonObject meaning = out["meaning"].toObject();
    QVERIFY(meaning["sentence"].toString().contains("1 % chance"));
    const QJsonObject exact = meaning["exact_trade_off"].toObject();
    QCOMPARE(exact["kind"].toString(), QString("pld"));
    double tighter = 0;
    for (const auto& point : exact["points"].toArray()) {
      const double alpha = point.toObject()["false_positive"].toDouble();
      const double beta = point.toObject()["min_false_negative"].toDouble();
      const double claim =
          privacy::epsilonDeltaMinFalseNegative(out["epsilon"].toDouble(), out["delta"].toDouble(), alpha).value();
      QVERIFY(beta >= claim - 1e-9);
      tighter = std::max(tighter, beta - claim);
    }
    QVERIFY(tighter > 0.01);
    const auto text = runCli(kMnist);
    QVERIFY2(text.out.contains("exact    the steps' privacy loss by the PLD accountant"), qPrintable(text.out));
    // The RDP accountant's ε: the sentence, no exact curve.
    const auto rdp = runCli(withJson(with(kMnist, {"--accountant", "rdp"})));
    QVERIFY(!rdp.json()["meaning"].toObject().contains("exact_trade_off"));
  }

  void secondKnownAnswer() {
    const auto run = runCli({"accountant", "--q", "0.001", "--sigma", "1.0", "--steps", "1000",
                             "--delta", "1e-5", "--accountant", "rdp", "--json"});
    QCOMPARE(run.exitCode, 0);
    QVERIFY(std::abs(run.json()["epsilon"].toDouble() - 0.677826) <= 5e-7);
    QVERIFY(std::abs(run.json()["epsilon_classic"].toDouble() - 0.971614) <= 5e-7);
  }

  void severalEventsInOrder() {
    const QString q = QString::number(256.0 / 60000, 'g', 17);
    for (const QString accountant : {"pld", "rdp"}) {
      const auto split = runCli({"accountant", "--q", q, "--sigma", "1.1", "--steps", "7000",
                                 "--q", q, "--sigma", "1.1", "--steps", "7063", "--delta", "1e-5",
                                 "--accountant", accountant, "--json"});
      QCOMPARE(split.exitCode, 0);
      const auto whole = runCli(withJson(with(kMnist, {"--accountant", accountant})));
      // PLD: the same up to its round-off charge, which counts the products.
      QVERIFY2(std::abs(split.json()["epsilon"].toDouble() - whole.json()["epsilon"].toDouble()) < 1e-6,
               qPrintable(split.out));
      const QJsonArray events = split.json()["events"].toArray();
      QCOMPARE(events.size(), 2);
      QCOMPARE(events[1].toObject()["steps"].toInt(), 7063);
    }
    for (const QString adjacency : {"add-remove", "substitution"}) {
      const auto mixed = runCli({"accountant", "--q", "0.01", "--sigma", "1", "--steps", "100",
                                 "--q", "0.5", "--sigma", "4", "--steps", "3", "--delta", "1e-6",
                                 "--adjacency", adjacency, "--json"});
      QCOMPARE(mixed.exitCode, 0);
      QCOMPARE(mixed.json()["events"].toArray()[1].toObject()["sigma"].toDouble(), 4.0);
      const auto first = runCli({"accountant", "--q", "0.01", "--sigma", "1", "--steps", "100",
                                 "--delta", "1e-6", "--adjacency", adjacency, "--json"});
      QVERIFY(mixed.json()["epsilon"].toDouble() > first.json()["epsilon"].toDouble());
      QVERIFY(mixed.json()["epsilon_rdp"].toDouble() > first.json()["epsilon_rdp"].toDouble());
    }
  }

  // σ for a target under the chosen accountant: PLD's σ for its known answer is 1.1; RDP's
  // σ for its own is 1.1 too; both conservative.
  void calibratesSigma_data() {
    QTest::addColumn<QString>("accountant");
    QTest::addColumn<QString>("target");
    QTest::newRow("pld") << "pld" << "2.3818";
    QTest::newRow("rdp") << "rdp" << "2.59708";
  }

  void calibratesSigma() {
    QFETCH(QString, accountant);
    QFETCH(QString, target);
    const auto run = runCli({"accountant", "--q", QString::number(256.0 / 60000, 'g', 17),
                             "--steps", "14063", "--delta", "1e-5", "--target-epsilon", target,
                             "--accountant", accountant, "--json"});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject out = run.json();
    const double sigma = out["sigma"].toDouble();
    QVERIFY2(std::abs(sigma - 1.1) < 2e-4, qPrintable(run.out));
    QVERIFY(out["epsilon"].toDouble() <= target.toDouble());
    QCOMPARE(out["target_epsilon"].toDouble(), target.toDouble());
    QCOMPARE(out["events"].toArray()[0].toObject()["sigma"].toDouble(), sigma);
    QCOMPARE(out["accountant"].toString(), accountant);
  }

  // Substitution needs more noise than add/remove for the same ε, under either accountant.
  void substitutionCalibratesLargerSigma() {
    const QStringList base{"accountant", "--q", "0.01", "--steps", "500", "--delta", "1e-5",
                           "--target-epsilon", "1", "--json"};
    const double addRemove = runCli(base).json()["sigma"].toDouble();
    const auto run = runCli(with(base, {"--adjacency", "substitution"}));
    QCOMPARE(run.exitCode, 0);
    QVERIFY(run.json()["sigma"].toDouble() > addRemove);
    QVERIFY(run.json()["epsilon"].toDouble() <= 1.0);
  }

  void textOutput() {
    const auto run = runCli(kMnist);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains("PLD accountant") && run.out.contains("2.3817"), qPrintable(run.out));
    QVERIFY2(run.out.contains("2.59708") && run.out.contains("3.00921"), qPrintable(run.out));
    QVERIFY(run.out.contains("order 8"));
    QVERIFY(run.out.contains("add/remove"));
    const auto rdp = runCli(with(kMnist, {"--accountant", "rdp"}));
    QVERIFY2(rdp.out.contains("RDP accountant") && !rdp.out.contains("PLD"), qPrintable(rdp.out));
    const auto substitution = runCli(with(kMnist, {"--adjacency", "substitution"}));
    QVERIFY2(substitution.out.contains("substitution") && substitution.out.contains("4.22"),
             qPrintable(substitution.out));
  }

  void invalidParametersExitWith4_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QStringList event{"--q", "0.01", "--sigma", "1", "--steps", "10"};
    QTest::newRow("delta 0") << (QStringList{"accountant"} << event << "--delta" << "0") << "--delta";
    QTest::newRow("delta 1") << (QStringList{"accountant"} << event << "--delta" << "1") << "--delta";
    QTest::newRow("delta negative") << (QStringList{"accountant"} << event << "--delta" << "-1e-5") << "--delta";
    QTest::newRow("q 0") << QStringList{"accountant", "--q", "0", "--sigma", "1", "--steps", "10", "--delta", "1e-5"} << "--q";
    QTest::newRow("q above 1") << QStringList{"accountant", "--q", "1.5", "--sigma", "1", "--steps", "10", "--delta", "1e-5"} << "--q";
    QTest::newRow("sigma 0") << QStringList{"accountant", "--q", "0.1", "--sigma", "0", "--steps", "10", "--delta", "1e-5"} << "--sigma";
    QTest::newRow("sigma negative in event 2")
        << (QStringList{"accountant"} << event << "--q" << "0.1" << "--sigma" << "-2" << "--steps" << "3"
                                      << "--delta" << "1e-5") << "event 2";
    QTest::newRow("steps 0") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "0", "--delta", "1e-5"} << "--steps";
    QTest::newRow("mismatched counts")
        << QStringList{"accountant", "--q", "0.1", "--q", "0.2", "--sigma", "1", "--steps", "10",
                       "--steps", "5", "--delta", "1e-5"} << "--sigma";
    QTest::newRow("target epsilon negative")
        << QStringList{"accountant", "--q", "0.1", "--steps", "10", "--delta", "1e-5",
                       "--target-epsilon", "-1"} << "--target-epsilon";
    // RDP's orders cannot certify so small an ε (PLD can: a larger σ always lowers it).
    QTest::newRow("target epsilon unreachable by RDP")
        << QStringList{"accountant", "--q", "0.1", "--steps", "10", "--delta", "1e-5",
                       "--target-epsilon", "0.0001", "--accountant", "rdp"} << "--target-epsilon";
    QTest::newRow("sigma too small for the PLD grid")
        << QStringList{"accountant", "--q", "0.1", "--sigma", "0.002", "--steps", "10", "--delta", "1e-5"}
        << "--sigma";
  }

  void invalidParametersExitWith4() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    auto run = runCli(args);
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(mentions), qPrintable(run.err));
    run = runCli(withJson(args));
    QCOMPARE(run.exitCode, 4);
    QCOMPARE(run.json()["error"].toObject()["code"].toInt(), 4);
    QVERIFY(run.json()["error"].toObject()["message"].toString().contains(mentions));
  }

  void usageErrorsExitWith2_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("no events") << QStringList{"accountant", "--delta", "1e-5"};
    QTest::newRow("no delta") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "10"};
    QTest::newRow("q not a number") << QStringList{"accountant", "--q", "abc", "--sigma", "1", "--steps", "10", "--delta", "1e-5"};
    QTest::newRow("steps not whole") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "1.5", "--delta", "1e-5"};
    QTest::newRow("sigma and target") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "10", "--delta", "1e-5", "--target-epsilon", "1"};
    QTest::newRow("unknown accountant") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "10", "--delta", "1e-5", "--accountant", "prv"};
    QTest::newRow("unknown adjacency") << QStringList{"accountant", "--q", "0.1", "--sigma", "1", "--steps", "10", "--delta", "1e-5", "--adjacency", "replace"};
  }

  void usageErrorsExitWith2() {
    QFETCH(QStringList, args);
    QCOMPARE(runCli(args).exitCode, 2);
  }

  void helpListsTheOptions() {
    const auto run = runCli({"accountant", "--help"});
    QCOMPARE(run.exitCode, 0);
    for (const char* option : {"--q", "--sigma", "--steps", "--delta", "--target-epsilon", "--accountant",
                               "--adjacency", "--json"})
      QVERIFY2(run.out.contains(option), option);
    QVERIFY(runCli({"--help"}).out.contains("accountant"));
  }
};

QTEST_GUILESS_MAIN(TestCliAccountant)
#include "test_cli_accountant.moc"

// `sweep --preset NAME` expands to the options it always did, now that the presets live in
// core (core/experiment/paper_presets.h, shared with the GUI): every preset's expansion is
// compared, option by option (numbers by value), with the table the CLI had before
// (app/cli/sweep_presets.cpp at 45df9c5), kept here as the reference, with the presets added
// since (paper 003 Figs. 1b, 2a, 2b, 3). And with real data
// (label "realdata"): the sweep the CLI runs from those options is the one core builds for
// the GUI — the same fingerprint (series plans, axis, values, repetitions, seed, data).

#include <QTemporaryDir>
#include <QDir>
#include <QMap>
#include <QStringList>
#include <QTest>

#include "app/cli/sweep_presets.h"
#include "core/experiment/paper_presets.h"
#include "core/experiment/sweep.h"
#include "core/experiment/trial_table.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/test_support.h"

using namespace dpstudio;

namespace {

// The CLI's preset table before the move, verbatim (data options, then the sweep's).
QStringList mnist(const QString& dir) {
  return {"--train", dir + "/train-images-idx3-ubyte.gz", "--labels", dir + "/train-labels-idx1-ubyte.gz",
          "--test", dir + "/t10k-images-idx3-ubyte.gz", "--test-labels", dir + "/t10k-labels-idx1-ubyte.gz",
          "--unit-rows", "--model", "softmax", "--lambda", "1e-3", "--delta", "0", "--budget", "100",
          "--teachers", "256", "--repeats", "100", "--title", "MNIST"};
}
// The figures drawn at δ = 1e-5 (paper 003 Figs. 1b, 2b, 3): the same data options, that δ.
QStringList mnistAtSmallDelta(const QString& dir) {
  QStringList args = mnist(dir);
  args[args.indexOf("--delta") + 1] = "1e-5";
  return args;
}
QStringList a9a(const QString& dir) {
  return {"--train", dir + "/a9a", "--test", dir + "/a9a.t", "--norm-bound", "3.7416573867739413",
          "--model", "logreg", "--lambda", "1e-3", "--repeats", "100", "--title", "UCI Adult (a9a)"};
}
const QString kGaussianSeries = "output:gaussian,loss:gaussian,dpsgd,prediction:gaussian,subsample";
// Added since: the figures' DP-SGD keeps the fixed batch and epochs, not the CLI's schedule
// from the problem.
const QStringList kFixedSgd = {"--batch-size", "256", "--epochs", "20"};

QMap<QString, QStringList> referenceTable(const QString& dir) {
  return {
      {"paper003-fig1a", mnist(dir) + QStringList{"--mechanisms", "output,loss,prediction,subsample", "--axis",
                                                  "epsilon", "--values", "0.1,0.3,1,3,10"}},
      {"paper003-fig1b", mnistAtSmallDelta(dir) + QStringList{"--mechanisms", kGaussianSeries, "--axis", "epsilon",
                                                              "--values", "0.1,0.25,0.5,0.75,1"} + kFixedSgd},
      {"paper003-fig2", mnist(dir) + QStringList{"--mechanisms", "output,loss,prediction,subsample", "--axis",
                                                 "budget", "--values", "1,3,10,30,100,300,1000", "--epsilon", "1"}},
      {"paper003-fig2b", mnistAtSmallDelta(dir) + QStringList{"--mechanisms", kGaussianSeries, "--axis", "budget",
                                                              "--values", "1,3,10,30,100,300,1000", "--epsilon", "1"} +
                             kFixedSgd},
      {"paper003-fig3", mnistAtSmallDelta(dir) + QStringList{"--mechanisms", kGaussianSeries, "--axis", "delta",
                                                             "--values", "1e-8,1e-6,1e-5,1e-4,1e-3,1e-2", "--epsilon",
                                                             "1"} + kFixedSgd},
      {"paper003-fig4", mnist(dir) + QStringList{"--mechanisms", "output,loss,prediction,subsample", "--axis", "n",
                                                 "--values", "1000,3000,10000,30000,60000", "--epsilon", "1"}},
      {"paper003-fig5a", mnist(dir) + QStringList{"--mechanisms", "output,loss,prediction,subsample", "--axis",
                                                  "dims", "--values", "10,20,50,100,200,400", "--epsilon", "1"}},
      {"paper003-fig5b", mnist(dir) + QStringList{"--mechanisms", "output,loss,prediction,subsample", "--axis",
                                                  "classes", "--values", "2,3,4,5,6,7,8,9,10", "--epsilon", "1"}},
      {"paper003-fig6a", mnist(dir) + QStringList{"--mechanisms", "loss", "--axis", "lambda", "--values",
                                                  "1e-5,1e-4,1e-3,1e-2,1e-1,5e-1", "--epsilon", "1"}},
      {"paper003-fig6b", mnist(dir) + QStringList{"--mechanisms", "subsample", "--axis", "teachers", "--values",
                                                  "16,32,64,128,256,512,1024", "--epsilon", "1"}},
      {"paper004-fig2",
       a9a(dir) + QStringList{"--mechanisms",
                              "multiparty:parties=5,multiparty:parties=5:published,"
                              "multiparty:split=0.15/0.2/0.2/0.2/0.25,multiparty:split=0.15/0.2/0.2/0.2/0.25:published,"
                              "multiparty:split=0.1/0.2/0.2/0.2/0.3,multiparty:split=0.1/0.2/0.2/0.2/0.3:published,"
                              "multiparty:parties=1,multiparty:parties=1:published",
                              "--axis", "epsilon", "--values", "0.1,0.3,1,3,10,30"}},
  };
}

// Options as a map name → value; numbers (and comma lists of numbers) compared by value.
QMap<QString, QString> options(const QStringList& args) {
  QMap<QString, QString> out;
  for (int i = 1; i < args.size(); ++i) {
    if (!args[i].startsWith("--")) continue;
    const bool flag = i + 1 >= args.size() || args[i + 1].startsWith("--");
    out[args[i]] = flag ? QStringLiteral("(set)") : args[i + 1];
  }
  return out;
}

QString canonical(const QString& value) {
  QStringList items;
  for (const QString& item : value.split(',')) {
    bool ok = false;
    const double number = item.toDouble(&ok);
    items << (ok ? QString::number(number, 'g', 17) : item);
  }
  return items.join(',');
}

}  // namespace

class TestCliPresets : public QObject {
  Q_OBJECT

 private slots:
  void presetsExpandAsBefore() {
    QTemporaryDir dir;
    const QString path = QDir(dir.path()).absolutePath();
    const auto reference = referenceTable(path);
    QCOMPARE(cli::presetNames(), QStringList(reference.keys()));
    for (auto it = reference.begin(); it != reference.end(); ++it) {
      const QStringList given{"dpstudio-cli", "--preset", it.key(), "--data-dir", path, "--repeats", "5"};
      const QStringList expanded = test::orDie(cli::withPresetArguments(given));
      // The preset's options come first, the user's after them (so the user's win).
      QCOMPARE(expanded.mid(expanded.size() - 6), given.mid(1));
      const auto got = options(expanded.mid(0, expanded.size() - 6));
      const auto want = options(QStringList{"dpstudio-cli"} + it.value());
      QCOMPARE(got.keys(), want.keys());
      for (const QString& key : want.keys())
        QVERIFY2(canonical(got[key]) == canonical(want[key]),
                 qPrintable(QString("%1 %2: %3, was %4").arg(it.key(), key, got[key], want[key])));
    }
    // Unknown presets and a missing folder are usage errors, as before.
    QVERIFY(!cli::withPresetArguments({"dpstudio-cli", "--preset", "paper999", "--data-dir", path}));
    QVERIFY(!cli::withPresetArguments({"dpstudio-cli", "--preset", "paper004-fig2", "--data-dir", path + "/none"}));
    // Paper 003's Figure 7 has none, and where the presets are listed (the refusal, --help) it
    // says why.
    const auto fig7 = cli::withPresetArguments({"dpstudio-cli", "--preset", "paper003-fig7", "--data-dir", path});
    QVERIFY(!fig7);
    QVERIFY2(QString::fromStdString(fig7.error().message).contains("convolutional network"),
             fig7.error().message.c_str());
    const auto help = test::runCli({"sweep", "--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.simplified().contains("Figure 7 (CIFAR-10 with a ResNet-20) has no preset"), qPrintable(help.out));
  }

  // The CLI's sweep from the preset's options and core's presetSweepSpec (the GUI's) are one
  // sweep: the trial table's fingerprint (shard 1000/1000 runs no trial: only the layout).
  void cliAndCoreBuildTheSameSweep_data() {
    QTest::addColumn<QString>("name");
    for (const auto& preset : experiment::paperPresets()) QTest::newRow(preset.name.c_str()) << QString::fromStdString(preset.name);
  }
  void cliAndCoreBuildTheSameSweep() {
    DPSTUDIO_REQUIRE_REAL_DATA();
    QFETCH(QString, name);
    const QString dir = test::realDataDir();
    QTemporaryDir out;
    const QString table = out.filePath("t.csv");
    const auto run = test::runCli({"sweep", "--preset", name, "--data-dir", dir, "--repeats", "2", "--shard",
                                   "1000/1000", "--out", table}, 600000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const experiment::TrialTable written = test::orDie(experiment::readTrialTable(table.toStdString()));
    QVERIFY(written.trials.empty());

    const experiment::PaperPreset* preset = experiment::findPaperPreset(name.toStdString());
    experiment::SweepSpec spec = test::orDie(experiment::presetSweepSpec(*preset, false, 2));
    const PreparedData data = test::orDie(prepareData(experiment::presetDataRequest(*preset, dir.toStdString())));
    spec.dataset = experiment::dataIdentity(data);
    QCOMPARE(written.layout.fingerprint, experiment::withReferenceSeries(spec).fingerprint());
  }
};

QTEST_GUILESS_MAIN(TestCliPresets)
#include "test_cli_presets.moc"

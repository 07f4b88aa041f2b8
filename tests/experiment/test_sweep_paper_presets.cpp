// The paper presets as core's table (core/experiment/paper_presets.h): every preset builds
// its sweep, the quick versions run on their built-in sets (each validated against the data
// it will see), titles say which data, missing files are named. The CLI's expansion of the
// same table: tests/cli/test_cli_presets.

#include <QTemporaryDir>
#include <QTest>

#include "core/experiment/paper_presets.h"
#include "core/experiment/sweep.h"
#include "tests/common/test_support.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

class TestSweepPaperPresets : public QObject {
  Q_OBJECT

 private slots:
  void quickVersionsFitTheirBuiltInData_data() {
    QTest::addColumn<QString>("name");
    for (const PaperPreset& p : paperPresets()) QTest::newRow(p.name.c_str()) << QString::fromStdString(p.name);
  }
  void quickVersionsFitTheirBuiltInData() {
    QFETCH(QString, name);
    const PaperPreset* preset = findPaperPreset(name.toStdString());
    QVERIFY(preset);
    const PreparedData data = test::orDie(prepareData(quickDataRequest(*preset)));
    const SweepSpec spec = withReferenceSeries(test::orDie(presetSweepSpec(*preset, true, 2)));
    const auto status = spec.validate({data.train.rows(), data.train.features(), data.train.classes()});
    QVERIFY2(status.ok(), status.ok() ? "" : status.error().message.c_str());
    QCOMPARE(spec.values, preset->quickValues);
    QCOMPARE(spec.repeats, 2);
    // One series per item, keyed by it (as the CLI keys them), then the reference.
    for (std::size_t i = 0; i < preset->mechanisms.size(); ++i) QCOMPARE(spec.series[i].key, preset->mechanisms[i]);
  }

  void titlesSayWhichData() {
    const PaperPreset* fig1a = findPaperPreset("paper003-fig1a");
    QCOMPARE(presetTitle(*fig1a, false), std::string("Paper 003 Fig. 1a \u2014 MNIST"));
    QCOMPARE(presetTitle(*fig1a, true),
             std::string("Paper 003 Fig. 1a \u2014 quick version on built-in digits, not the paper's data"));
    QCOMPARE(presetTitle(*findPaperPreset("paper004-fig2"), false), std::string("Paper 004 Fig. 2 \u2014 UCI Adult (a9a)"));
    QVERIFY(!findPaperPreset("paper999"));
  }

  void theQuickVersionsOwnSettings() {
    // ε shifted to where digits' 45× fewer rows show the paper's curves (paper_presets.h).
    const auto fig4 = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig4"), true, 1));
    QCOMPARE(fig4.series[0].plan.epsilon(), 30.0);
    QCOMPARE(test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig4"), false, 1)).series[0].plan.epsilon(), 1.0);
    // Subsample-and-aggregate on digits' 1 346 rows: T = 16, not MNIST's 256.
    const auto quick = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig1a"), true, 1));
    const auto real = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig1a"), false, 1));
    QCOMPARE(std::get<PrivatePrediction>(quick.series[3].plan.choice).options.teachers, Index{16});
    QCOMPARE(std::get<PrivatePrediction>(real.series[3].plan.choice).options.teachers, Index{256});
    // Paper 004's uneven split, as published.
    const auto fig2 = test::orDie(presetSweepSpec(*findPaperPreset("paper004-fig2"), false, 1));
    const auto& split = std::get<Multiparty>(fig2.series[5].plan.choice).options;
    QCOMPARE(split.fractions, (std::vector<double>{0.1, 0.2, 0.2, 0.2, 0.3}));
    QCOMPARE(split.calibration, mech::Calibration::Published);
    QCOMPARE(split.lambda, 1e-3);
  }

  // Figs. 1b, 2b and 3 are drawn at δ = 1e-5 with the paper's δ > 0 methods (Gaussian noise,
  // DP-SGD); Fig. 2a at δ = 0 without DP-SGD (it needs δ > 0); Fig. 3 sweeps δ itself.
  void theSmallDeltaFigures() {
    const std::vector<std::string> gaussian{"output:gaussian", "loss:gaussian", "dpsgd", "prediction:gaussian",
                                            "subsample"};
    for (const char* name : {"paper003-fig1b", "paper003-fig2b", "paper003-fig3"}) {
      const PaperPreset* preset = findPaperPreset(name);
      QVERIFY2(preset, name);
      QCOMPARE(preset->mechanisms, gaussian);
      for (bool quick : {false, true}) {
        const SweepSpec spec = test::orDie(presetSweepSpec(*preset, quick, 1));
        QCOMPARE(spec.series.size(), gaussian.size());
        for (const auto& series : spec.series) QCOMPARE(series.plan.delta(), 1e-5);
      }
    }
    const auto fig1b = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig1b"), false, 1));
    QCOMPARE(fig1b.axis, SweepAxis::Epsilon);
    QVERIFY(fig1b.values.back() <= 1.0);  // "ε between 0 and 1"
    const auto fig2a = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig2"), false, 1));
    QCOMPARE(fig2a.axis, SweepAxis::Budget);
    for (const auto& series : fig2a.series) {
      QCOMPARE(series.plan.delta(), 0.0);
      QCOMPARE(series.plan.epsilon(), 1.0);
    }
    QCOMPARE(test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig2b"), false, 1)).axis, SweepAxis::Budget);
    const auto fig3 = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig3"), false, 1));
    QCOMPARE(fig3.axis, SweepAxis::Delta);
    QCOMPARE(fig3.series[0].plan.epsilon(), 1.0);
  }

  // Paper 003 §4's protocol for Figs. 1b, 2 and 3 (issue 37): 100 repetitions, B = 100 and
  // T = 256 where B is not the axis, Gaussian noise wherever δ > 0, ε = 1 off the ε axis; on the
  // budget axis a released model is the same plan at every B (the paper's horizontal lines)
  // while a predictor's budget is the value; on the δ axis every series takes the value.
  void theFiguresProtocol() {
    QCOMPARE(presetDataSettings(PresetData::Mnist).repeats, 100);
    for (const char* name : {"paper003-fig1b", "paper003-fig2", "paper003-fig2b", "paper003-fig3"}) {
      const PaperPreset* preset = findPaperPreset(name);
      QVERIFY2(preset && preset->data == PresetData::Mnist, name);
      const SweepSpec spec = test::orDie(presetSweepSpec(*preset, false, 100));
      QCOMPARE(spec.repeats, 100);
      for (const SweepSeries& series : spec.series) {
        const bool gaussianFigure = series.plan.delta() > 0;
        if (const auto* p = std::get_if<PrivatePrediction>(&series.plan.choice)) {
          QCOMPARE(p->options.budget, 100LL);
          QCOMPARE(p->options.teachers, Index{256});
          if (gaussianFigure && p->options.kind == predict::PredictionKind::Sensitivity)
            QCOMPARE(p->options.family, mech::NoiseFamily::Gaussian);
        } else if (const auto* t = std::get_if<TrainingMechanism>(&series.plan.choice);
                   t && gaussianFigure && series.key != "dpsgd") {
          QCOMPARE(t->options.family, mech::NoiseFamily::Gaussian);
        }
        if (spec.axis != SweepAxis::Epsilon) QCOMPARE(series.plan.epsilon(), 1.0);
        for (double value : spec.values) {
          const PrivacyPlan at = spec.planAt(series, value);
          if (spec.axis == SweepAxis::Delta) QCOMPARE(at.delta(), value);
          if (spec.axis != SweepAxis::Budget) continue;
          if (const auto* p = std::get_if<PrivatePrediction>(&at.choice))
            QCOMPARE(p->options.budget, static_cast<long long>(value));
          else
            QVERIFY(at == series.plan);
        }
      }
    }
    // Fig. 3's δ from 1e-8 to 1e-2 (its axis); Fig. 2's B from 1 to 1 000.
    const auto fig3 = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig3"), false, 1));
    QCOMPARE(fig3.values.front(), 1e-8);
    QCOMPARE(fig3.values.back(), 1e-2);
    const auto fig2 = test::orDie(presetSweepSpec(*findPaperPreset("paper003-fig2"), false, 1));
    QCOMPARE(fig2.values.front(), 1.0);
    QCOMPARE(fig2.values.back(), 1000.0);
  }

  void missingFilesAreNamed() {
    QTemporaryDir empty;
    const auto missing = missingPresetFiles(*findPaperPreset("paper004-fig2"), empty.path().toStdString());
    QCOMPARE(missing, (std::vector<std::string>{"a9a", "a9a.t"}));
    QCOMPARE(missingPresetFiles(*findPaperPreset("paper003-fig1a"), "").size(), std::size_t{4});
    if (!test::realDataDir().isEmpty())
      for (const PaperPreset& p : paperPresets())
        QVERIFY(missingPresetFiles(p, test::realDataDir().toStdString()).empty());
  }
};

QTEST_GUILESS_MAIN(TestSweepPaperPresets)
#include "test_sweep_paper_presets.moc"

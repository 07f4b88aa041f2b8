// The sweep engine (core/experiment/sweep.h): determinism across thread counts and shards,
// cancellation that keeps consistent finished trials, reuse of the non-private work (the
// baseline, output perturbation's polish to τ), the aggregation math, validation that names
// the field, and accuracy that grows with ε. The warm start of perturbed problems:
// test_sweep_warm_start.

#include <QFile>
#include <QIODevice>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

#include "core/experiment/result_baselines.h"
#include "core/experiment/trial_table.h"
#include "tests/experiment/sweep_fixtures.h"

using namespace dpstudio;
using namespace dpstudio::experiment;

class TestSweep : public QObject {
  Q_OBJECT

 private:
  PreparedData blobs_ = test::blobs();

  SweepSpec mixedSpec() const {
    SweepSpec spec;
    spec.series = {test::series("output", test::outputPlan(ModelKind::LogisticRegression)),
                   test::series("objective", test::objectivePlan()),
                   test::series("prediction", test::predictionPlan(predict::PredictionKind::Sensitivity,
                                                                   ModelKind::LogisticRegression, 50)),
                   test::series("subsample", test::predictionPlan(predict::PredictionKind::Subsample,
                                                                  ModelKind::LogisticRegression, 50))};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {0.1, 1, 10};
    spec.repeats = 3;
    spec.seed = 11;
    spec.dataset = "builtin:breast_cancer";
    return spec;
  }

 private slots:
  // What the published bounds are drawn beside survives the file (to the last bit); a
  // quantity not measured stays NaN, a trial without measures stays without; a table
  // written before these columns existed is still read.
  void trialTableKeepsTheBoundMeasures() {
    const SweepResult run = test::orDie(runSweep(mixedSpec(), blobs_));
    TrialTable table{layoutOf(run.spec), 0, 1, true, {run.trials[0], run.trials[1]}};
    TrialMeasures m;
    m.shape = {123, 4, 2};
    m.empiricalExcess = 0.1 + 1e-17;
    m.trueExcess = 1.0 / 3.0;
    table.trials[0].measures = m;
    table.trials[1].measures.reset();
    QTemporaryDir dir;
    const std::string path = dir.filePath("measures.csv").toStdString();
    QVERIFY(writeTrialTable(path, table));
    const TrialTable read = test::orDie(readTrialTable(path));
    QCOMPARE(read.trials.size(), std::size_t(2));
    QVERIFY(read.trials[0].measures.has_value());
    const TrialMeasures& back = *read.trials[0].measures;
    QCOMPARE(back.shape.rows, Index{123});
    QCOMPARE(back.shape.features, Index{4});
    QCOMPARE(back.shape.classes, Index{2});
    QCOMPARE(back.empiricalExcess, m.empiricalExcess);
    QCOMPARE(back.trueExcess, m.trueExcess);
    QVERIFY(std::isnan(back.distance));
    QVERIFY(!read.trials[1].measures.has_value());

    // The same table as an older dpstudio wrote it: eight columns, no measures.
    QFile file(QString::fromStdString(path));
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    QStringList lines = QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
    file.close();
    lines[1] = "mechanism,axis,value,repeat,seed,accuracy,seconds,value_index";
    for (int k = 2; k < lines.size(); ++k) lines[k] = lines[k].section(',', 0, 7);
    const std::string oldPath = dir.filePath("old.csv").toStdString();
    QFile old(QString::fromStdString(oldPath));
    QVERIFY(old.open(QIODevice::WriteOnly | QIODevice::Text));
    old.write(lines.join('\n').toUtf8() + "\n");
    old.close();
    const TrialTable oldRead = test::orDie(readTrialTable(oldPath));
    QCOMPARE(oldRead.trials.size(), std::size_t(2));
    QVERIFY(!oldRead.trials[0].measures.has_value());
    QCOMPARE(oldRead.trials[0].accuracy, table.trials[0].accuracy);
  }

  void sameTableForAnyThreadCount() {
    const SweepSpec spec = mixedSpec();
    SweepControl one;
    one.threads = 1;
    SweepControl two;
    two.threads = 2;
    const SweepResult a = test::orDie(runSweep(spec, blobs_, one));
    const SweepResult b = test::orDie(runSweep(spec, blobs_, two));
    // 4 mechanisms + the non-private reference, 3 values, 3 repetitions.
    QCOMPARE(a.trials.size(), std::size_t(5 * 3 * 3));
    QVERIFY(!a.cancelled);
    QCOMPARE(test::comparable(a.trials), test::comparable(b.trials));
  }

  void shardsMergedEqualOneRun() {
    const SweepSpec spec = mixedSpec();
    const SweepResult whole = test::orDie(runSweep(spec, blobs_));
    std::vector<TrialTable> tables;
    for (int k = 0; k < 3; ++k) {
      SweepControl control;
      control.shardIndex = k;
      control.shardCount = 3;
      const SweepResult shard = test::orDie(runSweep(spec, blobs_, control));
      tables.push_back({layoutOf(shard.spec), k, 3, true, shard.trials});
    }
    // Through the files, as sweep-merge reads them.
    QTemporaryDir dir;
    std::vector<TrialTable> read;
    std::vector<std::string> names;
    for (std::size_t k = 0; k < tables.size(); ++k) {
      const std::string path = dir.filePath(QString("shard%1.csv").arg(k)).toStdString();
      QVERIFY(writeTrialTable(path, tables[k]));
      read.push_back(test::orDie(readTrialTable(path)));
      names.push_back(path);
    }
    const TrialTable merged = test::orDie(mergeTrialTables(read, names));
    QVERIFY(merged.complete);
    QCOMPARE(test::comparable(merged.trials), test::comparable(whole.trials));

    // A shard of another sweep is refused, naming both files.
    SweepSpec other = spec;
    other.seed = 12;
    SweepControl control;
    control.shardCount = 3;
    const SweepResult foreign = test::orDie(runSweep(other, blobs_, control));
    read[0] = TrialTable{layoutOf(foreign.spec), 0, 3, true, foreign.trials};
    const auto refused = mergeTrialTables(read, names);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("different sweeps") != std::string::npos, refused.error().message.c_str());
    // The same shard twice is refused too.
    const auto twice = mergeTrialTables({tables[1], tables[1]}, {"a.csv", "b.csv"});
    QVERIFY(!twice);
  }

  void cancellationKeepsConsistentFinishedTrials() {
    const SweepSpec spec = mixedSpec();
    const SweepResult whole = test::orDie(runSweep(spec, blobs_));
    std::map<std::tuple<int, int, int>, double> expected;
    for (const auto& t : whole.trials) expected[{t.id.series, t.id.valueIndex, t.id.repeat}] = t.accuracy;
    std::mt19937 random(5);
    for (int attempt = 0; attempt < 12; ++attempt) {
      const int stopAfter = std::uniform_int_distribution<int>(0, 40)(random);
      StopToken stop;
      SweepControl control;
      control.progress = Progress({}, stop);
      std::atomic<int> seen{0};
      control.onTrial = [&](const TrialRecord&) {
        if (++seen >= stopAfter) stop.requestStop();
      };
      const SweepResult cut = test::orDie(runSweep(spec, blobs_, control));
      QCOMPARE(static_cast<int>(cut.trials.size()), seen.load());
      QVERIFY(cut.cancelled || static_cast<long long>(cut.trials.size()) == cut.totalTrials);
      for (const auto& t : cut.trials)
        QCOMPARE(t.accuracy, (expected[{t.id.series, t.id.valueIndex, t.id.repeat}]));
    }
  }

  void nonPrivateWorkIsDoneOncePerLambda() {
    SweepSpec spec;
    spec.series = {test::series("output", test::outputPlan(ModelKind::LogisticRegression))};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {0.5, 5};
    spec.repeats = 20;
    const SweepResult result = test::orDie(runSweep(spec, blobs_));
    QCOMPARE(result.trials.size(), std::size_t(2 * 20 * 2));  // + the reference
    QCOMPARE(result.work.baselines, 1LL);  // one λ: output perturbation and the reference share it
    QCOMPARE(result.work.exactMinimizers, 1LL);  // polished to τ once, not per trial
    QCOMPARE(result.work.warmStarts, 0LL);       // no perturbed problem here

    spec.axis = SweepAxis::Lambda;
    spec.values = {1e-3, 1e-2, 1e-1};
    spec.repeats = 20;
    spec.series.front().plan = spec.series.front().plan.withEpsilon(1);
    const SweepResult lambdas = test::orDie(runSweep(spec, blobs_));
    QCOMPARE(lambdas.work.baselines, 3LL);

    SweepSpec predictors = mixedSpec();
    predictors.series.erase(predictors.series.begin(), predictors.series.begin() + 2);
    predictors.repeats = 10;
    const SweepResult p = test::orDie(runSweep(predictors, blobs_));
    QCOMPARE(p.work.predictors, 1LL);
    QCOMPARE(p.work.teacherSets, 1LL);
  }

  void accuracyGrowsWithEpsilon() {
    SweepSpec spec;
    spec.series = {test::series("output", test::outputPlan(ModelKind::LogisticRegression, 1e-2))};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {0.01, 100};
    spec.repeats = 20;
    const SweepResult result = test::orDie(runSweep(spec, blobs_));
    const Curve curve = summarize(layoutOf(result.spec), result.trials);
    QCOMPARE(curve.points.size(), std::size_t(2));
    QCOMPARE(curve.references.size(), std::size_t(1));  // the non-private line
    const CurvePoint& low = curve.points[0];
    const CurvePoint& high = curve.points[1];
    QCOMPARE(low.value, 0.01);
    QVERIFY2(high.mean > low.mean + 0.1, qPrintable(QString("%1 vs %2").arg(high.mean).arg(low.mean)));
    QVERIFY(std::abs(high.mean - curve.references[0].accuracy) < 0.05);
    QVERIFY(curve.logAxis);
    // Issue 32 item 4: with the data, the floor of always answering the most common class is
    // a second reference line, and the table's header keeps it.
    const SweepLayout withData = layoutOf(result.spec, &blobs_);
    QCOMPARE(*withData.mostCommonClass, *mostCommonClassAccuracy(blobs_.test));
    const Curve floored = summarize(withData, result.trials);
    QCOMPARE(floored.references.size(), std::size_t(2));
    QCOMPARE(floored.references[0].label, curve.references[0].label);  // the non-private line first
    QCOMPARE(floored.references[1].label, std::string(kMostCommonClassLine));
    QCOMPARE(floored.references[1].accuracy, *withData.mostCommonClass);
    TrialTable table;
    table.layout = withData;
    table.trials = result.trials;
    QTemporaryDir dir;
    const std::string path = dir.filePath("floor.csv").toStdString();
    QVERIFY(writeTrialTable(path, table).ok());
    QCOMPARE(test::orDie(readTrialTable(path)).layout.mostCommonClass, withData.mostCommonClass);
  }

  void dataAxesChangeTheData() {
    SweepSpec spec;
    spec.series = {test::series("output", test::outputPlan(ModelKind::Softmax))};
    PreparedData digits = test::unitRowData("digits");
    spec.axis = SweepAxis::Classes;
    spec.values = {2, 5, 10};
    spec.repeats = 2;
    const SweepResult classes = test::orDie(runSweep(spec, digits));
    QCOMPARE(classes.work.dataVariants, 3LL);
    const Curve curve = summarize(layoutOf(classes.spec), classes.trials);
    // The non-private reference changes with the data: a series, not a line; two classes are
    // easier than ten.
    QVERIFY(curve.references.empty());
    double two = 0, ten = 0;
    for (const auto& p : curve.points) {
      if (p.series != "nonprivate") continue;
      if (p.value == 2) two = p.mean;
      if (p.value == 10) ten = p.mean;
    }
    QVERIFY2(two > ten, qPrintable(QString("%1 vs %2").arg(two).arg(ten)));

    spec.axis = SweepAxis::Rows;
    spec.values = {50, 400};
    const SweepResult rows = test::orDie(runSweep(spec, digits));
    QCOMPARE(rows.work.dataVariants, 4LL);  // each (value, repetition) its own subset

    spec.axis = SweepAxis::Dims;
    spec.values = {5, 30};
    const SweepResult dims = test::orDie(runSweep(spec, digits));
    QCOMPARE(dims.work.dataVariants, 4LL);
    QCOMPARE(dims.trials.size(), std::size_t(2 * 2 * 2));
  }

  void aggregationMatchesHandComputedValues() {
    SweepLayout layout;
    layout.axis = SweepAxis::Epsilon;
    layout.values = {1, 2};
    layout.repeats = 3;
    layout.series = {{"output", "Output perturbation", true}};
    std::vector<TrialRecord> trials;
    for (int r = 0; r < 3; ++r) trials.push_back({{0, 0, r}, "output", 1, 0, 0.5 + 0.2 * r, 0});
    trials.push_back({{0, 1, 0}, "output", 2, 0, 0.8, 0});
    const Curve curve = summarize(layout, trials);
    QCOMPARE(curve.points.size(), std::size_t(2));
    const CurvePoint& p = curve.points[0];
    QCOMPARE(p.count, Index(3));
    DPSTUDIO_COMPARE_REL(p.mean, 0.7, 1e-12);
    DPSTUDIO_COMPARE_REL(p.std, 0.2, 1e-12);  // sample standard deviation (n − 1)
    // t(0.975; 2) = 4.302652729911275; half-width 4.3027·0.2/√3 = 0.49682…; clamped to [0, 1].
    DPSTUDIO_COMPARE_REL(p.low95, 0.7 - 4.302652729911275 * 0.2 / std::sqrt(3.0), 1e-9);
    QCOMPARE(p.high95, 1.0);
    const CurvePoint& single = curve.points[1];
    QCOMPARE(single.count, Index(1));
    QCOMPARE(single.std, 0.0);
    QCOMPARE(single.low95, 0.8);
  }

  void overlaidCurvesKeepEverySeriesApart() {
    Curve a;
    a.axis = "epsilon";
    a.title = "iris";
    a.series = {{"output", "Output perturbation"}};
    a.points = {{"output", 1, 0.5, 0.1, 3, 0.4, 0.6}};
    a.references = {{"Non-private", 0.9}};
    Curve b = a;
    Curve other = a;
    other.axis = "lambda";
    const Curve both = overlayCurves({a, b, other});
    QCOMPARE(both.series.size(), std::size_t(2));
    QCOMPARE(both.series[1].key, std::string("output #2"));
    QCOMPARE(both.series[1].title, std::string("Output perturbation (sweep 2)"));
    QCOMPARE(both.points.size(), std::size_t(2));
    QCOMPARE(both.points[1].series, std::string("output #2"));
    QCOMPARE(both.references.size(), std::size_t(2));
    QVERIFY(overlayCurves({}).series.empty());
    QCOMPARE(overlayCurves({a}).title, a.title);
  }

  void defaultValuesFitTheData() {
    const mech::ProblemShape shape{112, 4, 3};
    for (SweepAxis axis : {SweepAxis::Epsilon, SweepAxis::Delta, SweepAxis::Lambda, SweepAxis::Budget,
                           SweepAxis::Rows, SweepAxis::Dims, SweepAxis::Classes, SweepAxis::Teachers,
                           SweepAxis::Parties}) {
      const std::vector<double> values = defaultAxisValues(axis, shape);
      QVERIFY2(!values.empty(), axisName(axis).c_str());
      QVERIFY(std::is_sorted(values.begin(), values.end()));
      QVERIFY(std::adjacent_find(values.begin(), values.end()) == values.end());
      SweepSpec spec = mixedSpec();
      spec.axis = axis;
      spec.values = values;
      const Status status = spec.validate(shape);
      QVERIFY2(status.ok() || status.error().field == "axis", status.ok() ? "" : status.error().message.c_str());
    }
    QCOMPARE(defaultAxisValues(SweepAxis::Dims, shape), (std::vector<double>{1, 2, 4}));
    QCOMPARE(defaultAxisValues(SweepAxis::Classes, shape), (std::vector<double>{2, 3}));
    QCOMPARE(defaultAxisValues(SweepAxis::Rows, shape), (std::vector<double>{7, 14, 28, 56, 112}));
  }

  void validationNamesTheField() {
    SweepSpec spec = mixedSpec();
    spec.values = {1, -1};
    auto bad = runSweep(spec, blobs_);
    QVERIFY(!bad);
    QCOMPARE(bad.error().kind, ErrorKind::InvalidPrivacy);
    QCOMPARE(bad.error().field, std::string("values"));

    // A budget axis moves the predictors; a released model is a horizontal line on it (its plan
    // is the same at every B), but an axis that moves no series is refused.
    spec = mixedSpec();
    spec.axis = SweepAxis::Budget;
    spec.values = {10, 20};
    QVERIFY(spec.validate({blobs_.train.rows(), blobs_.train.features(), blobs_.train.classes()}).ok());
    QVERIFY(spec.planAt(spec.series[0], 10) == spec.planAt(spec.series[0], 20));
    QVERIFY(!(spec.planAt(spec.series[2], 10) == spec.planAt(spec.series[2], 20)));
    spec.series.resize(2);  // output and objective perturbation only
    bad = runSweep(spec, blobs_);
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, std::string("axis"));
    QVERIFY(bad.error().message.find("moves no series") != std::string::npos);

    spec = mixedSpec();
    spec.series.resize(3);
    spec.series.erase(spec.series.begin(), spec.series.begin() + 2);  // prediction only
    spec.axis = SweepAxis::Budget;
    spec.values = {1.5};
    bad = runSweep(spec, blobs_);
    QVERIFY(!bad);
    QCOMPARE(bad.error().field, std::string("values"));

    spec.axis = SweepAxis::Rows;
    spec.values = {1e9};
    QVERIFY(!runSweep(spec, blobs_));

    PreparedData noTest = test::unitRowData("iris", 0.0);
    QVERIFY(!runSweep(mixedSpec(), noTest));
  }

  // The sweep trains multiparty's local models itself (once per split) and once skipped the
  // contract trainMultiparty checks: it ran on 3-class iris (accuracy 1/3, distance inf) and
  // on breast cancer's raw rows (norms in the thousands) without a word.
  void multipartyRefusesWhatTrainingRefuses() {
    SweepSpec spec;
    spec.series = {test::series("multiparty", PrivacyPlan::multiparty({}))};
    spec.axis = SweepAxis::Epsilon;
    spec.values = {1};
    spec.repeats = 1;
    auto threeClasses = runSweep(spec, test::unitRowData("iris"));
    QVERIFY(!threeClasses);
    QCOMPARE(threeClasses.error().field, std::string("classes"));

    SplitAndPreprocess raw;
    raw.testFraction = 0.3;
    auto unbounded = runSweep(spec, test::orDie(prepareLoaded(test::orDie(loadBuiltin("breast_cancer")), std::nullopt, raw)));
    QVERIFY(!unbounded);
    QCOMPARE(unbounded.error().kind, ErrorKind::InvalidPrivacy);
    QVERIFY2(unbounded.error().message.find("||x|| <= 1") != std::string::npos, unbounded.error().message.c_str());

    QVERIFY(runSweep(spec, blobs_));  // binary, unit rows: runs
  }

  void trialSeedsDependOnTheTrialOnly() {
    SweepSpec spec = mixedSpec();
    const std::uint64_t seed = trialSeed(spec, {2, 1, 0});
    spec.series.erase(spec.series.begin());  // the same series now has index 1
    QCOMPARE(trialSeed(spec, {1, 1, 0}), seed);
    QVERIFY(trialSeed(spec, {1, 1, 1}) != seed);
    spec.seed = 12;
    QVERIFY(trialSeed(spec, {1, 1, 0}) != seed);
  }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "test_sweep.moc"

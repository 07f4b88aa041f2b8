// Training with each mechanism and each model it supports, on small blobs problems:
// accuracy approaches the non-private model's as ε grows; the noise the report names is the
// noise that was drawn (replayed from the seed); same seed → same bits with 1 and 2
// threads, other seed → other model; release mode; LMGC outputs stay PSD.

#include <QJsonObject>
#include <QTest>

#include "core/linalg/psd.h"
#include "core/mechanisms/mechanism.h"
#include "core/mechanisms/mechanism_internal.h"
#include "core/mechanisms/report_json.h"
#include "core/models/linear.h"
#include "core/models/lmgc.h"
#include "core/privacy/noise.h"
#include "core/privacy/release_granularity.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;
Q_DECLARE_METATYPE(dpstudio::ModelKind)
Q_DECLARE_METATYPE(dpstudio::mech::MechanismKind)

namespace {

struct Case {
  MechanismKind kind;
  ModelKind model;
  int classes;
  bool published = false;
  bool gaussian = false;
};

mech::MechanismOptions optionsFor(const Case& c, double epsilon) {
  auto o = test::options(c.kind, c.model, epsilon);
  if (c.published) o.calibration = mech::Calibration::Published;
  if (c.gaussian) {
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
  }
  return o;
}

// One row per (mechanism, model) pair the mechanisms support.
void addCases() {
  QTest::addColumn<MechanismKind>("kind");
  QTest::addColumn<ModelKind>("model");
  QTest::addColumn<int>("classes");
  QTest::addColumn<bool>("published");
  QTest::addColumn<bool>("gaussian");
  using K = MechanismKind;
  using M = ModelKind;
  QTest::newRow("output logreg") << K::Output << M::LogisticRegression << 2 << false << false;
  QTest::newRow("output huber") << K::Output << M::HuberSvm << 2 << false << false;
  QTest::newRow("output logreg one-vs-rest") << K::Output << M::LogisticRegression << 3 << false << false;
  QTest::newRow("output softmax") << K::Output << M::Softmax << 3 << false << false;
  QTest::newRow("output softmax gaussian") << K::Output << M::Softmax << 3 << false << true;
  QTest::newRow("output lmgc") << K::Output << M::Lmgc << 3 << false << false;
  QTest::newRow("objective logreg") << K::Objective << M::LogisticRegression << 2 << false << false;
  QTest::newRow("objective huber") << K::Objective << M::HuberSvm << 2 << false << false;
  QTest::newRow("objective logreg one-vs-rest") << K::Objective << M::LogisticRegression << 3 << false << false;
  QTest::newRow("loss softmax") << K::Loss << M::Softmax << 3 << false << false;
  QTest::newRow("loss softmax gaussian") << K::Loss << M::Softmax << 3 << false << true;
  QTest::newRow("loss logreg") << K::Loss << M::LogisticRegression << 2 << false << false;
  QTest::newRow("dplmgc corrected") << K::DpLmgc << M::Lmgc << 3 << false << false;
  QTest::newRow("dplmgc published") << K::DpLmgc << M::Lmgc << 3 << true << false;
  QTest::newRow("dpsgd softmax") << K::DpSgd << M::Softmax << 3 << false << false;
  QTest::newRow("dpsgd lmgc") << K::DpSgd << M::Lmgc << 3 << false << false;
}

Case fetchCase() {
  QFETCH(MechanismKind, kind);
  QFETCH(ModelKind, model);
  QFETCH(int, classes);
  QFETCH(bool, published);
  QFETCH(bool, gaussian);
  return {kind, model, classes, published, gaussian};
}

// LMGC takes the raw (bounded) rows; the linear models get the intercept feature.
PreparedData dataFor(const Case& c, int perClass = 200) {
  return test::blobs(c.classes, c.model != ModelKind::Lmgc, perClass);
}

double minEigenvalue(const mech::PrivateModel& m) {
  const auto* lmgc = dynamic_cast<const LmgcModel*>(m.trained.model.get());
  double smallest = HUGE_VAL;
  for (Index c = 0; c < lmgc->classes(); ++c) {
    const Eigen::MatrixXd phi = lmgc->classMatrix(m.trained.theta, c);
    smallest = std::min(smallest, minSymmetricEigenvalue(phi) / std::max(1.0, phi.norm()));
  }
  return smallest;
}

// The non-private model a mechanism tends to as ε grows. Linear models: the learner's own
// objective (objective/loss perturbation's extra terms vanish with ε). LMGC: its trace
// objective need not have a minimizer (lmgc.h), so the reference adds the strongly convex
// term the private variants carry: output perturbation's (λ₂/2)‖Φ‖² on the mean scale, and
// for the others the ρ of DP-LMGC at ε = 1000 on the sum scale.
double nonPrivateAccuracy(const Case& c, const PreparedData& data) {
  const auto o = optionsFor(c, 1000.0);
  TrainedModel reference;
  if (c.model != ModelKind::Lmgc) {
    reference = trainModel(o.learner, data.train.X, data.train.y, data.train.classes()).value();
  } else {
    const auto model = makeModel(o.learner, data.train.features(), data.train.classes()).value();
    const auto* lmgc = dynamic_cast<const LmgcModel*>(model.get());
    const double n = static_cast<double>(data.train.rows());
    const ObjectiveTerms terms =
        c.kind == MechanismKind::Output
            ? ObjectiveTerms{LossScale::Mean, o.lmgcStrongConvexity, lmgc->traceRegularizer(o.learner.lambda) / n}
            : ObjectiveTerms{LossScale::Sum, 6.0 / (0.5 * 1000.0), lmgc->traceRegularizer(o.learner.lambda)};
    reference = minimizeObjective(model, data.train.X, data.train.y, terms).value();
  }
  return accuracy(*reference.model, reference.theta, data.test.X, data.test.y);
}

}  // namespace

class TestMechanismTraining : public QObject {
  Q_OBJECT

 private slots:
  void accuracyApproachesNonPrivate_data() { addCases(); }
  void accuracyApproachesNonPrivate() {
    const Case c = fetchCase();
    const auto data = dataFor(c);
    const double nonPrivate = nonPrivateAccuracy(c, data);
    QString line;
    std::vector<double> means;
    for (double epsilon : {0.1, 1.0, 10.0, 1000.0}) {
      double sum = 0;
      for (std::uint64_t seed = 1; seed <= 3; ++seed)
        sum += test::testAccuracy(test::trainWithSeed(optionsFor(c, epsilon), data.train, seed), data.test);
      means.push_back(sum / 3);
      line += QString(" eps %1: %2").arg(epsilon).arg(means.back(), 0, 'f', 3);
    }
    qInfo("%s non-private %.3f;%s", QTest::currentDataTag(), nonPrivate, qPrintable(line));
    QVERIFY2(means.back() >= nonPrivate - 0.03, qPrintable(line));
    QVERIFY2(means.back() >= means.front(), qPrintable(line));
    QVERIFY2(means.back() > 1.0 / c.classes + 0.2, qPrintable(line));
  }

  // Replays the draws from a fresh source with the reported β or σ and dimension: the same
  // norms, in the same order. For output perturbation the released θ minus the exact
  // minimizer is that draw, coordinate by coordinate.
  void reportedNoiseIsTheNoiseDrawn_data() { addCases(); }
  void reportedNoiseIsTheNoiseDrawn() {
    const Case c = fetchCase();
    const auto data = dataFor(c, 60);
    const auto o = optionsFor(c, 2.0);
    const auto trained = test::trainWithSeed(o, data.train, 11);
    const mech::MechanismReport& r = trained.report;
    QCOMPARE(r.noiseSource, std::string("experiment (seed 11)"));
    if (c.kind == MechanismKind::DpSgd) {
      // Interleaved with the Poisson sampling: check the law instead (T·m Gaussians).
      DPSTUDIO_COMPARE_REL(r.noiseNorms.front(), r.expectedNoiseNorm, 0.02);
      return;
    }
    privacy::ExperimentNoise replay(11);
    std::vector<privacy::NoiseDraw> draws;
    const bool oneVsRest = c.classes > 2 && (c.model == ModelKind::LogisticRegression || c.model == ModelKind::HuberSvm);
    const Index releases = oneVsRest && c.kind != MechanismKind::Loss ? c.classes : 1;
    QCOMPARE(Index(r.noiseNorms.size()), releases);
    for (Index k = 0; k < releases; ++k) {
      auto draw = c.gaussian ? privacy::drawGaussian(replay, r.noiseScale(), r.noiseDimension)
                             : privacy::drawL2Laplace(replay, r.noiseScale(), r.noiseDimension);
      QCOMPARE(draw.value().norm, r.noiseNorms[static_cast<std::size_t>(k)]);
      draws.push_back(draw.value());
    }
    if (c.kind != MechanismKind::Output || c.model == ModelKind::Lmgc) return;  // LMGC: projected after
    const Index d = data.train.features();
    TrainControl exact;
    exact.tolerance = 1e-9;
    exact.maxIterations = 20000;
    Eigen::VectorXd minimizer;
    if (oneVsRest) {
      minimizer.resize(d * c.classes);
      const auto binary = std::make_shared<const BinaryLinearModel>(d, MarginLoss{BinaryLoss::Logistic, 0.5});
      for (Index k = 0; k < c.classes; ++k) {
        const auto labels = OneVsRestModel::binaryLabels(data.train.y, static_cast<int>(k));
        minimizer.segment(k * d, d) =
            minimizeObjective(binary, data.train.X, labels, {LossScale::Mean, o.learner.lambda, {}}, exact).value().theta;
      }
    } else {
      const auto model = makeModel(o.learner, d, c.classes).value();
      minimizer = minimizeObjective(model, data.train.X, data.train.y, {LossScale::Mean, o.learner.lambda, {}}, exact)
                      .value().theta;
    }
    Eigen::VectorXd noise(minimizer.size());
    for (Index k = 0; k < releases; ++k)
      noise.segment(k * draws[0].noise.size(), draws[0].noise.size()) = draws[static_cast<std::size_t>(k)].noise;
    const Eigen::VectorXd added = trained.trained.theta - minimizer;
    // Both the released minimizer (gradient ≤ τ) and this reference (≤ 1e-9·max(1, ‖θ‖))
    // are within gradient/λ of the exact one; the rest of the difference is the noise.
    const double tau = *trained.report.value("gradient_tolerance");
    const double bound = std::sqrt(static_cast<double>(releases)) *
                             (tau + 1e-9 * std::max(1.0, minimizer.norm())) / o.learner.lambda + 1e-12;
    QVERIFY2((added - noise).norm() <= bound,
             qPrintable(QString("%1 > %2").arg((added - noise).norm()).arg(bound)));
  }

  // 2250 training rows: two row chunks, so the second thread has work to do.
  void sameSeedSameBitsAnyThreads_data() { addCases(); }
  void sameSeedSameBitsAnyThreads() {
    const Case c = fetchCase();
    const auto data = dataFor(c, 2800 / c.classes + 1);
    QVERIFY(data.train.rows() > RowChunks::kRows);
    auto o = optionsFor(c, 1.0);
    o.sgd.epochs = 2;
    Eigen::VectorXd one, two, other;
    {
      ScopedWorkerThreads threads(1);
      one = test::trainWithSeed(o, data.train, 7).trained.theta;
    }
    {
      ScopedWorkerThreads threads(2);
      two = test::trainWithSeed(o, data.train, 7).trained.theta;
      other = test::trainWithSeed(o, data.train, 8).trained.theta;
    }
    QVERIFY(test::identical(one, two));
    QVERIFY(!test::identical(one, other));
  }

  void releaseModeRecordsItsSource_data() { addCases(); }
  void releaseModeRecordsItsSource() {
    const Case c = fetchCase();
    const auto data = dataFor(c, 60);
    auto source = privacy::ReleaseNoise::create();
    QVERIFY(source);
    const auto trained = test::trainOrDie(optionsFor(c, 1.0), data.train, *source.value());
    QVERIFY(trained.report.noiseSource.rfind("release", 0) == 0);
    const double g = trained.report.releaseGranularity;
    QVERIFY(g > 0);
    if (c.model == ModelKind::Lmgc) return;  // rounded, then projected onto the cone
    const Eigen::ArrayXd cells = trained.trained.theta.array() / g;
    QVERIFY((cells == cells.round()).all());
  }

  // Issue 13 bug 5: release mode enlarges output perturbation's noise scale by the
  // documented factor, and the report shows the scale used (not the calibration's).
  void releaseModeReportsTheEnlargedNoiseScale() {
    const auto data = test::blobs(2, false, 60);
    for (bool gaussian : {false, true}) {
      const auto o = optionsFor(Case{MechanismKind::Output, ModelKind::LogisticRegression, 2, false, gaussian}, 1.0);
      const auto calibrated = mech::calibrate(o, {data.train.rows(), data.train.features(), data.train.classes()});
      QVERIFY(calibrated);
      auto source = privacy::ReleaseNoise::create();
      QVERIFY(source);
      const auto released = test::trainOrDie(o, data.train, *source.value());
      const double F = privacy::kReleaseNoiseFactor;
      QCOMPARE(*released.report.value("release_noise_factor"), F);
      if (gaussian)
        DPSTUDIO_COMPARE_REL(*released.report.value("sigma"), *calibrated.value().value("sigma") * F, 1e-15);
      else
        DPSTUDIO_COMPARE_REL(*released.report.value("beta"), *calibrated.value().value("beta") / F, 1e-15);
      DPSTUDIO_COMPARE_REL(released.report.expectedNoiseNorm, calibrated.value().expectedNoiseNorm * F, 1e-15);
      const double g = released.report.releaseGranularity;
      QVERIFY(g >= std::ldexp(privacy::floatSpacing(released.trained.theta.cwiseAbs().maxCoeff()),
                              privacy::kReleaseGridUlpBits) / 2);  // rounding may move M into the next binade
      const Eigen::ArrayXd cells = released.trained.theta.array() / g;
      QVERIFY((cells == cells.round()).all());
      // Experiment mode keeps the calibration's numbers.
      const auto experiment = test::trainWithSeed(o, data.train, 3);
      QVERIFY(!experiment.report.value("release_noise_factor"));
      QCOMPARE(experiment.report.expectedNoiseNorm, calibrated.value().expectedNoiseNorm);
    }
  }

  // Regression: DP-LMGC started from LMGC's default warm start, a non-private fit of the
  // class means and covariances, which an unconverged run would release nearly as is.
  // Mechanisms that release an approximate minimizer start from zero whatever the caller
  // passes, and say when the optimizer stopped at its limit.
  void approximateMinimizersStartFromZero() {
    const auto data = test::blobs(3, false, 60);
    for (Case c : {Case{MechanismKind::DpLmgc, ModelKind::Lmgc, 3}, Case{MechanismKind::Loss, ModelKind::Softmax, 3},
                   Case{MechanismKind::Objective, ModelKind::LogisticRegression, 3}}) {
      const auto o = optionsFor(c, 1.0);
      const auto plain = test::trainWithSeed(o, data.train, 2);
      QVERIFY(plain.report.warning.empty());
      TrainControl fitted;
      fitted.warmStart = trainModel(o.learner, data.train.X, data.train.y, 3).value().theta;
      privacy::ExperimentNoise noise(2);
      const auto started = mech::trainPrivately(o, data.train, noise, fitted).value();
      QVERIFY(test::identical(plain.trained.theta, started.trained.theta));

      if (c.model != ModelKind::Lmgc) continue;  // L-BFGS polishes past one iteration
      TrainControl brief;
      brief.maxIterations = 1;
      privacy::ExperimentNoise again(2);
      const auto stopped = mech::trainPrivately(o, data.train, again, brief).value();
      QVERIFY2(stopped.report.warning.find("exact minimizer") != std::string::npos, stopped.report.warning.c_str());
    }
  }

  // Issue 13 bug 3: objective and loss perturbation and DP-LMGC warned only at the iteration
  // limit or on a numerical error; a failed line search (here: a tolerance below what double
  // precision can reach, so the optimizer stalls) was silent. Any termination but Converged
  // must be in the report: report.termination, the JSON's "converged": false, and a warning.
  void silentApproximateMinimizersAreReported() {
    const auto data = test::blobs(3, false, 60);
    // With the intercept (d = 3): in d = 2 the polish can land on a gradient of exactly 0.
    const auto binary = test::blobs(2, true, 200);
    for (Case c : {Case{MechanismKind::DpLmgc, ModelKind::Lmgc, 3}, Case{MechanismKind::Loss, ModelKind::Softmax, 3},
                   Case{MechanismKind::Objective, ModelKind::LogisticRegression, 2},
                   Case{MechanismKind::Objective, ModelKind::HuberSvm, 2}}) {
      const auto o = optionsFor(c, 1.0);
      const auto plain = test::trainWithSeed(o, c.classes == 2 ? binary.train : data.train, 2);
      QVERIFY(plain.report.termination.has_value());
      QVERIFY(plain.report.converged());
      QCOMPARE(mech::reportToJson(plain.report)["converged"].toBool(), true);

      TrainControl unreachable;
      unreachable.tolerance = 1e-300;  // no optimizer reaches this: it stops short, not converged
      unreachable.maxIterations = 100000;
      privacy::ExperimentNoise noise(2);
      const auto stalled =
          mech::trainPrivately(o, c.classes == 2 ? binary.train : data.train, noise, unreachable)
              .value();
      qInfo("%s/%s: %s, gradient norm %g", mech::mechanismName(c.kind).c_str(), modelKindName(c.model).c_str(),
            terminationName(stalled.trained.summary.termination).c_str(), stalled.trained.summary.gradientNorm);
      QVERIFY(stalled.trained.summary.termination != Termination::Converged);
      QVERIFY(stalled.report.termination && *stalled.report.termination != Termination::Converged);
      QVERIFY(!stalled.report.converged());
      const QJsonObject json = mech::reportToJson(stalled.report);
      QCOMPARE(json["converged"].toBool(true), false);
      QCOMPARE(json["optimizer_termination"].toString().toStdString(), terminationName(*stalled.report.termination));
      QVERIFY2(stalled.report.warning.find("NOT converged") != std::string::npos, stalled.report.warning.c_str());
    }
  }

  // Issue 13 bug 4: a row with 1 < ‖x‖ ≤ 1 + 1e-9 was accepted as is, outside the ‖x‖ ≤ 1 the
  // sensitivity is calibrated for. It is clipped: the mechanism's input has ‖x‖ ≤ 1 exactly.
  void rowsJustOutsideTheUnitBallAreClipped() {
    auto data = test::blobs(2, false, 60);
    Dataset train = data.train;
    train.X.row(3) *= (1.0 + 1e-10) / train.X.row(3).norm();
    train.X.row(7) *= (1.0 + 9e-10) / train.X.row(7).norm();
    QVERIFY(train.maxRowNorm() > 1.0);
    const auto bounded = mech::detail::unitBallRows(train).value();
    QCOMPARE(bounded.count, Index(2));
    const Dataset& rows = bounded.rows(train);
    QVERIFY2(rows.maxRowNorm() <= 1.0, qPrintable(QString::number(rows.maxRowNorm() - 1.0, 'g', 17)));
    for (Index i = 0; i < rows.rows(); ++i) QVERIFY(rows.X.row(i).norm() <= 1.0);
    QVERIFY(std::abs(rows.X.row(3).norm() - 1.0) < 1e-15);  // clipped, not shrunk further
    QVERIFY((rows.X.row(0).array() == train.X.row(0).array()).all());  // other rows untouched

    for (MechanismKind kind : {MechanismKind::Output, MechanismKind::Objective}) {
      const auto trained = test::trainWithSeed(test::options(kind, ModelKind::LogisticRegression, 1.0), train, 1);
      QCOMPARE(trained.report.value("rows_clipped").value_or(0), 2.0);
      QVERIFY(!test::trainWithSeed(test::options(kind, ModelKind::LogisticRegression, 1.0), data.train, 1)
                   .report.value("rows_clipped"));
    }
    // Beyond the rounding allowance the user must declare a norm bound, as before.
    train.X.row(5) *= (1.0 + 1e-8) / train.X.row(5).norm();
    QCOMPARE(mech::detail::unitBallRows(train).error().field, std::string("norm-bound"));
  }

  void lmgcOutputsStayPsd() {
    const auto data = test::blobs(3, false, 60);
    for (Case c : {Case{MechanismKind::Output, ModelKind::Lmgc, 3}, Case{MechanismKind::DpLmgc, ModelKind::Lmgc, 3},
                   Case{MechanismKind::DpLmgc, ModelKind::Lmgc, 3, true}, Case{MechanismKind::DpSgd, ModelKind::Lmgc, 3}}) {
      for (double epsilon : {0.1, 10.0}) {
        const auto trained = test::trainWithSeed(optionsFor(c, epsilon), data.train, 3);
        QVERIFY2(minEigenvalue(trained) >= -1e-12, qPrintable(QString::number(minEigenvalue(trained))));
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestMechanismTraining)
#include "test_mechanism_training.moc"

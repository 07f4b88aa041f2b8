// Multiparty aggregation (docs/algorithms.md §3 I): the parties' exact local minimizers, the
// perturbed average through the protocol interface, Theorem 4.2's bound beside the measured
// distance, the baselines, replay and thread-count independence, and what the report says.

#include <QTest>

#include "core/models/linear.h"
#include "core/privacy/release_granularity.h"
#include "core/util/parallel.h"
#include "tests/common/test_support.h"
#include "tests/prediction/prediction_fixtures.h"

using namespace dpstudio;
using multiparty::MultipartyOptions;

namespace {

MultipartyOptions options(double epsilon, double lambda = 0.05) {
  MultipartyOptions o;
  o.parties = 4;
  o.lambda = lambda;
  o.epsilon = epsilon;
  return o;
}

multiparty::MultipartyResult runWithSeed(const MultipartyOptions& o, const Dataset& train, std::uint64_t seed) {
  privacy::ExperimentNoise noise(seed);
  return test::orDie(multiparty::trainMultiparty(o, train, noise));
}

// A protocol test double: returns the average with zero noise and counts its calls.
class NoiselessProtocol final : public multiparty::AggregationProtocol {
 public:
  mutable int calls = 0;
  std::string name() const override { return "noiseless test double"; }
  Result<multiparty::AggregateRelease> release(const std::vector<multiparty::LocalModel>& locals,
                                               const MultipartyOptions& o, privacy::NoiseSource&,
                                               const Progress&) const override {
    ++calls;
    multiparty::AggregateRelease out;
    out.released = multiparty::plainAverage(locals);
    out.report = test::orDie(multiparty::calibrateMultiparty(o, locals.front().rows, locals.front().w.size()));
    return out;
  }
};

}  // namespace

class TestMultiparty : public QObject {
  Q_OBJECT

  PreparedData data_ = test::predictionBlobs(2, 200);

 private slots:
  void reportCarriesTheCalibrationAndTheBound() {
    const auto result = runWithSeed(options(1.0), data_.train, 1);
    const Index n = data_.train.rows();
    QCOMPARE(result.partySizes.size(), std::size_t(4));
    Index total = 0, smallest = n;
    for (Index size : result.partySizes) {
      total += size;
      smallest = std::min(smallest, size);
    }
    QCOMPARE(total, n);
    const auto& r = result.report;
    QCOMPARE(*r.value("smallest_party"), double(smallest));
    DPSTUDIO_COMPARE_REL(*r.value("Delta"), 1.0 / (4 * smallest * 0.05) * (1 + 1e-4), 1e-14);
    DPSTUDIO_COMPARE_REL(result.bound, 3.0 / (smallest * 0.05), 1e-14);
    QCOMPARE(r.noiseNorms.size(), std::size_t(1));
    DPSTUDIO_COMPARE_REL(r.noiseNorms.front(), (result.released.theta - result.average).norm(), 1e-9);
    QCOMPARE(*r.value("distance_to_all_data"), result.distance);
    QVERIFY(result.distance <= result.bound);  // Theorem 4.2
    QVERIFY(result.distance > 0);
    QVERIFY(r.statement.rfind("(1, 0)-DP", 0) == 0);
    QVERIFY(r.statement.find("trusted curator") != std::string::npos);
    QVERIFY(!result.allDataPrivate);  // not asked for
    auto withBaseline = options(1.0);
    withBaseline.allDataBaseline = true;
    const auto both = runWithSeed(withBaseline, data_.train, 1);
    QVERIFY(both.allDataPrivate);
    QCOMPARE(both.allDataPrivate->report.mechanism, std::string("multiparty all-data baseline"));
    DPSTUDIO_COMPARE_REL(*both.allDataPrivate->report.value("Delta"), 1.0 / (n * 0.05) * (1 + 1e-4), 1e-14);
    QVERIFY(both.allDataPrivate->report.statement.find("second release") != std::string::npos);
  }

  // Issue 13 bug 1: the all-data DP baseline is a second ε-DP release from the same rows. It
  // used to be drawn on every run (2ε spent, ε recorded); now only when asked for. With a
  // protocol that draws nothing, the run must leave the noise source untouched.
  void multipartySpendsTwoEpsilonOnlyWhenTheBaselineIsAsked() {
    NoiselessProtocol protocol;
    privacy::ExperimentNoise untouched(7), noise(7);
    auto plain = test::orDie(multiparty::trainMultiparty(options(1.0), data_.train, noise, {}, &protocol));
    QVERIFY(!plain.allDataPrivate);
    QCOMPARE(noise.nextU64(), untouched.nextU64());  // no baseline noise was drawn

    auto asked = options(1.0);
    asked.allDataBaseline = true;
    privacy::ExperimentNoise fresh(7), used(7);
    auto both = test::orDie(multiparty::trainMultiparty(asked, data_.train, used, {}, &protocol));
    QVERIFY(both.allDataPrivate);
    QVERIFY(used.nextU64() != fresh.nextU64());  // the baseline drew its own noise
    QVERIFY(!(both.allDataPrivate->theta.array() == both.allData.array()).all());
  }

  // The local models are minimizers of (1/n_j)Σℓ + λ‖w‖² within the gradient tolerance the
  // calibration assumed (fixed in advance from n₍₁₎, not from the data).
  // Issue 30 bug 8: the trusted curator's release is the average plus η, an additive release
  // like output perturbation's: in release mode η's scale is enlarged by F = 1 + 2^-10 and the
  // report shows the scale used; experiment mode keeps the calibrated scale.
  void releaseModeEnlargesTheNoiseOfTheAverage() {
    const auto experiment = runWithSeed(options(1.0), data_.train, 1);
    QVERIFY(!experiment.report.value("release_noise_factor"));
    auto release = test::orDie(privacy::makeNoiseSource(privacy::NoiseKind::Release, 0));
    const auto released = test::orDie(multiparty::trainMultiparty(options(1.0), data_.train, *release));
    QCOMPARE(*released.report.value("release_noise_factor"), privacy::kReleaseNoiseFactor);
    QCOMPARE(released.report.noiseScale(), experiment.report.noiseScale() / privacy::kReleaseNoiseFactor);
    QVERIFY(released.report.releaseGranularity > 0);
  }

  void localModelsAreExactMinimizers() {
    const auto o = options(1.0);
    const auto parties = test::orDie(multiparty::partyRows(data_.train.rows(), o));
    const auto locals = test::orDie(multiparty::trainLocalModels(o, data_.train, parties));
    QCOMPARE(locals.size(), std::size_t(4));
    const BinaryLinearModel model(data_.train.features(), MarginLoss{});
    Index smallest = data_.train.rows();
    for (const auto& rows : parties) smallest = std::min(smallest, static_cast<Index>(rows.size()));
    const double tolerance = multiparty::localGradientTolerance(o, smallest);
    QCOMPARE(tolerance, 1e-4 / static_cast<double>(smallest));
    for (std::size_t j = 0; j < locals.size(); ++j) {
      const Dataset part = data_.train.subset(parties[j]);
      Eigen::VectorXd grad;
      model.lossSum(locals[j].w, part.X, part.y, &grad);
      grad = grad / static_cast<double>(part.rows()) + 2 * o.lambda * locals[j].w;  // λ‖w‖² → 2λw
      QVERIFY2(grad.norm() <= tolerance, qPrintable(QString::number(grad.norm())));
      QCOMPARE(locals[j].rows, Index(parties[j].size()));
    }
  }

  void replaysAndIsIndependentOfThreads() {
    multiparty::MultipartyResult one, two;
    auto o = options(0.5);
    o.allDataBaseline = true;
    {
      const ScopedWorkerThreads threads(1);
      one = runWithSeed(o, data_.train, 11);
    }
    {
      const ScopedWorkerThreads threads(2);
      two = runWithSeed(o, data_.train, 11);
    }
    QVERIFY((one.released.theta.array() == two.released.theta.array()).all());
    QVERIFY((one.allDataPrivate->theta.array() == two.allDataPrivate->theta.array()).all());
    const auto other = runWithSeed(options(0.5), data_.train, 12);
    QVERIFY(!(other.released.theta.array() == one.released.theta.array()).all());
  }

  void accuracyRisesWithEpsilon() {
    auto meanAccuracy = [&](double epsilon) {
      double sum = 0;
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const auto r = runWithSeed(options(epsilon), data_.train, seed);
        sum += accuracy(*r.released.model, r.released.theta, data_.test.X, data_.test.y);
      }
      return sum / 20;
    };
    const double low = meanAccuracy(0.05), high = meanAccuracy(20);
    qInfo("multiparty accuracy: eps 0.05 %.3f, eps 20 %.3f", low, high);
    QVERIFY(high > low);
    QVERIFY(high > 0.9);
  }

  // A protocol supplies the average and the noise; aggregate() runs it.
  void protocolIsPluggable() {
    NoiselessProtocol protocol;
    privacy::ExperimentNoise noise(1);
    auto result = test::orDie(multiparty::trainMultiparty(options(1.0), data_.train, noise, {}, &protocol));
    QCOMPARE(protocol.calls, 1);
    QVERIFY((result.released.theta.array() == result.average.array()).all());
    QVERIFY(result.report.statement.find("noiseless test double") != std::string::npos);
  }

  void publishedCarriesItsWarning() {
    auto o = options(1.0);
    o.calibration = mech::Calibration::Published;
    const auto result = runWithSeed(o, data_.train, 2);
    QVERIFY(result.report.noise == dpstudio::mech::NoiseLaw::LaplacePerCoordinate);
    QVERIFY(!result.report.warning.empty());
    QCOMPARE(result.report.calibration, std::optional<dpstudio::mech::Calibration>(dpstudio::mech::Calibration::Published));
  }

  // Issue 13 bug 4: rows with 1 < ‖x‖ ≤ 1 + 1e-9 are clipped, not let through.
  void rowsJustOutsideTheUnitBallAreClipped() {
    Dataset train = data_.train;
    train.X.row(0) *= (1.0 + 1e-10) / train.X.row(0).norm();
    QVERIFY(train.maxRowNorm() > 1.0);
    const auto result = runWithSeed(options(1.0), train, 1);
    QCOMPARE(result.report.value("rows_clipped").value_or(0), 1.0);
    QVERIFY(!runWithSeed(options(1.0), data_.train, 1).report.value("rows_clipped"));
  }

  void refusesMultiClassAndUnboundedRows() {
    const auto multi = test::predictionBlobs(3, 40);
    privacy::ExperimentNoise noise(1);
    auto refused = multiparty::trainMultiparty(options(1.0), multi.train, noise);
    QVERIFY(!refused);
    QCOMPARE(refused.error().field, std::string("classes"));
    Dataset big = data_.train;
    big.X *= 3.0;
    auto unbounded = multiparty::trainMultiparty(options(1.0), big, noise);
    QVERIFY(!unbounded);
    QCOMPARE(unbounded.error().field, std::string("norm-bound"));
  }
};

QTEST_GUILESS_MAIN(TestMultiparty)
#include "test_multiparty.moc"

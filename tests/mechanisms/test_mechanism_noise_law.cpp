// The law of ‖b‖ read from a mechanism report (report_noise_law.h): ℓ2-Laplace and Gaussian
// calibrations give Gamma(m, 1/β) and σ·χ_m over the report's noiseDimension; one-vs-rest
// output perturbation draws one norm per class, each of that same law on d coordinates;
// DP-SGD, per-coordinate Laplace (multiparty as published) and noiseless reports are refused
// with a reason that names them, never given an invented law.

#include <QTest>

#include "core/mechanisms/report_noise_law.h"
#include "core/prediction/multiparty_options.h"
#include "tests/common/test_support.h"
#include "tests/mechanisms/mechanism_fixtures.h"

using namespace dpstudio;
using mech::MechanismKind;
using privacy::NoiseNormLaw;

namespace {

mech::MechanismReport calibrated(const mech::MechanismOptions& o, mech::ProblemShape shape) {
  auto report = mech::calibrate(o, shape);
  if (!report) qFatal("%s", report.error().toString().c_str());
  return std::move(report).value();
}

void requireRefused(const mech::MechanismReport& report, const QString& reason) {
  const auto law = mech::noiseNormLaw(report);
  QVERIFY(!law);
  QCOMPARE(QString::fromStdString(law.error().field), QStringLiteral("noise"));
  QVERIFY2(QString::fromStdString(law.error().message).contains(reason),
           law.error().message.c_str());
}

}  // namespace

class TestMechanismNoiseLaw : public QObject {
  Q_OBJECT

 private slots:
  void l2LaplaceCalibrationGivesGamma() {
    const auto report = calibrated(test::options(MechanismKind::Output, ModelKind::Softmax, 1.0), {120, 5, 3});
    const NoiseNormLaw law = mech::noiseNormLaw(report).value();
    QCOMPARE(law.family(), NoiseNormLaw::Family::L2Laplace);
    QCOMPARE(law.parameter(), *report.value("beta"));
    QCOMPARE(law.dimension(), Eigen::Index{15});
    DPSTUDIO_COMPARE_REL(law.mean(), report.expectedNoiseNorm, 1e-15);
  }

  void gaussianCalibrationGivesSigmaChi() {
    auto o = test::options(MechanismKind::Loss, ModelKind::Softmax, 1.0);
    o.family = mech::NoiseFamily::Gaussian;
    o.delta = 1e-5;
    const auto report = calibrated(o, {120, 5, 3});
    const NoiseNormLaw law = mech::noiseNormLaw(report).value();
    QCOMPARE(law.family(), NoiseNormLaw::Family::Gaussian);
    QCOMPARE(law.parameter(), *report.value("sigma"));
    QCOMPARE(law.dimension(), report.noiseDimension);
    DPSTUDIO_COMPARE_REL(law.mean(), report.expectedNoiseNorm, 1e-15);
  }

  void oneVsRestDrawsOneNormPerClassOfOneLaw() {
    const PreparedData data = test::blobs(3, true, 60);
    const auto o = test::options(MechanismKind::Output, ModelKind::LogisticRegression, 2.0, 1e-2);
    const auto trained = test::trainWithSeed(o, data.train, 7);
    const NoiseNormLaw law = mech::noiseNormLaw(trained.report).value();
    QCOMPARE(trained.report.noiseNorms.size(), std::size_t{3});
    QCOMPARE(law.dimension(), data.train.features());  // one class's d coordinates, not C·d
    QCOMPARE(law.parameter(), *trained.report.value("beta"));
    for (double norm : trained.report.noiseNorms) QVERIFY(law.pdf(norm) > 0.0);
  }

  void dpSgdIsRefused() {
    requireRefused(calibrated(test::options(MechanismKind::DpSgd, ModelKind::Softmax, 1.0), {500, 4, 3}),
                   QStringLiteral("DP-SGD"));
  }

  void perCoordinateLaplaceIsRefused() {
    multiparty::MultipartyOptions o;
    o.calibration = mech::Calibration::Published;
    const auto report = multiparty::calibrateMultiparty(o, 100, 6);
    QVERIFY(report);
    QCOMPARE(QString::fromStdString(report.value().noiseWord()), QStringLiteral("laplace per coordinate"));
    requireRefused(report.value(), QStringLiteral("per-coordinate Laplace"));
  }

  void reportsWithoutANoiseVectorAreRefused() {
    mech::MechanismReport report;
    report.mechanism = "subsample";
    report.noise = mech::NoiseLaw::ExponentialMechanism;
    requireRefused(report, QStringLiteral("exponential mechanism"));
    report.mechanism = "none";
    report.noise = mech::NoiseLaw::None;
    requireRefused(report, QStringLiteral("adds no noise"));
    report.mechanism = "output";
    report.noise = mech::NoiseLaw::L2Laplace;  // and no scale: a malformed report
    requireRefused(report, QStringLiteral("no beta"));
    report.noise = mech::NoiseLaw::Gaussian;
    requireRefused(report, QStringLiteral("no sigma"));
  }
};

QTEST_GUILESS_MAIN(TestMechanismNoiseLaw)
#include "test_mechanism_noise_law.moc"

// E. DP-SGD (paper 003 §3.1; Abadi et al. 2016) for softmax regression and LMGC.
//
// Each step Poisson-samples every example with rate q = batch/n, clips each example's
// gradient to norm ν, adds N(0, σ²ν²I) to the sum, divides by the expected batch size qn,
// adds the (data-independent) gradient of (λ/2)‖θ‖², and steps; LMGC is projected onto the
// PSD cone after each step (post-processing). Privacy: T = ⌈epochs/q⌉ steps of the
// subsampled Gaussian. The RDP accountant bounds them for add/remove neighbours; the
// product's guarantee is under substitution, which can move the clipped sum by 2ν, so ε
// comes from the substitution bound of substitution_rdp.h (about twice the add/remove ε,
// which the report shows beside it). σ is calibrated for the target (ε, δ) under
// substitution unless given, in which case the report's ε is the substitution ε of that σ.
//
// The starting point is data-independent (zero): LMGC's usual warm start from class
// means and covariances would itself be a release of the data.

#include <cmath>
#include <limits>

#include "core/mechanisms/mechanism_internal.h"
#include "core/models/lmgc.h"
#include "core/models/objective.h"
#include "core/mechanisms/substitution_rdp.h"
#include "core/privacy/validation.h"

namespace dpstudio::mech::detail {
namespace {

struct SgdPlan {
  double q = 0;
  long long steps = 0;
};

SgdPlan planFor(const MechanismOptions& o, Index n) {
  SgdPlan p;
  p.q = std::min(1.0, static_cast<double>(o.sgd.batchSize) / static_cast<double>(n));
  p.steps = static_cast<long long>(std::ceil(o.sgd.epochs / p.q));
  return p;
}

// Indices selected by independent Bernoulli(q) trials, by geometric skipping: O(batch)
// draws per step instead of O(n).
std::vector<Index> poissonSample(privacy::NoiseSource& noise, Index n, double q) {
  std::vector<Index> chosen;
  if (q >= 1.0) {
    for (Index i = 0; i < n; ++i) chosen.push_back(i);
    return chosen;
  }
  const double logKeep = std::log1p(-q);
  double position = -1;
  for (;;) {
    const double u = 1.0 - noise.uniform01();  // in (0, 1]
    position += 1.0 + std::floor(std::log(u) / logKeep);
    if (position >= static_cast<double>(n)) break;
    chosen.push_back(static_cast<Index>(position));
  }
  return chosen;
}

}  // namespace

Result<MechanismReport> calibrateDpSgd(const MechanismOptions& o, const ProblemShape& s) {
  MechanismReport report = baseReport(o, NoiseLaw::Gaussian);
  const SgdPlan p = planFor(o, s.rows);
  auto made = makeModel(o.learner, s.features, s.classes);
  if (!made) return made.error();
  report.noiseDimension = made.value()->parameterCount();
  double sigma = 0;
  SubstitutionAccount account;
  if (o.sgd.noiseMultiplier && *o.sgd.noiseMultiplier == 0) {
    // σ = 0: the same clipped steps with no noise, the non-private baseline to compare with.
    report.epsilon = std::numeric_limits<double>::infinity();
    report.noise = NoiseLaw::None;  // so there is no noise scale either: noiseScale() is 0
    report.set("q", p.q, "q = batch/n (Poisson sampling rate)");
    report.set("steps", static_cast<double>(p.steps), "T = ⌈epochs/q⌉");
    report.set("noise_multiplier", 0.0, "σ = 0: no noise is added");
    report.set("clip_norm", o.sgd.clipNorm, "ν");
    report.statement = "NOT private (epsilon = infinity): DP-SGD with noise multiplier 0 adds no noise, " +
                       std::to_string(p.steps) + " clipped steps; a non-private baseline";
    report.warning = "noise multiplier 0: the released model is NOT differentially private";
    return report;
  }
  if (o.sgd.noiseMultiplier) {
    sigma = *o.sgd.noiseMultiplier;
    auto accounted = accountSubstitution(p.q, sigma, p.steps, o.delta);
    if (!accounted) return accounted.error();
    account = accounted.value();
    report.epsilon = account.epsilon;  // the guarantee this σ gives
  } else {
    auto calibrated = calibrateSubstitution(p.q, p.steps, o.delta, o.epsilon);
    if (!calibrated) return calibrated.error();
    sigma = calibrated.value().sigma;
    account = calibrated.value().account;
  }
  report.set("epsilon_accounted", account.epsilon,
             "ε under substitution at this σ (RDP weak triangle inequality through the add/remove "
             "neighbour; ≤ the target when σ is calibrated)");
  report.set("rdp_order", account.order, "order of the best RDP→(ε, δ) conversion");
  report.set("epsilon_classic", account.epsilonClassic, "the same, classic RDP conversion (Mironov 2017)");
  report.set("epsilon_add_remove", account.epsilonAddRemove,
             "ε of the same run for add/remove neighbours (RDP accountant), NOT the guarantee");
  report.set("q", p.q, "q = batch/n (Poisson sampling rate)");
  report.set("steps", static_cast<double>(p.steps), "T = ⌈epochs/q⌉");
  report.set("noise_multiplier", sigma, "σ: noise std per unit of clip norm (calibrated under substitution unless given)");
  report.setNoiseScale(sigma * o.sgd.clipNorm, "σ·ν: std of the noise added to each summed gradient");
  report.set("clip_norm", o.sgd.clipNorm, "ν");
  report.expectedNoiseNorm = privacy::expectedNormGaussian(sigma * o.sgd.clipNorm, report.noiseDimension);
  report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖noise‖ of one step");
  report.statement = "(" + privacy::formatNumber(report.epsilon) + ", " + privacy::formatNumber(o.delta) +
                     ")-DP under substitution of one training example: DP-SGD, " + std::to_string(p.steps) +
                     " steps of the Poisson-subsampled Gaussian; RDP of the sampled Gaussian (Mironov, Talwar & Zhang "
                     "2019) carried from add/remove to substitution by the weak triangle inequality";
  return report;
}

Result<PrivateModel> trainDpSgd(const MechanismOptions& o, const Dataset& train, privacy::NoiseSource& noise,
                                const TrainControl& control) {
  auto calibrated = calibrateDpSgd(o, {train.rows(), train.features(), train.classes()});
  if (!calibrated) return calibrated.error();
  MechanismReport report = std::move(calibrated).value();
  auto made = makeModel(o.learner, train.features(), train.classes());
  if (!made) return made.error();
  const Model& model = *made.value();
  const SgdPlan p = planFor(o, train.rows());
  const double stepNoise = report.noiseScale();
  const double nu = o.sgd.clipNorm;
  const double expectedBatch = p.q * static_cast<double>(train.rows());

  const auto* lmgc = dynamic_cast<const LmgcModel*>(&model);
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(model.parameterCount());
  double noiseNormSum = 0;
  for (long long t = 0; t < p.steps; ++t) {
    if (control.progress.cancelled()) return Error::cancelled();
    const std::vector<Index> batch = poissonSample(noise, train.rows(), p.q);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(theta.size());
    if (!batch.empty()) {
      const Dataset rows = train.subset(batch);
      if (lmgc) {
        // A batch × C(d+1)² matrix of per-example gradients would be gigabytes (MNIST: 12 GB);
        // LMGC gives their norms and any weighted sum at the cost of one gradient.
        const Eigen::VectorXd norms = lmgc->perExampleGradientNorms(theta, rows.X, rows.y);
        const Eigen::VectorXd weights = (nu / norms.array().max(nu)).matrix();  // min(1, ν/‖g_i‖)
        sum = lmgc->weightedGradientSum(theta, rows.X, rows.y, weights);
      } else {
        Eigen::MatrixXd grads = model.perExampleGradients(theta, rows.X, rows.y);
        const Eigen::VectorXd norms = grads.rowwise().norm();
        for (Index i = 0; i < grads.rows(); ++i)
          if (norms[i] > nu) grads.row(i) *= nu / norms[i];
        sum = grads.colwise().sum().transpose();
      }
    }
    if (stepNoise > 0) {  // σ = 0 is the non-private baseline: no draw
      auto draw = privacy::drawGaussian(noise, stepNoise, theta.size());
      if (!draw) return draw.error();
      noiseNormSum += draw.value().norm;
      sum += draw.value().noise;
    }
    const Eigen::VectorXd gradient = sum / expectedBatch + o.learner.lambda * theta;
    theta -= o.sgd.learningRate * gradient;
    if (model.isConstrained()) model.project(theta);
    if (t % 16 == 0) control.progress.report(static_cast<double>(t) / static_cast<double>(p.steps));
  }
  if (stepNoise > 0) {
    report.noiseNorms.push_back(noiseNormSum / static_cast<double>(p.steps));
    report.set("mean_step_noise_norm", report.noiseNorms.back(), "mean ‖noise‖ drawn per step");
  }
  PrivateModel out;
  out.trained.model = made.value();
  out.trained.theta = std::move(theta);
  // DP-SGD runs its planned steps and stops: that is success, not an iteration limit.
  out.trained.summary.iterations = static_cast<int>(p.steps);
  out.trained.summary.termination = Termination::Completed;
  out.trained.summary.message = "DP-SGD ran its " + std::to_string(p.steps) + " planned steps";
  if (stepNoise > 0) {
    if (auto status = finishRelease(report, noise, out.trained.theta, o.sgd.learningRate * stepNoise / expectedBatch);
        !status)
      return status.error();
  } else {
    report.noiseSource = noise.provenance().describe();
  }
  if (model.isConstrained()) model.project(out.trained.theta);
  // The objective DP-SGD descends, (1/n)Σℓ + (λ/2)‖θ‖², at the released θ: a diagnostic on the
  // training rows (not a release), where a report showed 0.
  const Objective objective(model, train.X, train.y, {LossScale::Mean, o.learner.lambda, {}});
  Eigen::VectorXd gradient(out.trained.theta.size());
  out.trained.summary.objective = objective(out.trained.theta, gradient);
  out.trained.summary.gradientNorm = gradient.norm();
  out.trained.summary.evaluations = 1;
  out.report = std::move(report);
  return out;
}

}  // namespace dpstudio::mech::detail

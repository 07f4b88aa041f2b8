#include "core/prediction/prediction_options.h"

#include <algorithm>
#include <cmath>

#include "core/mechanisms/exact_minimizer.h"
#include "core/mechanisms/noise_scale.h"
#include "core/privacy/composition.h"
#include "core/privacy/noise.h"
#include "core/privacy/release_granularity.h"
#include "core/privacy/validation.h"

namespace dpstudio::predict {
namespace {

using privacy::formatNumber;

Error invalid(const std::string& message, const std::string& field) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, field};
}

std::string costText(double epsilon, double delta) {
  return "(" + formatNumber(epsilon) + ", " + formatNumber(delta) + ")-DP";
}

mech::MechanismReport baseReport(const PredictionOptions& o, mech::NoiseLaw noise) {
  mech::MechanismReport report;
  report.mechanism = predictionKindName(o.kind);
  report.model = modelKindName(o.learner.kind);
  report.calibration = o.calibration;
  report.noise = noise;
  report.epsilon = o.epsilon;
  report.delta = o.delta;
  return report;
}

Result<mech::MechanismReport> calibrateSensitivity(const PredictionOptions& o, const mech::ProblemShape& s) {
  auto shape = scoreShape(o.learner.kind, s.classes);
  if (!shape) return shape.error();
  const ScoreShape& score = shape.value();
  const bool gaussian = o.family == mech::NoiseFamily::Gaussian;
  mech::MechanismReport report = baseReport(o, mech::noiseLawOf(o.family));
  const double n = static_cast<double>(s.rows), B = static_cast<double>(o.budget);
  // The scores move by at most the parameters' distance (‖x‖ ≤ 1), and the parameters are
  // an approximate minimizer of a λ-strongly convex objective (exact_minimizer.h): each of
  // one-vs-rest's C problems on its own, so τ is set on one problem's share Δ₀/√C.
  const mech::ExactMinimizerBound exactness{o.learner.lambda};
  const bool oneVsRest = o.learner.kind != ModelKind::Softmax && s.classes > 2;
  const double problems = oneVsRest ? static_cast<double>(s.classes) : 1.0;
  const double exactDelta = 2.0 * score.K / (n * o.learner.lambda);
  const double tolerance = exactness.tolerance(exactDelta / std::sqrt(problems));
  const double Delta = std::sqrt(problems) * exactness.sensitivity(exactDelta / std::sqrt(problems));
  report.noiseDimension = score.dimension;
  report.set("K", score.K, score.kFormula);
  report.set(mech::Calibrated::GradientTolerance, tolerance, "τ: the model's gradient norm is at most τ (fixed in advance)");
  report.set(mech::Calibrated::Delta, Delta,
             "Δ = (2K/(nλ))·(1 + 1e-4): how far the released scores θᵀx can move, ‖x‖ ≤ 1, for minimizers "
             "within τ of the exact ones");
  report.set("budget", B, "B: answers covered by the guarantee; answer B+1 is refused");
  std::string perAnswer;
  if (!gaussian) {
    const double epsilonEach = o.epsilon / B;
    const double beta = epsilonEach / Delta;
    report.set("epsilon_per_answer", epsilonEach, "ε/B (basic composition over the B answers)");
    report.setNoiseScale(beta, "β = (ε/B)/Δ");
    report.expectedNoiseNorm = privacy::expectedNormL2Laplace(beta, score.dimension);
    report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖b‖ = m/β");
    report.statement = costText(o.epsilon, 0.0);
    perAnswer = "ℓ2-Laplace noise with β = " + formatNumber(beta) + ", ε/B = " + formatNumber(epsilonEach) +
                " per answer";
  } else {
    const auto solve = o.calibration == mech::Calibration::Published ? privacy::PerUseSolve::AsPublished
                                                                     : privacy::PerUseSolve::Exact;
    auto g = privacy::gaussianPerAnswer({o.epsilon, o.delta}, o.budget, Delta, solve);
    if (!g) return g.error();
    const auto& each = g.value();
    report.set("epsilon_per_answer", each.perAnswer.epsilon,
               each.rule == "basic" ? "ε* = ε/B (basic composition: it needs less noise here)"
                                    : std::string("ε* from advanced composition (") +
                                          (solve == privacy::PerUseSolve::Exact ? "exact solve" : "paper 003 eq. 51") +
                                          "; it needs less noise here)");
    report.set("delta_per_answer", each.perAnswer.delta,
               each.rule == "basic" ? "δ* = δ/B" : "δ* = (δ − δ')/B");
    if (each.rule == "advanced") report.set("delta_prime", each.deltaPrime, "δ' chosen to minimize σ");
    report.set("sigma_basic", each.sigmaBasic, "analytic σ(ε/B, δ/B, Δ)");
    report.set("sigma_advanced", each.sigmaAdvanced, "min over δ' of analytic σ(ε*, δ*, Δ)");
    report.setNoiseScale(each.sigma, "σ = min(σ_basic, σ_advanced) (paper 003 Alg. 7)");
    // B answers, each moved by at most Δ: μ-GDP with μ = √B·Δ/σ, whatever composition
    // theorem chose σ (as published too: it is the σ drawn).
    report.exactPrivacy = privacy::ExactPrivacy{.gaussianMu = std::sqrt(B) * Delta / each.sigma};
    report.expectedNoiseNorm = privacy::expectedNormGaussian(each.sigma, score.dimension);
    report.set("expected_noise_norm", report.expectedNoiseNorm, "E‖b‖ = σ√2·Γ((m+1)/2)/Γ(m/2)");
    report.statement = costText(o.epsilon, o.delta);
    perAnswer = "Gaussian noise with σ = " + formatNumber(each.sigma) + ", (ε*, δ*) = (" +
                formatNumber(each.perAnswer.epsilon) + ", " + formatNumber(each.perAnswer.delta) +
                ") per answer by " + each.rule + " composition";
    if (solve == privacy::PerUseSolve::AsPublished && each.rule == "advanced") {
      auto recomposed = privacy::advancedComposition(each.perAnswer, o.budget, each.deltaPrime);
      if (!recomposed) return recomposed.error();
      report.setEpsilonThatHolds("epsilon_actual", recomposed.value().epsilon,
                 "advanced composition of the per-answer ε* over B answers (exact formula)");
      report.warning = "as published: paper 003 eq. 51 solves advanced composition with ε*²/2 in place of "
                       "ε*(e^{ε*} − 1)/2, so its per-answer ε* recomposes to " +
                       formatNumber(recomposed.value().epsilon) + " > ε = " + formatNumber(o.epsilon) +
                       "; the guarantee is (" + formatNumber(recomposed.value().epsilon) + ", " +
                       formatNumber(o.delta) + ")-DP, not (ε, δ)";
      report.statement = "as published, NOT " + costText(o.epsilon, o.delta) + " as claimed: " +
                         costText(recomposed.value().epsilon, o.delta);
    }
  }
  report.statement += " under substitution of one training example for up to " + std::to_string(o.budget) +
                      " answers: prediction sensitivity (paper 003 Alg. " + std::string(gaussian ? "7" : "6") +
                      "), the scores of the exact regularized minimizer plus " + perAnswer +
                      "; answer " + std::to_string(o.budget + 1) + " is refused";
  // Answers are drawn later, each from the source of its own request; those in release mode
  // use the scale enlarged by F (PrivatePredictor::draw, release_granularity.h).
  report.set(mech::Calibrated::ReleaseNoiseFactor, privacy::kReleaseNoiseFactor,
             "F = 1 + 2^-10: answers drawn in release mode use the noise scale enlarged by F, to cover the float "
             "error of θᵀx + b (release_granularity.h)");
  return report;
}

Result<mech::MechanismReport> calibrateSubsample(const PredictionOptions& o, const mech::ProblemShape& s) {
  const Index partRows = s.rows / o.teachers;
  if (partRows < 1)
    return invalid("subsample-and-aggregate with T = " + std::to_string(o.teachers) + " teachers needs at least " +
                       std::to_string(o.teachers) + " training rows (found " + std::to_string(s.rows) + ")",
                   "teachers");
  mech::MechanismReport report = baseReport(o, mech::NoiseLaw::ExponentialMechanism);
  const double B = static_cast<double>(o.budget);
  report.noiseDimension = s.classes;
  report.set(mech::Calibrated::Teachers, static_cast<double>(o.teachers), "T: models trained on disjoint parts");
  report.set(mech::Calibrated::PartRows, static_cast<double>(partRows), "⌊n/T⌋ rows per part (the rest are not used)");
  report.set("budget", B, "B: answers covered by the guarantee; answer B+1 is refused");
  const bool published = o.calibration == mech::Calibration::Published;
  const auto solve = published ? privacy::PerUseSolve::AsPublished : privacy::PerUseSolve::Exact;
  auto each = privacy::epsilonPerAnswer({o.epsilon, o.delta}, o.budget, solve);
  if (!each) return each.error();
  const double perAnswerBudget = each.value().epsilon;  // ε/B or the advanced-composition ε*
  const std::string rule = each.value().rule;
  if (!published) {
    const double beta = perAnswerBudget / 2.0;
    if (rule == "basic") report.delta = 0.0;  // basic composition of pure-ε answers: what the ledger charges
    report.set("epsilon_per_answer", perAnswerBudget,
               rule == "basic" ? "ε* = ε/B (basic composition)"
                               : "ε* from advanced composition with δ' = δ, δ* = 0 (exact solve)");
    report.setNoiseScale(beta, "β = ε*/2: vote counts move by 1 in two classes at once, so each answer is 2β-DP");
    report.statement = costText(o.epsilon, rule == "basic" ? 0.0 : o.delta) +
                       " under substitution of one training example for up to " + std::to_string(o.budget) +
                       " answers: subsample-and-aggregate over " + std::to_string(o.teachers) +
                       " teachers, each answer sampled ∝ exp(β·votes) with β = " + formatNumber(beta) +
                       " (2β = ε* per answer, " + rule + " composition); answer " + std::to_string(o.budget + 1) +
                       " is refused";
    return report;
  }
  // As published: β is the per-answer budget itself, but each answer is 2β-DP.
  const double beta = perAnswerBudget;
  report.set("epsilon_per_answer", perAnswerBudget,
             rule == "basic" ? "ε/B (paper 003 Thm 7)" : "√(2/B)(√(ln(1/δ)+ε) − √ln(1/δ)) (paper 003 Thm 8)");
  report.setNoiseScale(beta, o.delta > 0 ? "β = max(ε/B, √(2/B)(√(ln(1/δ)+ε) − √ln(1/δ))) (as published)"
                                       : "β = ε/B (as published)");
  double actual = 2.0 * beta * B;  // basic composition of B answers that are 2β-DP each
  if (o.delta > 0) {
    auto advanced = privacy::advancedComposition({2.0 * beta, 0.0}, o.budget, o.delta);
    if (!advanced) return advanced.error();
    actual = std::min(actual, advanced.value().epsilon);
  }
  report.setEpsilonThatHolds("epsilon_actual", actual,
             "what holds: B answers that are 2β-DP each (basic or advanced composition, the smaller)");
  report.warning = "as published: paper 003's Theorem 7 treats each answer as β-DP, ignoring the normalizer of "
                   "the exponential mechanism; one substituted example moves one vote out of one class and into "
                   "another, so each answer is only 2β-DP (with two classes and a lopsided vote the likelihood "
                   "ratio of one answer approaches e^{2β}); the guarantee is (" + formatNumber(actual) + ", " +
                   formatNumber(o.delta > 0 ? o.delta : 0.0) + ")-DP, not (ε, δ)";
  report.statement = "as published, NOT " + costText(o.epsilon, o.delta) + " as claimed: " +
                     costText(actual, o.delta > 0 ? o.delta : 0.0) + " under substitution for up to " +
                     std::to_string(o.budget) + " answers (subsample-and-aggregate over " +
                     std::to_string(o.teachers) + " teachers with β = " + formatNumber(beta) + ")";
  return report;
}

}  // namespace

std::string predictionKindName(PredictionKind kind) {
  return kind == PredictionKind::Sensitivity ? "prediction" : "subsample";
}

std::optional<PredictionKind> parsePredictionKind(const std::string& name) {
  if (name == "prediction" || name == "prediction-sensitivity") return PredictionKind::Sensitivity;
  if (name == "subsample" || name == "subsample-and-aggregate") return PredictionKind::Subsample;
  return std::nullopt;
}

Status PredictionOptions::validate() const {
  if (auto status = learner.validate(); !status) return status.error();
  if (learner.components != 1)
    return invalid("private prediction and subsample-and-aggregate train one Gaussian per class: an LMGC "
                   "mixture is for the training mechanisms",
                   "components");
  if (auto status = privacy::requirePositive("epsilon", epsilon); !status) return status.error();
  if (!(delta >= 0 && delta < 1)) return invalid("delta must be in [0, 1), found " + formatNumber(delta), "delta");
  if (budget < 1) return invalid("the budget B must be a whole number >= 1, found " + std::to_string(budget), "budget");
  if (kind == PredictionKind::Sensitivity) {
    if (learner.kind == ModelKind::Lmgc)
      return invalid("prediction sensitivity needs a linear model with a strongly convex objective "
                     "(logreg, huber or softmax); LMGC has no prediction-sensitivity bound",
                     "model");
    if (family == mech::NoiseFamily::Gaussian && !(delta > 0))
      return invalid("Gaussian noise needs delta > 0 (use l2-laplace for delta = 0)", "delta");
  } else {
    if (teachers < 1) return invalid("the number of teachers T must be >= 1", "teachers");
    if (family != mech::NoiseFamily::L2Laplace)
      return invalid("subsample-and-aggregate samples by the exponential mechanism; it has no noise family "
                     "(leave --distribution unset)",
                     "distribution");
  }
  return Ok{};
}

Result<ScoreShape> scoreShape(ModelKind model, Index classes) {
  if (classes < 2) return invalid("the model needs at least two classes", "classes");
  switch (model) {
    case ModelKind::LogisticRegression:
    case ModelKind::HuberSvm:
      if (classes == 2) return ScoreShape{1.0, 1, "K = 1: binary model, one score wᵀx, |ℓ'| ≤ 1"};
      return ScoreShape{std::sqrt(static_cast<double>(classes)), classes,
                        "K = √C: C one-vs-rest problems, each minimizer moves by at most 2/(nλ)"};
    case ModelKind::Softmax:
      return ScoreShape{std::sqrt(2.0), classes, "K = √2: gradient bound of the softmax loss (paper 003 App. D)"};
    case ModelKind::Lmgc: break;
  }
  return invalid("prediction sensitivity is offered for logreg, huber and softmax", "model");
}

Result<mech::MechanismReport> calibratePrediction(const PredictionOptions& options, const mech::ProblemShape& shape) {
  if (auto status = options.validate(); !status) return status.error();
  if (shape.rows < 1 || shape.features < 1 || shape.classes < 2)
    return invalid("the problem needs n >= 1, d >= 1 and C >= 2", "n");
  return options.kind == PredictionKind::Sensitivity ? calibrateSensitivity(options, shape)
                                                     : calibrateSubsample(options, shape);
}

namespace {

std::optional<std::string> scoresSwampedWarning(const PredictionOptions& options, const mech::MechanismReport& calibration,
                                                Index classes) {
  const double noise = calibration.expectedNoiseNorm;
  const auto above = mech::noiseAboveModelBound(options.learner, classes, noise);
  if (!above) return std::nullopt;
  return "the answers are mostly noise: E\u2016b\u2016 = " + privacy::formatNumber(noise) +
         " per answer is larger than any score vector a model with \u03bb = " +
         privacy::formatNumber(options.learner.lambda) +
         " can give (\u2016\u03b8*\u1d40x\u2016 \u2264 \u221a(2\u2113(0)/\u03bb) = " + privacy::formatNumber(above->bound) +
         "); \u03bb above " + privacy::formatNumber(above->balancingLambda) +
         ", a larger epsilon or a smaller budget B make the noise smaller than that";
}

}  // namespace

std::vector<std::string> predictionWarnings(const PredictionOptions& options, const mech::MechanismReport& calibration,
                                           const mech::ProblemShape& shape) {
  std::vector<std::string> out;
  if (options.kind == PredictionKind::Sensitivity) {
    if (auto swamped = scoresSwampedWarning(options, calibration, shape.classes)) out.push_back(*swamped);
    return out;
  }
  const auto teachers = calibration.find(mech::Calibrated::Teachers), partRows = calibration.find(mech::Calibrated::PartRows);
  if (calibration.mechanism != predictionKindName(PredictionKind::Subsample) || !teachers || !partRows) return out;
  if (*partRows < static_cast<double>(shape.features))
    out.push_back("each of the T = " + privacy::formatNumber(*teachers) + " teachers trains on " +
                  privacy::formatNumber(*partRows) + " rows, fewer than the " + std::to_string(shape.features) +
                  " features: the teachers barely learn, and their vote is close to a guess; fewer teachers give "
                  "each more rows");
  const double beta = calibration.noiseScale(), classes = static_cast<double>(std::max<Index>(shape.classes, 2));
  const double unanimous = 1.0 / (1.0 + (classes - 1.0) * std::exp(-beta * *teachers));
  if (beta > 0 && unanimous < 0.9)
    out.push_back("the answers are mostly noise: even when all T = " + privacy::formatNumber(*teachers) +
                  " teachers agree, an answer (\u03b2 = " + privacy::formatNumber(beta) +
                  ") returns their class with probability " + privacy::formatNumber(unanimous) +
                  "; a larger epsilon, a smaller budget B or more teachers (with enough rows each) help");
  return out;
}

}  // namespace dpstudio::predict

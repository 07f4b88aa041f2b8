#pragma once
// Private training: every mechanism of docs/algorithms.md §3 A–E behind one entry point.
//
// Options in, model and report out. A mechanism first *calibrates* — derives its noise
// parameters from (ε, δ, n, d, C, λ, h, …) alone — and then trains with exactly those
// numbers: the report it returns is the calibration it used, plus what it actually drew
// (the noise norm), so every number a mechanism prints is the number it used.
//
// Data contract: every training row must satisfy ‖x‖₂ ≤ 1 (docs/algorithms.md §0.2). A mechanism
// refuses data that does not (it never rescales by a data-derived factor): declare a
// public norm bound R in the preprocessing.
//
// Calibration modes: "corrected" (default) carries a proof as stated in docs/algorithms.md;
// "as published" reproduces a paper's formula where that proof does not hold, and its
// report carries a warning saying why.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/learn/learner.h"
#include "core/privacy/accountant_kind.h"
#include "core/privacy/exact_privacy.h"
#include "core/privacy/noise.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::mech {

class TrainingMechanism;  // training_mechanism.h: one mechanism's calibration and training

// Which private-training mechanism a MechanismOptions runs: one of §3 A–E, or none (the
// non-private baseline). Not a closed list: a mechanism is its TrainingMechanism
// implementation, named by the function that returns it, so a new one (and a test-only one,
// tests/experiment/test_mechanism_extension.cpp) needs no change here — the constants below
// only name the built-in ones for the code that must tell them apart.
class MechanismKind {
 public:
  using Implementation = const TrainingMechanism& (*)();
  constexpr MechanismKind() = default;  // none
  constexpr explicit MechanismKind(Implementation implementation) : implementation_(implementation) {}

  static const MechanismKind None, Output, Objective, Loss, DpLmgc, DpSgd;

  bool isNone() const { return implementation_ == nullptr; }
  // The mechanism itself; not for None (a programming error: aborts).
  const TrainingMechanism& mechanism() const;
  constexpr bool operator==(const MechanismKind&) const = default;

 private:
  Implementation implementation_ = nullptr;
};

// The built-in mechanisms, each defined in its own file.
const TrainingMechanism& outputPerturbation();     // A: output perturbation / model sensitivity
const TrainingMechanism& objectivePerturbation();  // B: objective perturbation (binary models)
const TrainingMechanism& lossPerturbation();       // C: loss perturbation (multi-class)
const TrainingMechanism& dpLmgc();                 // D: DP large-margin Gaussian classifier
const TrainingMechanism& dpSgd();                  // E: DP-SGD with the PLD accountant

inline constexpr MechanismKind MechanismKind::None{};
inline constexpr MechanismKind MechanismKind::Output{&outputPerturbation};
inline constexpr MechanismKind MechanismKind::Objective{&objectivePerturbation};
inline constexpr MechanismKind MechanismKind::Loss{&lossPerturbation};
inline constexpr MechanismKind MechanismKind::DpLmgc{&dpLmgc};
inline constexpr MechanismKind MechanismKind::DpSgd{&dpSgd};

enum class Calibration { Corrected, Published };
enum class NoiseFamily { L2Laplace, Gaussian };

// "none", or the mechanism's key ("output", "objective", "loss", "dplmgc", "dpsgd", …). The
// way back from a key is the catalogue's (core/experiment/mechanism_catalog.h).
std::string mechanismName(MechanismKind kind);
std::string calibrationName(Calibration calibration);  // "corrected", "published"
std::optional<Calibration> parseCalibration(const std::string& name);
std::string calibrationWord(const std::optional<Calibration>& calibration);  // unset: "none"
std::string noiseFamilyName(NoiseFamily family);  // "l2-laplace", "gaussian"
std::optional<NoiseFamily> parseNoiseFamily(const std::string& name);

// The law a report's noise follows: what every draw, the ledger and the audit dispatch on
// (never the display name). Families of training noise plus those of multiparty (as
// published) and subsample-and-aggregate.
enum class NoiseLaw {
  None,                  // no noise: the non-private baseline
  L2Laplace,             // density ∝ exp(−β‖b‖₂); scale β
  Gaussian,              // N(0, σ²I); scale σ
  LaplacePerCoordinate,  // independent Laplace(0, b) coordinates; scale b
  ExponentialMechanism,  // a class drawn with probability ∝ exp(β·score); scale β, no vector
};
NoiseLaw noiseLawOf(NoiseFamily family);
// "none", "l2-laplace", "gaussian", "laplace per coordinate", "exponential mechanism": the
// JSON's and ledger's words.
std::string noiseLawName(NoiseLaw law);
std::optional<NoiseLaw> parseNoiseLaw(const std::string& name);
// The JSON key of the law's scale: "beta", "sigma", "laplace_scale"; empty for None.
std::string noiseScaleKey(NoiseLaw law);

struct DpSgdSettings {
  Index batchSize = 256;       // expected batch: q = batchSize / n
  double clipNorm = 1.0;       // ν: each example's gradient is clipped to norm ν
  // Steps T = ceil(epochs / q) = epochs·n/B: the default 20 brings the noise-free iteration
  // near L-BFGS's accuracy on the sets measured (docs/algorithms.md §3 E) while, at ε ≈ 1,
  // more steps add noise faster than progress.
  double epochs = 20;
  // Step size on the mean gradient; unset: 1/(L + λ) from the model's curvature bound L on
  // the unit ball (sgd_step.h), the classic safe step of an L-smooth objective.
  std::optional<double> learningRate;
  std::optional<double> noiseMultiplier;  // σ; unset: calibrated for (ε, δ) by RDP
  // With no learning rate, for the linear models: this share ε₀ of ε buys a Laplace
  // estimate of the rows' mean squared norm m (sensitivity 1/n), and the step is 1/(L·m̂ + λ),
  // the safe step of these rows, instead of 1/(L + λ), that of rows on the unit sphere. Rows
  // well inside the unit ball (declared ranges wider than the data, as is usual) then train
  // in the planned steps instead of barely leaving zero (docs/algorithms.md §3 E). 0: the
  // public step, nothing spent.
  double stepEstimateShare = 0.05;
  // The release is the mean of the iterates of this last share of the steps (tail averaging;
  // post-processing of iterates the guarantee already covers), which cancels much of the
  // noise the last iterate alone carries. 0: the last iterate.
  double averagedTail = 0.25;
  // Instead of batchSize, epochs and averagedTail (and with a step estimate, a step up to twice
  // the rows' safe one): the schedule sgd_step.h's sgdScheduleFromProblem reads off public
  // numbers (n, d, C, ε; docs/algorithms.md §3 E). The CLI's and `auto`'s choice when the
  // user gives none of them.
  bool scheduleFromProblem = false;
  // β of heavy-ball momentum: v ← βv + ĝ, θ ← θ − η·v, post-processing of the noisy gradients
  // (the guarantee is the steps', whatever β). Unset: the schedule's (sgd_step.h: 0.9 at ε = ∞,
  // that is without noise, else 0), and 0 without the schedule. Momentum lets the steps along
  // the directions of small curvature, which a step safe for the largest one barely moves
  // (MNIST's rows, centred on their declared midpoint, share one large direction), travel
  // ~1/(1 − β) farther while the largest stays stable (η·L_max < 2(1 + β));
  // docs/algorithms.md §3 E.
  std::optional<double> momentum;
  // The ε that schedule plans for; unset: the mechanism's ε, and ∞ without noise (σ = 0: the
  // rule's most steps, T = 2000 at q = max(0.02, 256/n) with momentum 0.9, which is how the
  // non-private baseline converges). A noise-free rerun of a private plan pins its ε here to reproduce its steps.
  std::optional<double> scheduleEpsilon;
  // σ given as 0: the non-private baseline, reported NOT private (ε = ∞).
  bool noiseFree() const { return noiseMultiplier && *noiseMultiplier == 0; }
  bool operator==(const DpSgdSettings&) const = default;
};

struct MechanismOptions {
  MechanismKind kind = MechanismKind::None;
  LearnerSpec learner;            // model, λ, Huber h
  double epsilon = 1.0;           // total ε of the release
  double delta = 0.0;             // total δ; > 0 for Gaussian noise and DP-SGD
  NoiseFamily family = NoiseFamily::L2Laplace;
  Calibration calibration = Calibration::Corrected;
  double lmgcStrongConvexity = 1e-2;  // λ₂ of output perturbation for LMGC (§3 A)
  DpSgdSettings sgd;

  // Names the offending parameter ("epsilon must be finite and > 0, found 0") and rejects
  // combinations a mechanism does not support, before any work.
  Status validate() const;
  bool operator==(const MechanismOptions&) const = default;
};

// A derived calibration value with the formula that produced it, for reports and tooltips.
struct DerivedValue {
  std::string key;      // JSON key: "beta", "Delta", "epsilon_prime", "rho", "sigma", …
  double value = 0;
  std::string formula;  // e.g. "β = ε/Δ"
};

// The calibration values that code reads back from a report (the noise drawing, the exact-
// minimizer check, the audit, the sweep, the ledger), typed so that a misspelt key is a
// compile error: Δ (a sensitivity; objective perturbation's added ridge), ρ, the gradient
// tolerance τ and the privately chosen λ. Shown among rows() under calibrationKey()'s names
// ("Delta", "rho", "gradient_tolerance", "chosen_lambda"), which set(string) refuses.
// The derived values read outside the mechanism that set them (by the noise drawing, the
// ledger, the audit, the front ends): typed, so a reader cannot misspell a key.
enum class Calibrated {
  Delta,              // Δ: the sensitivity the noise is scaled to
  Rho,                // ρ: loss perturbation's strong-convexity weight
  GradientTolerance,  // the exact-minimizer check's tolerance
  ChosenLambda,       // private tuning's chosen λ
  NoiseMultiplier,    // DP-SGD's σ per unit of clip norm
  Releases,           // one-vs-rest: one release per class
  SmallestParty,      // multiparty: n₍₁₎
  TheoremBound,       // multiparty: paper 004's Theorem 4.2 bound (K − 1)/(n₍₁₎λ)
  ProtocolBytes,      // multiparty through Paillier: bytes sent
  LearningRate,       // DP-SGD's step size η, given or 1/(L + λ)
  SamplingRate,       // DP-SGD's Poisson rate q = batch/n
  Steps,              // DP-SGD's steps T
  Candidates,         // private tuning and selection: the number of candidates m
  ChosenIndex,        // private tuning and selection: the released candidate (1-based)
  SelectionRuns,      // private selection: the training runs K drawn
  MeanRuns,           // private selection: E[K] of the run law
  Teachers,           // subsample-and-aggregate's T
  PartRows,           // rows per part: ⌊n/T⌋ (subsample), ⌊n/(m+1)⌋ (private tuning)
  ReleaseNoiseFactor, // release mode: the factor the noise is enlarged by for rounding
};
std::string calibrationKey(Calibrated which);

// What a mechanism calibrated and used, typed: the noise drawing, the ledger and the audit
// read these fields; the display rows and the JSON are generated from them (rows()).
struct MechanismReport {
  std::string mechanism;  // mechanismName(), or a prediction / multiparty mechanism's name
  std::string model;      // modelKindName()
  std::optional<Calibration> calibration;  // unset: no privacy mechanism ("none" in JSON)
  NoiseLaw noise = NoiseLaw::None;
  std::string noiseSource;  // NoiseProvenance::describe()
  double epsilon = 0;       // the ε the release claims
  double delta = 0;         // the δ the release claims (0 for pure-ε laws)
  Index noiseDimension = 0;          // coordinates of one draw
  std::vector<double> noiseNorms;    // ‖b‖ of each draw actually made (OvR: one per class)
  double expectedNoiseNorm = 0;      // E‖b‖ of one draw
  double gradientNorm = 0;           // reached by the optimizer (exact-minimizer check)
  // How the optimizer of a mechanism that releases a minimizer (A, B, C, D) stopped; the
  // worst of one-vs-rest's problems. Unset where no minimizer is released (DP-SGD). Anything
  // but Converged means the release is an approximate minimizer, which the proofs do not
  // cover: `warning` says so too, and the JSON carries "converged": false.
  std::optional<Termination> termination;
  double releaseGranularity = 0;     // release mode: the rounding grid; 0 = none
  // DP-SGD: the accountant that gave ε (PLD, or RDP where the PLD grid cannot hold σ).
  std::optional<privacy::AccountantKind> accountant;
  // What is known of the release beyond (ε, δ), for its exact trade-off curve
  // (exact_privacy.h): a Gaussian mechanism's μ, DP-SGD's steps. Unset: nothing more.
  std::optional<privacy::ExactPrivacy> exactPrivacy;
  // Set by trainPrivatelyFromSolution only: the perturbed problem (B, C, D) started from
  // the given non-private minimizer, not from zero. Never set by a release path; not part
  // of the report's JSON (a sweep's instrumentation, SweepWork::warmStarts).
  bool warmStarted = false;
  std::string statement;             // one sentence: the guarantee (or its absence)
  std::string warning;               // as published: why the guarantee does not hold

  bool converged() const { return !termination || *termination == Termination::Converged; }

  // The scale of `noise` every draw uses (β, σ — DP-SGD's σ·ν per step —, or b); 0 when
  // the law has none. Set only with setNoiseScale, after `noise`.
  double noiseScale() const { return noiseScale_.value; }
  void setNoiseScale(double value, const std::string& formula);
  // As published: the ε that really holds where it differs from the claim (its key is
  // "epsilon_actual" for the predictors, "epsilon_provable" for multiparty).
  const std::optional<DerivedValue>& epsilonThatHolds() const { return epsilonThatHolds_; }
  void setEpsilonThatHolds(const std::string& key, double value, const std::string& formula);
  // What a ledger charges for this release: the ε that holds, and δ only for a law whose
  // guarantee has one — Gaussian noise (DP-SGD too) and the exponential mechanism under
  // advanced composition (whose calibration leaves δ = 0 otherwise); ℓ2-Laplace is pure ε
  // whatever δ the options carried.
  double chargedEpsilon() const { return epsilonThatHolds_ ? epsilonThatHolds_->value : epsilon; }
  double chargedDelta() const {
    return chargesDelta || noise == NoiseLaw::Gaussian || noise == NoiseLaw::ExponentialMechanism ? delta : 0.0;
  }
  // The calibration's own guarantee holds: a finite ε, and either no "as published" warning
  // or an ε that holds in its place (epsilonThatHolds). DP-LMGC as published holds for no ε.
  // (Whether a run's noise was release noise is the run's business, not the calibration's.)
  bool guaranteeHolds() const {
    return std::isfinite(chargedEpsilon()) && (warning.empty() || epsilonThatHolds_.has_value());
  }
  // Set where the guarantee has a δ whatever the chosen model's noise law: private selection
  // accounted through Rényi DP (selection.h), whose δ comes from the conversion to (ε, δ).
  bool chargesDelta = false;

  // Every derived number, in display order: the noise scale, the other derived values, the
  // ε that holds. value() looks a key up among them.
  std::vector<DerivedValue> rows() const;
  std::optional<double> value(const std::string& key) const;
  // A value the mechanism's own calibration set (its Δ, ρ, tolerance): aborts when missing,
  // a programming error, instead of dereferencing an empty optional.
  double calibrated(Calibrated which) const;
  double calibrated(const std::string& key) const;  // any other derived value, the same way
  std::optional<double> find(Calibrated which) const { return value(calibrationKey(which)); }
  void set(Calibrated which, double value, const std::string& formula);
  // Any other derived value (the noise scale, the ε that holds and the Calibrated values
  // have their own setters).
  void set(const std::string& key, double value, const std::string& formula);
  void erase(const std::string& key);  // a derived value set with set()
  std::string calibrationWord() const;  // "corrected", "published" or "none"
  std::string noiseWord() const { return noiseLawName(noise); }

 private:
  void setRow(const std::string& key, double value, const std::string& formula);

  DerivedValue noiseScale_;
  std::vector<DerivedValue> derived_;
  std::optional<DerivedValue> epsilonThatHolds_;
};

// Release mode only: enlarges the report's σ, β or b (and E‖b‖) by kReleaseNoiseFactor
// before any draw, for every additive release — noise added to the released vector
// (output perturbation, multiparty aggregation, prediction-sensitivity scores) —, and records
// release_noise_factor (release_granularity.h). The report then shows the scale actually used.
void enlargeNoiseForRelease(MechanismReport& report, privacy::NoiseKind noise);
void enlargeNoiseForRelease(MechanismReport& report, const privacy::NoiseSource& source);

// One draw of the report's noise: `noiseDimension` coordinates of its law at its scale.
// Refuses (InvalidPrivacy) a law without a noise vector (none, the exponential mechanism).
Result<privacy::NoiseDraw> drawReportedNoise(const MechanismReport& report, privacy::NoiseSource& source);

struct ProblemShape {
  Index rows = 0;      // n
  Index features = 0;  // d (after preprocessing)
  Index classes = 0;   // C
};

// Derived values that are measured on the private rows or on the drawn noise rather than
// calibrated ("rows_clipped", "mean_step_noise_norm", "distance_to_all_data"): experiment
// diagnostics, never part of a release (a bundle leaves them out).
bool isDiagnosticValue(const std::string& key);

// Release mode: removes what the report says about the noise actually drawn (its norms and
// DP-SGD's mean step norm). Beside the released θ* + b, ‖b‖ locates the exact minimizer θ*
// on a sphere around the release, which no guarantee covers (issue 12): a release-mode
// report must not carry it anywhere. The calibration (β, σ, E‖b‖) stays.
void withholdDrawnNoise(MechanismReport& report);

// The noise parameters a run would use, without data (CLI `calibrate`, the GUI's live text).
// `noise`: the source a run would draw from; release mode enlarges an additive release's
// noise (output perturbation), so that calibrate shows what a run of that kind uses.
Result<MechanismReport> calibrate(const MechanismOptions& options, const ProblemShape& shape,
                                  privacy::NoiseKind noise = privacy::NoiseKind::Experiment);

struct PrivateModel {
  TrainedModel trained;    // the released parameters (post-processed, e.g. PSD-projected)
  MechanismReport report;
};

// Trains with the mechanism on rows with ‖x‖ ≤ 1, drawing noise from `noise`.
// control.warmStart is used by output perturbation only (it releases a minimizer within the
// gradient tolerance its calibration fixed in advance, exact_minimizer.h); objective and
// loss perturbation, DP-LMGC and DP-SGD start from zero, because their released approximate
// minimizer (or iterate) would carry a data-fitted start along (a sweep's exception:
// trainPrivatelyFromSolution below). Their report says when the optimizer stopped short of its tolerance for any
// reason (report.termination, report.warning).
Result<PrivateModel> trainPrivately(const MechanismOptions& options, const Dataset& train,
                                    privacy::NoiseSource& noise, const TrainControl& control = {});

// Experiments only (a sweep trial; issue 10 §2 "Reuse"): as trainPrivately, but objective
// and loss perturbation and DP-LMGC start their perturbed problem from `nonPrivate`, the
// non-private minimizer of options.learner on the same rows (sized as the model's
// parameters), instead of zero; the report says warmStarted. Objective and loss
// perturbation move it first by the added terms' exact effect with the loss gradient held
// at θ*, (q₀θ* − c)/q (mechanism_internal.h): on MNIST the noise dominates at small ε and
// θ* alone saves nothing. Output perturbation uses
// control.warmStart as always; DP-SGD and the non-private baseline ignore `nonPrivate`.
//
// What makes the result the release's: the stopping rule is a property of the point alone,
// ‖∇J(θ)‖ ≤ max(a, r·‖θ‖) with a and r fixed before the run (L-BFGS, its gradient polish
// and projected gradient alike; no test compares with the starting gradient), so a warm and
// a cold run stop in the same set; J is μ-strongly convex, so both are within ‖∇J‖/μ of the
// one exact minimizer, and within the sum of those of each other (test_sweep_warm_start).
// Only a run that stops short of the tolerance (iteration limit) can differ more, and its
// report then says it did not converge.
//
// Refuses a release noise source: a release must not start from a data-fitted point, whose
// trace an approximate minimizer would carry along.
Result<PrivateModel> trainPrivatelyFromSolution(const MechanismOptions& options, const Dataset& train,
                                                privacy::NoiseSource& noise, const TrainControl& control,
                                                const Eigen::VectorXd& nonPrivate);

}  // namespace dpstudio::mech

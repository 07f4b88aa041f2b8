#pragma once
// Runs a PrivacyPlan on prepared data: the one runner behind the GUI's Train, `dpstudio-cli
// train` and every trial of a sweep (sweep.h), and the only place that dispatches over the
// four kinds of plan. Plain values in and out, safe on a pool thread.
//
// What a run computes besides the release is an experiment diagnostic (the non-private
// baseline, accuracies measured on the training rows, multiparty's distances): NOT private,
// never released, and marked so wherever a front end shows it.
//
//   NonPrivate          the baseline (`baseline`);
//   TrainingMechanism   the baseline, then the mechanism's release (`release`);
//   PrivatePrediction   F: θ* is the baseline and the predictor's model; G: the T teachers,
//                       then the all-rows baseline. Nothing is released by training: each
//                       answer is (`prediction`, answering.h);
//   Multiparty          the parties' models, the all-data minimizer w* (the baseline) and
//                       the perturbed average (`release`), with paper 004's comparisons.
//
// A caller that runs one plan many times on the same rows (a sweep) lends the runs what they
// can share, through RunControl::reuse (each run asks for it instead of computing it), and
// turns off what it does not measure (RunControl::trainBaseline, diagnostics). Where work
// comes from never changes the noise: it comes from the caller's source in a fixed order
// (experiment mode replays it).

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/sources/prepare.h"
#include "core/experiment/privacy_plan.h"
#include "core/models/feature_matrix.h"
#include "core/prediction/aggregation.h"
#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"
#include "core/privacy/noise_source.h"
#include "core/util/progress.h"

namespace dpstudio::experiment {

// A model with how well it does on the prepared data.
struct FittedModel {
  TrainedModel model;
  double trainAccuracy = 0;            // on the training rows: NOT private for a release
  std::optional<double> testAccuracy;  // none without a test part
  double seconds = 0;                  // wall-clock time of the optimization
};

// What a private training mechanism or multiparty aggregation released.
struct ModelRelease {
  TrainedModel model;
  mech::MechanismReport report;
  double trainAccuracy = 0;
  std::optional<double> testAccuracy;
  double seconds = 0;
  privacy::NoiseProvenance noise;
};

// A private predictor (§3 F, G). Training it releases nothing: each answer is a release.
// Copies share one budget (answer_budget.h).
struct PredictorRelease {
  std::variant<predict::PrivatePredictor, predict::SubsampleAggregate> predictor;
  double seconds = 0;  // wall-clock time of training θ* or the T teachers

  bool isSubsample() const { return predictor.index() == 1; }
  const mech::MechanismReport& report() const;  // the calibration (no noise drawn yet)
  long long budget() const;
  long long remaining() const;
  // The same trained predictor with its own, unused budget: an experiment's copy, whose
  // answers are not charged to this one's budget (and are not private: whoever uses it says so).
  PredictorRelease freshRepetition() const;
  // NOT private (experiment diagnostics, never released): the labels the non-private model
  // (F: θ*) or the teachers' plurality vote (G: ties to the lower class) give the rows of X.
  Eigen::VectorXi nonPrivateLabels(const Eigen::MatrixXd& X) const;
};

// Paper 004's comparisons beside a multiparty release: computed from the pooled data, NOT
// private, never released. The all-data DP baseline is a second release with its own ε.
struct MultipartyDiagnostics {
  std::vector<Index> partySizes;  // n_j in party order
  double distance = 0;            // measured ‖ŵ − w*‖
  double bound = 0;               // Theorem 4.2: (K−1)/(n_(1)λ), as published
  Eigen::VectorXd average;        // ŵ, the noise-free average of the local models
  struct AllDataBaseline {
    mech::MechanismReport report;
    double trainAccuracy = 0;
    std::optional<double> testAccuracy;
  };
  std::optional<AllDataBaseline> allDataPrivate;
  std::string transcriptJson;     // the aggregation protocol's message transcript (Paillier; else empty)
};

struct PlanRun {
  // The non-private model: the baseline of a training mechanism; F: θ*; G: the model
  // trained on all rows; multiparty: w*. Only a NonPrivate or TrainingMechanism run's
  // baseline may be lent to another run (reusableBaseline()).
  FittedModel baseline;
  std::optional<ModelRelease> release;          // a training mechanism or multiparty
  std::optional<PredictorRelease> prediction;   // F, G
  std::optional<MultipartyDiagnostics> multiparty;

  bool reusableBaseline() const { return !prediction && !multiparty; }
};

// The rows a run trains and tests on, by reference: a PreparedData's, or a sweep's data
// variant (shared by its trials, never copied).
struct RunData {
  const Dataset& train;
  const Dataset& test;
  // train's rows in the learners' layout, when the caller built them once for many runs
  // (TrainControl::rows); else each fit builds its own.
  std::shared_ptr<const FeatureMatrix> trainRows = nullptr;
};

// Work a run takes from its caller instead of computing it. A sweep repeats one plan on the
// same rows many times and only the noise differs between repetitions, so its trials share
// this work (sweep.h, "Reuse"). A provider is handed the computation the run would do and
// returns that computation's result: computed once, by whichever run asks first, and shared
// read-only (so it must not depend on what differs between the runs that share it: ε, δ, B,
// the noise). It is called on the run's thread and must be safe there. Unset, the run
// computes the work itself.
template <class T>
using WorkProvider = std::function<Result<std::shared_ptr<const T>>(const std::function<Result<T>()>& compute)>;

struct RunReuse {
  // The non-private model of plan.learner() on the run's rows: a NonPrivate run's result, a
  // training mechanism's baseline (and experiment start), subsample-and-aggregate's all-rows
  // model. Taken whenever set (also where RunControl::trainBaseline is off).
  WorkProvider<FittedModel> baseline;
  // Output perturbation's experiment start (RunControl::experimentWarmStart): the baseline
  // polished to the gradient tolerance τ of its calibration, which depends on n, λ and the
  // model's K, never on ε — one polish serves every ε (docs/algorithms.md §3.0).
  WorkProvider<Eigen::VectorXd> exactStart;
  // Prediction sensitivity's θ* (PrivatePredictor::train; its calibration is not used: each
  // run restores θ* with its own (ε, δ, B) and a fresh budget).
  WorkProvider<predict::PrivatePredictor> predictor;
  // Subsample-and-aggregate's T teachers (predict::trainTeachers).
  WorkProvider<std::shared_ptr<const predict::TeacherEnsemble>> teachers;
  // Multiparty's local models (multiparty::trainLocalModels). With them the run aggregates
  // only: its w* is allData's, else none (no distance, no all-data DP baseline).
  WorkProvider<std::vector<multiparty::LocalModel>> parties;
  // Multiparty's w* beside given local models: the non-private model of plan.baselineLearner()
  // to the plan's solver tolerance (a sweep's reference series, the line its chart draws).
  WorkProvider<FittedModel> allData;
};

// A baseline trained by an earlier run with the same learner and solver on the same prepared
// data (PlanRun::reusableBaseline()), lent as RunReuse::baseline: taken instead of trained
// again. `baseline` must outlive the run.
WorkProvider<FittedModel> lentBaseline(const FittedModel& baseline);

struct RunControl {
  Progress progress;
  RunReuse reuse;
  // Train the non-private baseline beside a training mechanism's release, and subsample-and-
  // aggregate's all-rows model beside its teachers: the GUI shows them for comparison; the
  // CLI reports the release alone and skips them (PlanRun::baseline stays empty).
  bool trainBaseline = true;
  // Measure the diagnostics of every model: accuracies on the training rows, and θ*'s
  // accuracies (prediction sensitivity). A sweep measures test accuracy alone and turns them
  // off, since each costs passes over the rows in every trial: a run then measures the test
  // accuracy of its release and of a baseline it trains (train accuracies stay 0).
  bool diagnostics = true;
  // Experiments only (a sweep's trials, sweep.h "Reuse"; a release noise source is refused):
  // a training mechanism that startsFromBaseline() solves its perturbed problem from the
  // baseline (mech::trainPrivatelyFromSolution) — output perturbation from the baseline
  // polished to its τ (RunReuse::exactStart) when startsFromExactMinimizer() — instead of
  // from zero. The baseline is then taken or trained whatever trainBaseline says.
  bool experimentWarmStart = false;
  // Multiparty through the Paillier protocol: called with the protocol's transcript (JSON)
  // when it aborted, so that what was sent before the abort can still be read.
  std::function<void(const std::string& transcriptJson)> abortedTranscript;
};

// RunControl::experimentWarmStart: whether a run of `mechanism` starts from the baseline
// (the mechanisms the catalogue marks startsFromBaseline; never private λ tuning, which
// trains other problems on other rows), and whether from the baseline polished to output
// perturbation's τ (output perturbation, but not LMGC's, which minimizes another objective,
// λ₂‖Φ‖²: the baseline is only a start there).
bool startsFromBaseline(const TrainingMechanism& mechanism);
bool startsFromExactMinimizer(const TrainingMechanism& mechanism);

// Runs `plan` on `data`. Errors are values; cancellation (control.progress's stop token) is
// ErrorKind::Cancelled.
Result<PlanRun> runPlan(const PrivacyPlan& plan, const RunData& data, privacy::NoiseSource& noise,
                        const RunControl& control = {});
// The same on a PreparedData's training and test parts.
Result<PlanRun> runPlan(const PrivacyPlan& plan, const PreparedData& data, privacy::NoiseSource& noise,
                        const RunControl& control = {});

// The accuracy of θ on `data` (none without rows).
std::optional<double> accuracyOn(const TrainedModel& model, const Eigen::VectorXd& theta, const Dataset& data);

// progress mapped onto [from, to] of a caller's bar.
Progress progressSegment(const Progress& progress, double from, double to);

}  // namespace dpstudio::experiment

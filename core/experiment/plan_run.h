#pragma once
// Runs a PrivacyPlan on prepared data: the one runner behind the GUI's Train, `dpstudio-cli
// train` and every trial of a sweep. Plain values in and out, safe on a pool thread.
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
// Noise comes from the caller's source in a fixed order (experiment mode replays it).

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/sources/prepare.h"
#include "core/experiment/privacy_plan.h"
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

struct RunControl {
  Progress progress;
  // A baseline trained by another run with the same learner and solver on the same prepared
  // data (PlanRun::reusableBaseline()): taken instead of trained again.
  const FittedModel* reuseBaseline = nullptr;
  // Train the non-private baseline beside a training mechanism's release, and subsample-and-
  // aggregate's all-rows model beside its teachers: the GUI shows them for comparison; the
  // CLI reports the release alone and skips them (PlanRun::baseline stays empty).
  bool trainBaseline = true;
  // Multiparty through the Paillier protocol: called with the protocol's transcript (JSON)
  // when it aborted, so that what was sent before the abort can still be read.
  std::function<void(const std::string& transcriptJson)> abortedTranscript;
};

Result<PlanRun> runPlan(const PrivacyPlan& plan, const PreparedData& data, privacy::NoiseSource& noise,
                        const RunControl& control = {});

// The accuracy of θ on `data` (none without rows).
std::optional<double> accuracyOn(const TrainedModel& model, const Eigen::VectorXd& theta, const Dataset& data);

// progress mapped onto [from, to] of a caller's bar.
Progress progressSegment(const Progress& progress, double from, double to);

}  // namespace dpstudio::experiment

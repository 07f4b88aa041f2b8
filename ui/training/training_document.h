#pragma once
// The trained model the window is showing, and its 2-D view: the document the Training dock
// and the decision view subscribe to (Tiled's document pattern, like DatasetDocument). It
// owns no threads and computes nothing; TrainingController fills it with values computed
// off the GUI thread, as immutable shared values that workers may keep reading.
//
// Signals are past tense: modelChanged() after a model was published or cleared (with its
// view), viewChanged() after only the view of the same model changed.
//
// A private training keeps two models: the non-private baseline (`model`, trained with the
// same settings, or reused from the last training of the same settings) and the private
// release (`release`). The baseline is the reference the release is judged against; it is
// shown for comparison and never leaves the session. A private predictor (§3 F, G) releases
// nothing when trained: the document then also holds the answers it has given
// (prediction_answers.h), and answersChanged() follows each batch of them.

#include <QObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "core/sources/prepare.h"
#include "core/experiment/plan_choice.h"
#include "core/experiment/plan_run.h"
#include "core/learn/learner.h"
#include "core/learn/model_view.h"
#include "core/mechanisms/mechanism.h"
#include "core/prediction/multiparty_options.h"
#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::ui {

// The model's name for people: "Logistic regression", "Huber SVM", "Softmax regression", "LMGC".
QString modelDisplayName(ModelKind kind);
// "RBF kernel: D = 200 random Fourier features, γ = 1, seed 1", for the Result group and the
// decision view's notes.
QString featureMapDisplayName(const RandomFeaturesSpec& spec);

// How a training is made private; what the Mechanism part of the form produces. At most one
// of options.kind (a private training mechanism, §3 A–E), prediction (a private predictor,
// §3 F, G) and multiparty (§3 I) is set.
struct PrivacySettings {
  mech::MechanismOptions options;   // kind None: no training mechanism; options.learner is
                                    // unused (TrainingSettings::learner is the one)
  std::vector<double> tuneLambdas;  // not empty: choose λ privately among these (§3 H)
  // §3 F, G: nothing is released by training; each answer of the predictor is. Its learner
  // is TrainingSettings::learner.
  std::optional<predict::PredictionOptions> prediction;
  // §3 I: the perturbed average of K parties' models. Its model, λ (paper 004's, of
  // λ‖w‖²) and h are TrainingSettings::learner's.
  std::optional<multiparty::MultipartyOptions> multiparty;
  // §3 K, the key "auto": the mechanism and λ chosen by core (the public rule, or privately
  // among all with `tune`); options give ε, δ and DP-SGD's settings, options.kind is None.
  std::optional<mech::SelectionSettings> selection;
  privacy::NoiseKind noise = privacy::NoiseKind::Release;  // a trained model is a release
  std::uint64_t seed = 1;           // experiment mode only

  bool isPrivate() const {
    return options.kind != mech::MechanismKind::None || prediction.has_value() || multiparty.has_value() ||
           selection.has_value();
  }
  bool operator==(const PrivacySettings&) const = default;
};

// The mechanism's name for people, whichever kind it is: "Output perturbation", "Prediction
// sensitivity", "Subsample-and-aggregate", "Multiparty aggregation", … ("None" without one).
QString privacyDisplayName(const PrivacySettings& privacy);

// Everything Train needs besides the dataset; what the Training dock's form produces.
struct TrainingSettings {
  LearnerSpec learner;
  double tolerance = 1e-8;  // the optimizer's relative gradient tolerance (as dpstudio-cli)
  int maxIterations = 3000;
  SplitAndPreprocess data;  // test fraction, split seed, preprocessing
  PrivacySettings privacy;

  // The mechanism's options with this learner.
  mech::MechanismOptions mechanismOptions() const;
  // privacy.prediction / privacy.multiparty with this learner (their model, λ and h).
  predict::PredictionOptions predictionOptions() const;
  multiparty::MultipartyOptions multipartyOptions() const;
  // The privacy choice as core's plan builder takes it (core/experiment/plan_choice.h), and
  // the plan it builds, with this learner and solver.
  experiment::PlanChoice choice() const;
  experiment::PrivacyPlan plan() const;
  bool operator==(const TrainingSettings&) const = default;
};

// Whether two settings train the same non-private model on the same data (everything but
// the privacy settings agrees), so that a private run can reuse the other's baseline.
bool sameBaseline(const TrainingSettings& a, const TrainingSettings& b);

// Whether b trains what a was trained with, up to the noise (the experiment seed): Redraw
// noise may then repeat a's settings, and a result of a is not stale under b.
bool sameSettingsButNoise(const TrainingSettings& a, const TrainingSettings& b);
// What differs between the settings a result was trained with and the form's, for people:
// "ε 1 → 50", "mechanism Output perturbation → Objective perturbation"; "other settings"
// when only something else differs; empty when nothing does.
// WhatTheResultDependsOn (the stale mark): nothing when sameSettingsButNoise(). Everything
// (restored settings against the defaults): also the form's ε and δ under no mechanism.
enum class SettingsScope { WhatTheResultDependsOn, Everything };
QStringList settingsChanges(const TrainingSettings& shown, const TrainingSettings& now,
                            SettingsScope scope = SettingsScope::WhatTheResultDependsOn);

// The mechanism's name for people: "Output perturbation", "DP-LMGC", …
QString mechanismDisplayName(mech::MechanismKind kind);

// What a run released and computed beside it: core's experiment layer (plan_run.h) defines
// them; the document holds them as they came.
using PrivateRelease = experiment::ModelRelease;
using PredictionRelease = experiment::PredictorRelease;
using MultipartyDiagnostics = experiment::MultipartyDiagnostics;

// One trained model with what it was trained on and how well it did; for a private run,
// the private release beside it.
struct TrainingResult {
  std::shared_ptr<const Dataset> source;  // the document's dataset it was trained on
  std::shared_ptr<const Dataset> testSource;  // its separate test file, or empty (a split)
  QString datasetName;
  TrainingSettings settings;
  // The training and test parts as the model saw them (preprocessed); shared, so that a
  // redraw of the noise reuses them without copying the data.
  std::shared_ptr<const PreparedData> data;
  // The non-private model: the baseline of a private run. Prediction sensitivity: the θ* its
  // predictor answers from; subsample-and-aggregate: the model trained on all rows (the
  // teachers are in `prediction`); multiparty: the all-data minimizer w* of paper 004's
  // objective. Only a result of a training mechanism (or none) lends it to the next run
  // (hasStandardBaseline()).
  TrainedModel model;
  double trainAccuracy = 0;
  std::optional<double> testAccuracy;  // none without a test part
  double seconds = 0;                  // wall-clock time of the optimization
  std::optional<PrivateRelease> release;  // a private training or multiparty run
  std::optional<PredictionRelease> prediction;  // a private predictor (§3 F, G)
  std::optional<MultipartyDiagnostics> multiparty;  // §3 I, beside `release`
  // DP-SGD: the same settings' test accuracy without noise (sgd_convergence.h), measured on
  // the data, NOT private; none for other plans or without a test part.
  std::optional<double> noiseFreeSgdAccuracy;

  bool isPrivate() const { return release.has_value() || prediction.has_value(); }
  bool isPrediction() const { return prediction.has_value(); }
  // `model` was trained with settings.learner as a baseline run trains it, so another run of
  // the same baseline settings may take it (sameBaseline()).
  bool hasStandardBaseline() const { return !prediction && !multiparty; }
  // The model the decision view fills its regions with: the release when there is one.
  const TrainedModel& shownModel() const { return release ? release->model : model; }
};

class PredictionAnswers;

// The model's picture in the dataset dock's 2-D view.
struct ModelView {
  ViewSpec spec;
  ModelViewGeometry geometry;  // of shownModel(): the private model's ellipses in a private run
  // A private run: the non-private model's ellipses on the same plane (LMGC only).
  std::vector<ViewEllipse> referenceEllipses;
};

class TrainingDocument : public QObject {
  Q_OBJECT

 public:
  explicit TrainingDocument(QObject* parent = nullptr);

  bool hasModel() const { return static_cast<bool>(result_); }
  const std::shared_ptr<const TrainingResult>& result() const { return result_; }
  // The answers the shown private predictor has given (§3 F, G); empty for other models.
  // GUI thread only: the TrainingController answers through it and then calls
  // noteAnswered().
  const std::shared_ptr<PredictionAnswers>& answers() const { return answers_; }
  // Empty while no view could be computed for the model (the reason went to viewFailed).
  const std::shared_ptr<const ModelView>& view() const { return view_; }
  // Whether the model shown was trained on exactly this dataset (not an older one).
  bool isModelOf(const std::shared_ptr<const Dataset>& dataset) const {
    return result_ && dataset && result_->source == dataset;
  }

  void setModel(std::shared_ptr<const TrainingResult> result, std::shared_ptr<const ModelView> view,
                std::shared_ptr<PredictionAnswers> answers = {});
  void setView(std::shared_ptr<const ModelView> view);
  void clear();  // no model; emits modelChanged() if there was one
  void noteAnswered();  // emits answersChanged()
  // Draw N: private models of the shown result's settings, fresh noise each (an experiment,
  // not released, not in the ledger), drawn faintly in the decision view. A new model
  // clears them. Empty: none.
  const std::shared_ptr<const std::vector<TrainedModel>>& spread() const { return spread_; }
  void setSpread(std::shared_ptr<const std::vector<TrainedModel>> spread);

 signals:
  void spreadChanged();
  void modelChanged();
  void viewChanged();
  void answersChanged();  // the private predictor shown gave answers

 private:
  std::shared_ptr<const TrainingResult> result_;
  std::shared_ptr<const ModelView> view_;
  std::shared_ptr<PredictionAnswers> answers_;
  std::shared_ptr<const std::vector<TrainedModel>> spread_;
};

}  // namespace dpstudio::ui

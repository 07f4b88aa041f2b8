#pragma once
// F. Prediction sensitivity (docs/algorithms.md §3 F; paper 003 §3.2, Alg. 6/7).
//
// A PrivatePredictor wraps the exact minimizer θ* of J(θ) = (1/n)Σℓ + (λ/2)‖θ‖² (trained
// non-privately, to the gradient tolerance τ fixed in advance: core/mechanisms/exact_minimizer.h)
// and answers queries x with ‖x‖ ≤ 1 by releasing the noisy scores θ*ᵀx + b and their argmax.
// The scores move by at most Δ = (2K/(nλ))·(1 + 1e-4) under substitution of one training
// example (the 1e-4 covers the distance τ allows), so b ~ ℓ2-Laplace(
// (ε/B)/Δ, m) makes each answer (ε/B)-DP (basic composition over B answers), or b ~ N(0, σ²I)
// with the per-answer (ε*, δ*) of basic or advanced composition, whichever needs less noise.
// m = 1 for a binary model (the one score wᵀx), C otherwise (prediction_options.h).
//
// Budget: at most B answers (answer_budget.h); copies share the count. A refused answer
// draws no noise. Ledger: when given one, the first answer records the whole (ε, δ) of the
// budget — the guarantee is stated for the B answers together, and the first answer commits
// to it — with a note naming the budget.
//
// Thread-safety: answering from several threads is safe if each uses its own NoiseSource;
// everything else is immutable after construction.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/prediction/answer_budget.h"
#include "core/prediction/prediction_options.h"
#include "core/privacy/ledger.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::predict {

struct PredictionAnswer {
  Eigen::VectorXd scores;  // released: the noisy scores (m coordinates; release mode: rounded)
  Index label = 0;         // released: argmax of the noisy scores (binary: 1 iff score > 0)
  long long number = 0;    // 1-based position of this answer in the budget
  // The scale the noise was drawn at (β or σ): the calibrated one, enlarged by F in release
  // mode (release_granularity.h). Public, like the calibration.
  double noiseScale = 0;
  // ‖b‖: a diagnostic for experiments, NOT part of the release. None with release noise:
  // beside the released scores it would locate the noise-free ones (issue 12 item 3).
  std::optional<double> noiseNorm;
};

class PrivatePredictor {
 public:
  // Trains θ* on rows with ‖x‖ ≤ 1 (else an error asking for a public norm bound), checks the
  // exact-minimizer condition and calibrates. options.kind must be Sensitivity. No noise is
  // drawn here: noise is per answer.
  static Result<PrivatePredictor> train(const PredictionOptions& options, const Dataset& train,
                                        const TrainControl& control = {});

  // A predictor from its saved state (predictor_json.h, a bundle). The calibration is
  // recomputed from (options, n, d, C), never read back; `used` answers are counted as given;
  // `budgetId` names its budget when it has a name already (a bundle's inference.budget_id),
  // 0 for a new one.
  static Result<PrivatePredictor> restore(const PredictionOptions& options, Index trainRows, Index features,
                                          Index classes, Eigen::VectorXd theta, long long used,
                                          std::string dataset = {}, std::uint64_t budgetId = 0);

  // One answer, or an error: a query of the wrong length or with ‖x‖ > 1 (apply the training
  // preprocessing), or the budget spent. Noise from `noise`; release mode rounds the scores.
  Result<PredictionAnswer> answer(const Eigen::VectorXd& x, privacy::NoiseSource& noise,
                                  privacy::PrivacyLedger* ledger = nullptr);
  // One answer per row of X, all or nothing: checks every row and reserves the whole batch
  // before drawing any noise.
  Result<std::vector<PredictionAnswer>> answerRows(const Eigen::MatrixXd& X, privacy::NoiseSource& noise,
                                                   privacy::PrivacyLedger* ledger = nullptr);

  // The same trained model and calibration with its own, unused budget. For experiments that
  // repeat the whole mechanism (sweeps, the audit): each repetition is a new release that
  // costs (ε, δ) again, and whoever repeats must account for it.
  PrivatePredictor freshRepetition() const;

  const PredictionOptions& options() const { return core_->options; }
  const mech::MechanismReport& report() const { return core_->report; }  // the calibration
  Index trainRows() const { return core_->trainRows; }
  Index features() const { return core_->model->inputDim(); }
  Index classes() const { return core_->model->classes(); }
  const std::string& dataset() const { return core_->dataset; }
  long long budget() const { return budget_.budget(); }
  long long used() const { return budget_.used(); }
  long long remaining() const { return budget_.remaining(); }
  std::uint64_t budgetId() const { return budget_.id(); }  // names the budget in ledgers and bundles
  // Appended to the note of the ledger entries this object's answers record, e.g. the bundle
  // that answers and the rows it answers (copies made afterwards keep it).
  void setLedgerNote(std::string note) { ledgerNote_ = std::move(note); }

  // NOT private: the trained parameters and the noise-free scores (m coordinates), for tests,
  // the audit and the decision view's labelled-non-private image.
  const Model& model() const { return *core_->model; }
  const Eigen::VectorXd& theta() const { return core_->theta; }
  Eigen::VectorXd noiseFreeScores(const Eigen::VectorXd& x) const;

 private:
  struct Core {
    PredictionOptions options;
    std::shared_ptr<const Model> model;
    Eigen::VectorXd theta;
    mech::MechanismReport report;
    Index trainRows = 0;
    std::string dataset;
  };
  PrivatePredictor(std::shared_ptr<const Core> core, AnswerBudget budget)
      : core_(std::move(core)), budget_(std::move(budget)) {}
  Status checkQuery(const Eigen::Ref<const Eigen::VectorXd>& x, Index row) const;
  privacy::LedgerEntry openingEntry() const;  // the ledger entry its first answer records
  Result<PredictionAnswer> draw(const Eigen::Ref<const Eigen::VectorXd>& x, long long number,
                                privacy::NoiseSource& noise) const;

  std::shared_ptr<const Core> core_;
  AnswerBudget budget_;
  std::string ledgerNote_;
};

// The released label for a score vector: argmax; a single score (binary) gives 1 iff > 0.
Index labelOfScores(const Eigen::VectorXd& scores);

}  // namespace dpstudio::predict

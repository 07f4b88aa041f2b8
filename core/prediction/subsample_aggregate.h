#pragma once
// G. Subsample-and-aggregate (docs/algorithms.md §3 G; paper 003 §3.2, Alg. 8; Dwork & Feldman 2018).
//
// The training rows are cut by a seeded, data-independent partition into T disjoint parts of
// ⌊n/T⌋ rows; T teachers are trained non-privately (any learner) on their parts; a query x
// is answered with label y with probability ∝ exp(β·votes_y(x)), votes_y = the number of
// teachers predicting y. One substituted example lies in at most one part, so it changes at
// most one teacher and moves one vote from one class to another: each answer is 2β-DP
// (docs/algorithms.md §1.3). Corrected: β = ε*/2 with ε* the per-answer budget; as published: β = ε/B
// (or Thm 8 for δ > 0), which is only (2ε)-DP — its report says so (prediction_options.h).
//
// Queries need no norm bound (the teachers are black boxes to the proof). Budget, copies and
// the ledger behave as for PrivatePredictor (answer_budget.h): copies share the count and the
// (immutable) teachers. Training the teachers is parallel, deterministic for any thread count
// and cancellable (part_training.h).

#include <memory>
#include <string>
#include <vector>

#include "core/prediction/answer_budget.h"
#include "core/prediction/prediction_options.h"
#include "core/privacy/ledger.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::predict {

// The T non-private teachers (NOT private: never released, only their noisy vote is).
struct TeacherEnsemble {
  std::shared_ptr<const Model> model;  // one model shape shared by every teacher
  std::vector<Eigen::VectorXd> thetas; // T parameter vectors
  Index partRows = 0;                  // ⌊n/T⌋
  Index trainRows = 0;                 // n
  std::string dataset;                 // provenance of the training data

  Index teachers() const { return static_cast<Index>(thetas.size()); }
  // Vote counts, one row per query row of X (rows × C); each row sums to T.
  Eigen::MatrixXi votes(const Eigen::MatrixXd& X) const;
};

// Trains the ensemble of options.teachers models on `train` (partition seeded by
// options.partitionSeed). Progress 0 → 1 as teachers finish; cancellation → Cancelled.
Result<std::shared_ptr<const TeacherEnsemble>> trainTeachers(const PredictionOptions& options, const Dataset& train,
                                                             const TrainControl& control = {});

struct VoteAnswer {
  Index label = 0;       // released
  long long number = 0;  // 1-based position of this answer in the budget
};

class SubsampleAggregate {
 public:
  // Trains the teachers and calibrates β (options.kind must be Subsample).
  static Result<SubsampleAggregate> train(const PredictionOptions& options, const Dataset& train,
                                          const TrainControl& control = {});
  // From trained teachers (or a saved state): recalibrates from (options, n, d, C).
  // `budgetId` as PrivatePredictor::restore's.
  static Result<SubsampleAggregate> restore(const PredictionOptions& options,
                                            std::shared_ptr<const TeacherEnsemble> teachers, long long used,
                                            std::uint64_t budgetId = 0);

  Result<VoteAnswer> answer(const Eigen::VectorXd& x, privacy::NoiseSource& noise,
                            privacy::PrivacyLedger* ledger = nullptr);
  // All or nothing, like PrivatePredictor::answerRows.
  Result<std::vector<VoteAnswer>> answerRows(const Eigen::MatrixXd& X, privacy::NoiseSource& noise,
                                             privacy::PrivacyLedger* ledger = nullptr);

  // Same teachers and calibration, own unused budget (see PrivatePredictor::freshRepetition).
  SubsampleAggregate freshRepetition() const;

  const PredictionOptions& options() const { return core_->options; }
  const mech::MechanismReport& report() const { return core_->report; }
  double beta() const { return core_->report.noiseScale(); }
  const TeacherEnsemble& teachers() const { return *core_->teachers; }
  std::shared_ptr<const TeacherEnsemble> sharedTeachers() const { return core_->teachers; }
  long long budget() const { return budget_.budget(); }
  long long used() const { return budget_.used(); }
  long long remaining() const { return budget_.remaining(); }
  std::uint64_t budgetId() const { return budget_.id(); }  // names the budget in ledgers and bundles
  // As PrivatePredictor::setLedgerNote.
  void setLedgerNote(std::string note) { ledgerNote_ = std::move(note); }

 private:
  struct Core {
    PredictionOptions options;
    std::shared_ptr<const TeacherEnsemble> teachers;
    mech::MechanismReport report;
  };
  SubsampleAggregate(std::shared_ptr<const Core> core, AnswerBudget budget)
      : core_(std::move(core)), budget_(std::move(budget)) {}
  Status checkQueries(const Eigen::MatrixXd& X) const;
  privacy::LedgerEntry openingEntry() const;  // the ledger entry its first answer records

  std::shared_ptr<const Core> core_;
  AnswerBudget budget_;
  std::string ledgerNote_;
};

}  // namespace dpstudio::predict

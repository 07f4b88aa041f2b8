#pragma once
// The inference budget of a private predictor (docs/algorithms.md §3 F, G): at most B answers, the
// count of answers given is part of the predictor's state, and answer B+1 is refused.
//
// Copies SHARE the count: a copy of a predictor is the same release, so answering through
// either spends the one budget (a copy must not be a way to get 2B answers). Serialization
// (predictor_json.h) writes the count, and a predictor read back continues from it — with a
// count of its own: two copies of one file each continue from it, and only a ledger adds
// such copies up (by the budget's id; privacy::InferenceBudgetUse).
// Thread-safe: reservations are atomic, so concurrent answers never overspend.

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/util/result.h"

namespace dpstudio::predict {

// A new budget id: 64 random bits from the OS, never 0 (see AnswerBudget::id()).
std::uint64_t newBudgetId();

class AnswerBudget {
 public:
  // budget ≥ 1, 0 ≤ used ≤ budget (checked by the predictors' factories with checkUsed);
  // id: the budget's id when it has one already (a bundle's inference.budget_id), 0 for a
  // new budget (newBudgetId()).
  explicit AnswerBudget(long long budget, long long used = 0, std::uint64_t id = 0);

  // A saved count of answers read back: BadBundle (field "used") unless 0 ≤ used ≤ budget.
  static Status checkUsed(long long budget, long long used);

  long long budget() const { return state_->budget; }
  long long used() const { return state_->used.load(); }
  long long remaining() const { return budget() - used(); }
  // Names this budget in the ledger (privacy::InferenceBudgetUse) and in a bundle
  // (inference.budget_id): 64 random bits, never 0, so unique across processes and
  // sessions; shared by copies.
  std::uint64_t id() const { return state_->id; }

  // Reserves `count` ≥ 1 answers at once, or none: returns how many had been given before
  // (so the first reserved answer is number result+1), or an ErrorKind::InvalidPrivacy error
  // (field "budget") when fewer than `count` remain: "inference budget spent: …".
  Result<long long> reserve(long long count);
  // Gives back `count` answers reserved by reserve() and then NOT given (the ledger refused to
  // record them, before any noise was drawn).
  void release(long long count);

 private:
  struct State {
    std::uint64_t id = 0;
    long long budget = 0;
    std::atomic<long long> used{0};
  };
  std::shared_ptr<State> state_;
};

}  // namespace dpstudio::predict

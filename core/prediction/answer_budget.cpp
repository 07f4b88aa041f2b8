#include "core/prediction/answer_budget.h"

#include <random>
#include <string>

namespace dpstudio::predict {

// 64 bits from the OS: the id outlives the process (the ledger file, a bundle's
// inference.budget_id), so a per-process counter would name two budgets alike.
std::uint64_t newBudgetId() {
  std::random_device os;
  std::uint64_t id = 0;
  while (id == 0) id = (static_cast<std::uint64_t>(os()) << 32) ^ static_cast<std::uint64_t>(os());
  return id;
}

AnswerBudget::AnswerBudget(long long budget, long long used, std::uint64_t id) : state_(std::make_shared<State>()) {
  state_->id = id != 0 ? id : newBudgetId();
  state_->budget = budget;
  state_->used.store(used);
}

Status AnswerBudget::checkUsed(long long budget, long long used) {
  if (used >= 0 && used <= budget) return Ok{};
  return Error{ErrorKind::BadBundle,
               "answers used must be in [0, budget], found " + std::to_string(used) + " of " + std::to_string(budget),
               {}, 0, "used"};
}

Result<long long> AnswerBudget::reserve(long long count) {
  if (count < 1) return Error{ErrorKind::Usage, "an answer batch must hold at least one query", {}, 0, "queries"};
  long long before = state_->used.load();
  do {
    if (before + count > state_->budget) {
      const std::string refused = count == 1 ? "answer " + std::to_string(before + 1)
                                             : std::to_string(count) + " more answers";
      return Error{ErrorKind::InvalidPrivacy,
                   "inference budget spent: this predictor may give " + std::to_string(state_->budget) +
                       " answers under its privacy guarantee and has given " + std::to_string(before) + "; " +
                       refused + " refused",
                   {}, 0, "budget"};
    }
  } while (!state_->used.compare_exchange_weak(before, before + count));
  return before;
}

void AnswerBudget::release(long long count) { state_->used.fetch_sub(count); }

}  // namespace dpstudio::predict

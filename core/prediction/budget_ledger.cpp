#include "core/prediction/budget_ledger.h"

namespace dpstudio::predict {

Status recordAnswers(privacy::PrivacyLedger* ledger, AnswerBudget& budget, long long before, long long count,
                     const std::function<privacy::LedgerEntry()>& opening) {
  if (ledger == nullptr) return Ok{};
  privacy::LedgerEntry entry = opening();
  // `before` counts only if this entry opens the budget in the ledger (ledger.h).
  entry.inferenceBudget = privacy::InferenceBudgetUse{budget.id(), budget.budget(), count, before, true};
  auto recorded = ledger->record(std::move(entry));
  if (!recorded) {
    budget.release(count);
    return recorded.error();
  }
  return Ok{};
}

}  // namespace dpstudio::predict

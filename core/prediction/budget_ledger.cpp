#include "core/prediction/budget_ledger.h"

namespace dpstudio::predict {

Status recordAnswers(privacy::PrivacyLedger* ledger, const AnswerBudget& budget, long long before,
                     const std::function<privacy::LedgerEntry()>& opening) {
  if (ledger == nullptr) return Ok{};
  if (before != 0) {
    ledger->recordAnswersGiven(budget.id(), budget.used());
    return Ok{};
  }
  privacy::LedgerEntry entry = opening();
  // The count as of now: answers reserved concurrently before this entry existed are in it.
  entry.inferenceBudget = privacy::InferenceBudgetUse{budget.id(), budget.budget(), budget.used()};
  auto recorded = ledger->record(std::move(entry));
  if (!recorded) return recorded.error();
  return Ok{};
}

}  // namespace dpstudio::predict

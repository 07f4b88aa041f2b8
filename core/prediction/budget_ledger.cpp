#include "core/prediction/budget_ledger.h"

namespace dpstudio::predict {

Status recordAnswers(privacy::PrivacyLedger* ledger, const AnswerBudget& budget, long long /*before*/,
                     const std::function<privacy::LedgerEntry()>& opening) {
  if (ledger == nullptr) return Ok{};
  privacy::LedgerEntry entry = opening();
  // The count as of now: answers reserved concurrently are in it. The ledger opens the
  // budget with this entry, or raises the count of the entry it already holds for it.
  entry.inferenceBudget = privacy::InferenceBudgetUse{budget.id(), budget.budget(), budget.used()};
  auto recorded = ledger->record(std::move(entry));
  if (!recorded) return recorded.error();
  return Ok{};
}

}  // namespace dpstudio::predict

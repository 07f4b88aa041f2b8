#pragma once
// The ledger side of an inference budget, shared by both private predictors (F and G): the
// first answer records the entry with the whole (ε, δ) of the B answers — the guarantee is
// stated for the B answers together, and the first answer commits to it — and every later
// answer updates how many have been given (privacy::InferenceBudgetUse).

#include <functional>

#include "core/prediction/answer_budget.h"
#include "core/privacy/ledger.h"

namespace dpstudio::predict {

// Call after budget.reserve() returned `before`. `opening` makes the entry (mechanism, ε, δ,
// dataset, note) and is called only for the first answer; the budget fields are filled here.
// No-op without a ledger.
Status recordAnswers(privacy::PrivacyLedger* ledger, const AnswerBudget& budget, long long before,
                     const std::function<privacy::LedgerEntry()>& opening);

}  // namespace dpstudio::predict

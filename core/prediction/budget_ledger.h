#pragma once
// The ledger side of an inference budget, shared by both private predictors (F and G): the
// first answer records the entry with the whole (ε, δ) of the B answers — the guarantee is
// stated for the B answers together, and the first answer commits to it — and every later
// answer updates how many have been given (privacy::InferenceBudgetUse).
//
// "First" is as the ledger sees it: a budget that has given answers elsewhere (a bundle
// read back, answered before in another process) is opened at the first answer given in
// front of this ledger, with its count as it then is; the ledger file merges it with the
// entry of the same budget if it holds one (ledger_file.h).

#include <functional>

#include "core/prediction/answer_budget.h"
#include "core/privacy/ledger.h"

namespace dpstudio::predict {

// Call after budget.reserve() returned `before`. `opening` makes the entry (mechanism, ε, δ,
// dataset, note); the budget fields are filled here. No-op without a ledger. The ledger's
// error (its keeper could not write the ledger file) is returned: the answers must then
// not be shown. `before` no longer decides anything — whether the budget opens here is the
// ledger's to say (see above) — and stays only so that the predictors' calls keep their form.
Status recordAnswers(privacy::PrivacyLedger* ledger, const AnswerBudget& budget, long long before,
                     const std::function<privacy::LedgerEntry()>& opening);

}  // namespace dpstudio::predict

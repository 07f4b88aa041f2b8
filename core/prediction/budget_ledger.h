#pragma once
// The ledger side of an inference budget, shared by both private predictors (F and G): a
// batch of answers is recorded BEFORE its noise is drawn, as an entry of the budget — the
// first of the budget in a ledger holds the whole (ε, δ) of the B answers (the guarantee is
// stated for the B answers together, and the first answer commits to it); every session's
// later answers add to its count (privacy::InferenceBudgetUse). The ledger refuses answers
// that would carry its count of the budget — every session, every copy of a bundle — past B.
//
// "First" is as the ledger sees it: a budget that has given answers elsewhere (a bundle
// read back, answered before in another process) is opened at the first answer given in
// front of this ledger, with the answers given before counted; a ledger file that has opened
// it already counts only this session's answers (ledger_totals.h, mergeLedgerEntry).

#include <functional>

#include "core/prediction/answer_budget.h"
#include "core/privacy/ledger.h"

namespace dpstudio::predict {

// Call after budget.reserve(count) returned `before`. `opening` makes the entry (mechanism,
// ε, δ, dataset, note); the budget fields are filled here. No-op without a ledger. The
// ledger's error (the budget spent in the ledger, or its keeper could not write the ledger
// file) is returned, and the `count` reserved answers are released: they must not be drawn.
Status recordAnswers(privacy::PrivacyLedger* ledger, AnswerBudget& budget, long long before, long long count,
                     const std::function<privacy::LedgerEntry()>& opening);

}  // namespace dpstudio::predict

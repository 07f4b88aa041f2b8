#pragma once
// The audit's adversary for subsample-and-aggregate on the user's own data (docs/algorithms.md §3 J
// (a)): the query and canary that move the answer distribution most that N runs can see.
//
// The teachers are trained on D with the predictor's own partition. Among up to 2 000 of D's
// rows as candidate queries, those whose vote, with one teacher turned from the leading
// class to the runner-up, N runs could tell apart best (certifiableEpsilon) come first; for each, a teacher
// voting for the leading class gets one of its rows replaced by a canary x = c·q (c = 1, 4,
// 16, 64, 256: the teachers are black boxes to the proof, so no norm bound applies) with the
// runner-up's label, the first that turns that teacher's vote at q. Refuses (BadData) when
// no candidate can be turned.

#include "core/audit/audit.h"

namespace dpstudio::audit {

Result<AuditProblem> voteCanaryFromData(const AuditOptions& options, const Dataset& D);

}  // namespace dpstudio::audit

#pragma once
// What a guarantee means for one person (core/privacy/tradeoff.h, exact_privacy.h;
// docs/algorithms.md §1.6), as `calibrate` and `accountant` print it: the sentence about an
// attacker's belief, the corners of the trade-off the (ε, δ) allows, and — where the
// mechanism's privacy loss is known exactly — its tighter trade-off curve.

#include <QJsonObject>
#include <QStringList>

#include <optional>

#include "core/privacy/exact_privacy.h"

namespace dpstudio::cli {

struct Guarantee {
  double epsilon = 0;
  double delta = 0;
  bool holds = true;  // false: as published without an ε that holds
  std::optional<privacy::ExactPrivacy> exact;
};

// {"sentence", "trade_off_corners", "posterior", …, "exact_trade_off": {"kind", "mu"?,
// "points"}} (or "exact_trade_off_error" where the accountant cannot compute it).
Result<QJsonObject> meaningJson(const Guarantee& guarantee);
// The "meaning  …" line, and an "exact    …" line where the exact curve is known.
Result<QStringList> meaningLines(const Guarantee& guarantee);

}  // namespace dpstudio::cli

#include "app/cli/meaning_output.h"

#include <QJsonArray>

#include "core/privacy/tradeoff.h"

namespace dpstudio::cli {
namespace {

constexpr int kExactPoints = 21;  // α = 0, 0.05, …, 1
constexpr int kReadAt = 1;        // α = 5 %: where the text compares the exact curve with the claim

QJsonObject pointJson(const privacy::TradeOffPoint& p) {
  return QJsonObject{{"false_positive", p.falsePositive}, {"min_false_negative", p.falseNegative}};
}

QString percent(double value) { return QString::number(100.0 * value, 'f', 1) + " %"; }

}  // namespace

Result<QJsonObject> meaningJson(const Guarantee& g) {
  if (!g.holds) return QJsonObject{{"sentence", QString::fromLatin1(privacy::kNoGuaranteeMeaning)}};
  auto meaning = privacy::meaningOf(g.epsilon, g.delta);
  if (!meaning) return meaning.error();
  QJsonArray corners, posteriors;
  for (const privacy::TradeOffPoint& p : meaning.value().tradeOff) corners.append(pointJson(p));
  for (const auto& p : meaning.value().posteriors) posteriors.append(QJsonObject{{"prior", p.prior}, {"at_most", p.atMost}});
  QJsonObject out{{"trade_off_corners", corners},
                  {"posterior", posteriors},
                  {"sentence", QString::fromStdString(meaning.value().sentence)}};
  if (meaning.value().testFalsePositive > 0) out["posterior_test_false_positive"] = meaning.value().testFalsePositive;
  if (!g.exact) return out;
  auto curve = privacy::exactTradeOffCurve(*g.exact, kExactPoints);
  if (!curve) {
    out["exact_trade_off_error"] = QString::fromStdString(curve.error().message);
    return out;
  }
  if (!curve.value()) return out;
  QJsonArray points;
  for (const privacy::TradeOffPoint& p : *curve.value()) points.append(pointJson(p));
  QJsonObject exact{{"kind", g.exact->gaussianMu ? "gaussian-dp" : "pld"}, {"points", points}};
  if (g.exact->gaussianMu) exact["mu"] = *g.exact->gaussianMu;
  out["exact_trade_off"] = exact;
  return out;
}

Result<QStringList> meaningLines(const Guarantee& g) {
  if (!g.holds) return QStringList{"meaning  " + QString::fromLatin1(privacy::kNoGuaranteeMeaning)};
  auto meaning = privacy::meaningOf(g.epsilon, g.delta);
  if (!meaning) return meaning.error();
  QStringList lines{"meaning  " + QString::fromStdString(meaning.value().sentence)};
  if (!g.exact) return lines;
  auto curve = privacy::exactTradeOffCurve(*g.exact, kExactPoints);
  if (!curve || !curve.value()) return lines;  // the (ε, δ) alone, as for any other mechanism
  const privacy::TradeOffPoint& at = (*curve.value())[kReadAt];
  auto claimed = privacy::epsilonDeltaMinFalseNegative(g.epsilon, g.delta, at.falsePositive);
  if (!claimed) return claimed.error();
  const QString law = g.exact->gaussianMu
                          ? QString("Gaussian noise, mu-GDP with mu = %1").arg(*g.exact->gaussianMu, 0, 'g', 4)
                          : QString("the steps' privacy loss by the PLD accountant");
  lines << QString("exact    %1: a test wrong for %2 of the other value misses at least %3 (the (epsilon, delta) "
                   "claim alone guarantees %4)")
               .arg(law, percent(at.falsePositive), percent(at.falseNegative), percent(claimed.value()));
  return lines;
}

}  // namespace dpstudio::cli

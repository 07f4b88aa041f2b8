#include "core/experiment/bound_figure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/privacy/validation.h"
#include "core/util/number_text.h"

namespace dpstudio::experiment {
namespace {

constexpr BoundedQuantity kQuantities[] = {BoundedQuantity::ParameterDistance, BoundedQuantity::EmpiricalExcessRisk,
                                           BoundedQuantity::TrueExcessRisk};

// The bounds of one quantity a series has at one value: evaluated for the data its trials saw.
std::vector<PublishedBound> boundsOf(const PrivacyPlan& plan, const BoundShape& shape, BoundedQuantity quantity,
                                     double delta) {
  std::vector<PublishedBound> out;
  for (PublishedBound& bound : publishedBounds(plan, shape, delta))
    if (bound.quantity == quantity) out.push_back(std::move(bound));
  return out;
}

// Whether any value of the axis gives a series a bound of `quantity`. Bounds need only the
// shape's sizes to exist, so a nominal shape decides (multiparty needs n ≥ K rows).
bool seriesHasBound(const SweepSpec& spec, const SweepSeries& series, BoundedQuantity quantity) {
  if (!series.plan.isPrivate()) return false;
  for (double value : spec.values) {
    const PrivacyPlan plan = spec.planAt(series, value);
    const Index parties = std::holds_alternative<Multiparty>(plan.choice)
                              ? std::get<Multiparty>(plan.choice).options.partyCount()
                              : 1;
    if (!boundsOf(plan, {std::max<Index>(1000, 10 * parties), 10, 10}, quantity, 0.05).empty()) return true;
  }
  return false;
}

// Mean and sample standard deviation of the finite values.
CurvePoint summarizeValues(const std::string& series, double value, const std::vector<double>& values) {
  CurvePoint point;
  point.series = series;
  point.value = value;
  point.count = static_cast<Index>(values.size());
  double sum = 0;
  for (double x : values) sum += x;
  point.mean = sum / static_cast<double>(point.count);
  double squares = 0;
  for (double x : values) squares += (x - point.mean) * (x - point.mean);
  point.std = point.count > 1 ? std::sqrt(squares / static_cast<double>(point.count - 1)) : 0.0;
  return point;
}

void addNote(BoundFigure& figure, const std::string& note) {
  if (std::find(figure.notes.begin(), figure.notes.end(), note) == figure.notes.end()) figure.notes.push_back(note);
}

// One series' bound of one source over the axis, before series with equal bounds are merged.
struct SeriesBound {
  PublishedBound first;  // source, formula, caveat, vacuity wording
  std::vector<BoundPoint> points;
};

void noteVacuous(BoundFigure& figure, const BoundCurve& curve) {
  int above = 0;
  double worst = 0;
  for (const BoundPoint& p : curve.points)
    if (p.bound > p.vacuousAbove) {
      ++above;
      worst = std::max(worst, p.bound);
    }
  if (above == 0) return;
  const std::string where = above == static_cast<int>(curve.points.size())
                                ? "at every value"
                                : "at " + std::to_string(above) + " of " + std::to_string(curve.points.size()) +
                                      " values";
  addNote(figure, curve.label + " is vacuous for these data " + where + " (up to " + briefNumber(worst) +
                      "): above the dotted line, " + curve.vacuousMeaning + ".");
}

}  // namespace

bool BoundCurve::vacuousSomewhere() const {
  return std::any_of(points.begin(), points.end(), [](const BoundPoint& p) { return p.bound > p.vacuousAbove; });
}

bool boundsApplyToAxis(SweepAxis axis) {
  switch (axis) {
    case SweepAxis::Epsilon:
    case SweepAxis::Rows:
    case SweepAxis::Dims:
    case SweepAxis::Classes:
    case SweepAxis::Lambda:
    case SweepAxis::Parties: return true;
    case SweepAxis::Delta:
    case SweepAxis::Budget:
    case SweepAxis::Teachers: return false;
  }
  return false;
}

std::vector<BoundedQuantity> boundedQuantities(const SweepSpec& spec) {
  std::vector<BoundedQuantity> out;
  if (!boundsApplyToAxis(spec.axis)) return out;
  for (BoundedQuantity quantity : kQuantities)
    for (const SweepSeries& series : spec.series)
      if (seriesHasBound(spec, series, quantity)) {
        out.push_back(quantity);
        break;
      }
  return out;
}

std::string whyNoBounds(const SweepSpec& spec) {
  if (!boundedQuantities(spec).empty()) return {};
  if (!boundsApplyToAxis(spec.axis))
    return "The published bounds are not drawn over " + axisName(spec.axis) +
           ": they are for pure ε-DP noise and take no privacy δ, and predictors have none.";
  std::string reasons;
  std::set<std::string> seen;
  for (const SweepSeries& series : spec.series) {
    if (!series.plan.isPrivate()) continue;
    const std::string why = whyNoBound(series.plan);
    if (!why.empty() && seen.insert(why).second) reasons += (reasons.empty() ? "" : "; ") + why;
  }
  return "No published bound applies to the mechanisms swept" + (reasons.empty() ? std::string(".") : ": " + reasons + ".");
}

BoundFigure boundFigure(const SweepSpec& spec, const std::vector<TrialRecord>& trials, BoundedQuantity quantity,
                        double delta) {
  BoundFigure figure;
  figure.quantity = quantity;
  figure.delta = delta;
  figure.axis = axisName(spec.axis);
  figure.axisTitle = axisTitle(spec.axis);
  figure.logAxis = axisIsLogScaled(spec.axis);
  figure.quantityTitle = quantityTitle(quantity);
  figure.quantitySymbol = quantitySymbol(quantity);
  figure.definition = quantityDefinition(quantity);
  figure.title = figure.quantityTitle + " against " + figure.axis + ", bounds as published" +
                 (quantity == BoundedQuantity::ParameterDistance ? std::string()
                                                                 : " (δ = " + privacy::formatNumber(delta) + ")");
  if (!boundsApplyToAxis(spec.axis)) return figure;

  // Measurements and the data each (series, value) saw.
  std::map<std::pair<int, int>, std::vector<double>> measured;
  std::map<std::pair<int, int>, BoundShape> shapes;
  for (const TrialRecord& t : trials) {
    if (!t.measures) continue;
    const std::pair key{t.id.series, t.id.valueIndex};
    shapes.emplace(key, t.measures->shape);
    const double v = t.measures->value(quantity);
    if (std::isfinite(v)) measured[key].push_back(v);
  }

  std::vector<std::pair<std::string, SeriesBound>> perSeries;  // series key → its bound
  std::map<std::string, std::string> titles;
  int nonPositive = 0;
  for (int s = 0; s < static_cast<int>(spec.series.size()); ++s) {
    const SweepSeries& series = spec.series[static_cast<std::size_t>(s)];
    if (!seriesHasBound(spec, series, quantity)) continue;
    figure.series.push_back({series.key, series.title});
    titles[series.key] = series.title;
    std::map<std::string, SeriesBound> bySource;
    for (int v = 0; v < static_cast<int>(spec.values.size()); ++v) {
      const double value = spec.values[static_cast<std::size_t>(v)];
      if (const auto m = measured.find({s, v}); m != measured.end()) {
        figure.points.push_back(summarizeValues(series.key, value, m->second));
        if (!(figure.points.back().mean > 0)) ++nonPositive;
      }
      const auto shape = shapes.find({s, v});
      if (shape == shapes.end()) continue;  // no trial finished here yet
      for (const PublishedBound& bound : boundsOf(spec.planAt(series, value), shape->second, quantity, delta)) {
        SeriesBound& entry = bySource.try_emplace(bound.source, SeriesBound{bound, {}}).first->second;
        entry.points.push_back({value, bound.value, bound.vacuousAbove});
      }
    }
    for (auto& [source, entry] : bySource) perSeries.emplace_back(series.key, std::move(entry));
  }

  // Series with the same bound at every value share one curve.
  for (auto& keyed : perSeries) {
    const std::string& seriesKey = keyed.first;
    SeriesBound& entry = keyed.second;  // a reference, not a binding: lambdas capture it (clang 14)
    std::sort(entry.points.begin(), entry.points.end(),
              [](const BoundPoint& a, const BoundPoint& b) { return a.value < b.value; });
    auto same = std::find_if(figure.bounds.begin(), figure.bounds.end(), [&](const BoundCurve& c) {
      return c.source == entry.first.source && c.caveat == entry.first.caveat &&
             c.points.size() == entry.points.size() &&
             std::equal(c.points.begin(), c.points.end(), entry.points.begin(), [](const BoundPoint& a, const BoundPoint& b) {
               return a.value == b.value && a.bound == b.bound;
             });
    });
    if (same != figure.bounds.end()) {
      same->seriesKeys.push_back(seriesKey);
      same->seriesTitles.push_back(titles[seriesKey]);
      continue;
    }
    BoundCurve curve;
    curve.source = entry.first.source;
    curve.formula = entry.first.formula;
    curve.caveat = entry.first.caveat;
    curve.vacuousLabel = entry.first.vacuousLabel;
    curve.vacuousMeaning = entry.first.vacuousMeaning;
    curve.seriesKeys = {seriesKey};
    curve.seriesTitles = {titles[seriesKey]};
    curve.points = std::move(entry.points);
    figure.bounds.push_back(std::move(curve));
  }
  // Labels: the theorem, and which series when one theorem gives several curves.
  std::map<std::string, int> perTheorem;
  for (const BoundCurve& c : figure.bounds) ++perTheorem[c.source];
  for (std::size_t i = 0; i < figure.bounds.size(); ++i) {
    BoundCurve& c = figure.bounds[i];
    c.key = "bound:" + std::to_string(i + 1);
    c.label = c.source + " (as published)";
    if (perTheorem[c.source] > 1) {
      c.label += ": " + c.seriesTitles.front();
      if (c.seriesTitles.size() > 1) c.label += " and " + std::to_string(c.seriesTitles.size() - 1) + " more";
    }
  }

  // What concerns these data first (vacuous bounds), then what concerns the theorems.
  for (const BoundCurve& c : figure.bounds) {
    noteVacuous(figure, c);
    if (std::any_of(c.points.begin(), c.points.end(), [](const BoundPoint& p) { return !(p.bound > 0); }))
      addNote(figure, c.label + " is 0 where there is one party (ŵ = w*): not drawn on the logarithmic axis.");
  }
  for (const BoundCurve& c : figure.bounds)
    if (!c.caveat.empty()) addNote(figure, c.source + ": " + c.caveat);
  if (nonPositive > 0)
    addNote(figure, std::to_string(nonPositive) + (nonPositive == 1 ? " measured mean is" : " measured means are") +
                        " ≤ 0 (the released model did as well as θ* there): not drawn on the logarithmic axis.");
  return figure;
}

BoundFigure overlayBoundFigures(const std::vector<BoundFigure>& figures) {
  if (figures.empty()) return {};
  BoundFigure out = figures.front();
  for (std::size_t k = 1; k < figures.size(); ++k) {
    const BoundFigure& next = figures[k];
    if (next.axis != out.axis) continue;
    const std::string tag = " #" + std::to_string(k + 1);
    const std::string mark = " (sweep " + std::to_string(k + 1) + ")";
    for (const SeriesInfo& series : next.series) out.series.push_back({series.key + tag, series.title + mark});
    for (CurvePoint point : next.points) {
      point.series += tag;
      out.points.push_back(std::move(point));
    }
    for (BoundCurve curve : next.bounds) {
      curve.key += tag;
      curve.label += mark;
      for (std::string& key : curve.seriesKeys) key += tag;
      for (std::string& title : curve.seriesTitles) title += mark;
      out.bounds.push_back(std::move(curve));
    }
    for (const std::string& note : next.notes) addNote(out, note);
  }
  if (figures.size() > 1) out.title += " \u2014 " + std::to_string(figures.size()) + " sweeps";
  return out;
}

}  // namespace dpstudio::experiment

#pragma once
// The bounds chart of a sweep, as plain values (ui/sweep/bound_chart.h draws it below the
// accuracy chart): for one bounded quantity (theory_bounds.h), per series that a published
// bound applies to, the measured quantity over the swept axis (mean ± one standard deviation
// over the repetitions, from TrialRecord::measures) and each bound as published, evaluated at
// every value for the data the trials saw. The y axis is logarithmic: bounds and measurements
// are often decades apart.
//
// Series whose bounds coincide (a corrected and an as-published calibration of the same
// split) share one bound curve. A bound above its vacuity level (PublishedBound::vacuousAbove)
// is reported in the notes; a chart clips it rather than stretch the axis over many decades.

#include <string>
#include <vector>

#include "core/experiment/curve.h"
#include "core/experiment/sweep.h"
#include "core/experiment/theory_bounds.h"

namespace dpstudio::experiment {

struct BoundPoint {
  double value = 0;         // of the axis
  double bound = 0;         // as published
  double vacuousAbove = 0;  // the level above which it says nothing (PublishedBound)
};

struct BoundCurve {
  std::string key;    // unique in the figure
  std::string label;  // legend: "Paper 004, Theorem 4.2 (as published)"
  std::string source;
  std::string formula;
  std::string caveat;
  std::string vacuousLabel;
  std::string vacuousMeaning;
  std::vector<std::string> seriesKeys;    // the measured series it bounds; the first gives its colour
  std::vector<std::string> seriesTitles;  // same order
  std::vector<BoundPoint> points;         // by increasing value
  bool vacuousSomewhere() const;
};

struct BoundFigure {
  BoundedQuantity quantity = BoundedQuantity::EmpiricalExcessRisk;
  double delta = 0.05;  // the bounds hold with probability ≥ 1 − δ (not for Theorem 4.2: always)
  std::string axis;       // as Curve::axis
  std::string axisTitle;
  bool logAxis = false;   // of x; y is always logarithmic
  std::string title;          // "Empirical excess risk J(θ) − J(θ*) against ε, bounds as published (δ = 0.05)"
  std::string quantityTitle;  // quantityTitle()
  std::string quantitySymbol; // the y axis: quantitySymbol()
  std::string definition;     // quantityDefinition()
  std::vector<SeriesInfo> series;  // measured series, in the sweep's order
  // Measured: mean, sample std and count per (series, value); low95/high95 unused. Only
  // finite measurements count.
  std::vector<CurvePoint> points;
  std::vector<BoundCurve> bounds;
  // For people, each once: caveats, vacuous bounds, what the log axis cannot show.
  std::vector<std::string> notes;

  bool hasBounds() const { return !bounds.empty(); }
};

// Whether published bounds can be drawn over this axis: ε, n, D, C, λ, K. Not δ (the bounds
// are for pure ε-DP noise and take no privacy δ), nor B and T (predictors have none).
bool boundsApplyToAxis(SweepAxis axis);
// The quantities some series of `spec` has a bound on, on its axis (ParameterDistance,
// EmpiricalExcessRisk, TrueExcessRisk order); empty when none.
std::vector<BoundedQuantity> boundedQuantities(const SweepSpec& spec);
// Why `spec` has no bound to draw, for the view's note (empty when it has some).
std::string whyNoBounds(const SweepSpec& spec);

// The figure of `quantity` for the finished `trials` of `spec` (with its reference series, as
// the engine ran it), the bounds at confidence 1 − delta. (It is drawn under the accuracy
// chart, whose title names the data.)
BoundFigure boundFigure(const SweepSpec& spec, const std::vector<TrialRecord>& trials, BoundedQuantity quantity,
                        double delta);

// Several sweeps' figures of one quantity in one chart, as overlayCurves() does: later
// figures' keys get " #k", their titles "(sweep k)"; figures of another axis are left out.
BoundFigure overlayBoundFigures(const std::vector<BoundFigure>& figures);

}  // namespace dpstudio::experiment

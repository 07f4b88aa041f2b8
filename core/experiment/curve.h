#pragma once
// A privacy–utility curve as the sweep engine summarizes it and every front end draws it
// (the CLI's --plot, the GUI's privacy–utility view): per series (one plan of the sweep)
// and per value of the swept axis, the mean accuracy over the repetitions with its spread.
// Plain values: no Qt; the aggregation is summarize() in sweep.h.

#include <string>
#include <vector>

#include <Eigen/Core>

namespace dpstudio::experiment {

// The trials of one series at one value of the axis.
struct CurvePoint {
  std::string series;  // SeriesInfo::key
  double value = 0;    // of the axis
  double mean = 0;     // mean test accuracy over the finished trials
  double std = 0;      // sample standard deviation (n − 1); 0 for one trial
  Eigen::Index count = 0;
  double low95 = 0;    // 95 % confidence interval of the mean (Student t), clamped to [0, 1]
  double high95 = 0;
};

struct SeriesInfo {
  std::string key;    // "output", "prediction", "multiparty-published", … (CSV and JSON)
  std::string title;  // for people: "Output perturbation", "Prediction sensitivity (B = 100)"
};

// A horizontal line: the non-private accuracy a series is judged against.
struct ReferenceLine {
  std::string label;  // "Non-private (softmax regression)"
  double accuracy = 0;
};

struct Curve {
  std::string axis;       // "epsilon", "budget", "delta", "n", "dims", "classes", "lambda", "teachers", "parties"
  std::string axisTitle;  // "Privacy parameter ε", "Training rows n", …
  bool logAxis = false;   // ε, δ, λ, n, B: log-scaled as in the papers
  std::string title;      // "digits: accuracy against ε (10 repetitions)"
  std::string note;       // "An experiment on the data, not a private release: nothing is in the ledger."
  std::vector<SeriesInfo> series;   // drawing and legend order
  std::vector<CurvePoint> points;   // any order; a series' points are drawn by value
  std::vector<ReferenceLine> references;
};

// Several curves of the same axis in one figure (the GUI's "add to the chart"): the first
// curve's axis and note, its title with " — N sweeps"; every later curve's series and reference lines follow, their
// keys made unique with " #k" (k = the curve's 1-based position) and their titles marked
// "(sweep k)". Curves of another axis than the first are left out. Empty input: an empty curve.
Curve overlayCurves(const std::vector<Curve>& curves);

}  // namespace dpstudio::experiment

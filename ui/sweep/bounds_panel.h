#pragma once
// The optional part of the privacy–utility view under the accuracy chart, shown by the
// "Theoretical bounds (as published)" check box: the published bounds of docs/algorithms.md §4 for
// the sweeps shown, on the quantity they bound (ui/sweep/bound_chart.h), with
//   · a choice of the quantity: ‖ŵ − w*‖ (paper 004 Thm 4.2), empirical excess risk (paper 000
//     Thm 2, paper 004 Thm 4.3), true excess risk (Thm 3, Thm 4.4) — those some series has;
//   · the bounds' confidence 1 − δ (0.9, 0.95, 0.99);
//   · the figure's notes under it: caveats (a proof that does not hold, noise the theorem does
//     not cover), vacuous bounds, what the log axis cannot show;
//   · or, when no bound applies, why (the mechanisms swept, the axis).
// A separate chart rather than a second y axis: the bounds are not on accuracy, and are often
// many decades above what is measured.

#include <QWidget>

#include "core/experiment/bound_figure.h"

QT_BEGIN_NAMESPACE
class QChartView;
class QComboBox;
class QLabel;
class QPlainTextEdit;
QT_END_NAMESPACE

namespace dpstudio::ui {

class BoundChart;
class SweepSession;
class UtilityChart;

class BoundsPanel : public QWidget {
  Q_OBJECT

 public:
  // Reads the session's sweeps; aligns its x axis and colours with `accuracy`.
  BoundsPanel(SweepSession* session, UtilityChart* accuracy, QWidget* parent = nullptr);

  // Draws the session's current trials (call when they change and the panel is shown).
  void refresh();

  BoundChart* chart() const { return chart_; }
  QChartView* chartView() const { return chartView_; }
  QComboBox* quantityBox() const { return quantity_; }
  QComboBox* confidenceBox() const { return confidence_; }
  // The key of the line styles and the figure's notes, as shown under the chart.
  QString notesText() const;
  QPlainTextEdit* notesView() const { return notes_; }
  bool setQuantity(experiment::BoundedQuantity quantity);  // false when no series has a bound on it

 private:
  void refreshQuantities();
  // Puts the plot under the accuracy chart's plot, edge to edge, so that a value of the swept
  // parameter sits at the same x in both (the accuracy chart's legend may take its right side).
  void alignWithAccuracy();

  SweepSession* session_;
  UtilityChart* accuracy_;
  BoundChart* chart_;
  QChartView* chartView_;
  QComboBox* quantity_;
  QComboBox* confidence_;
  QPlainTextEdit* notes_;
  QLabel* empty_;
};

}  // namespace dpstudio::ui

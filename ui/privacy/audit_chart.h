#pragma once
// The audit's trade-off plot (Qt Charts): the false-negative rate against the false-positive
// rate of every threshold test on the audit statistic (AuditResult::curve), next to the
// region an (ε, δ)-DP mechanism forbids for the claimed ε, the test the audit certified
// (its held-out rates at their 95% upper bounds) as one point.
//
// If a mechanism is (ε, δ)-DP, every test has FPR + e^ε·FNR ≥ 1 − δ and FNR + e^ε·FPR ≥ 1 − δ
// (rates.h), i.e. FNR ≥ max(0, 1 − δ − e^ε·FPR, e^{−ε}(1 − δ − FPR)): the shaded region
// below that boundary is impossible. A certified point inside it is a violation.
//
// The curve is drawn for the direction the audit chose ("guess D′ when s > t" or "< t"), so
// that it lies on the informative side of the diagonal FPR + FNR = 1.
// The legend is a widget for under the chart (legendWidget(), a SeriesLegend: whole names,
// wrapped to the width; Qt's legend cut all three names at 1366×768); exports keep Qt's.
// Exports PNG (at the screen's device pixel ratio) or SVG.

#include <QChartView>
#include <QList>
#include <QPointF>
#include <QSet>

#include "core/audit/audit.h"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace dpstudio::ui {

class SeriesLegend;

// The exact boundary above, as points for the chart (core/privacy/tradeoff.h's corners).
QList<QPointF> idealTradeOffBoundary(double epsilon, double delta);
// The look shared by every trade-off picture (the audit's, What ε means): the forbidden
// region shaded red with a dashed edge, the audit's threshold tests in blue.
void styleForbiddenRegion(QAreaSeries* region);
void styleThresholdTests(QLineSeries* tests);
// The curve's (FPR, FNR) points in the certified test's direction, by increasing FPR.
QList<QPointF> auditCurvePoints(const audit::AuditResult& result);

class AuditChart : public QChartView {
  Q_OBJECT

 public:
  explicit AuditChart(QWidget* parent = nullptr);

  void showResult(const audit::AuditResult& result);
  void clear();  // no result: empty series and a hint in the title

  QLineSeries* curveSeries() const { return curve_; }
  QLineSeries* boundarySeries() const { return boundary_; }  // the forbidden region's upper edge
  QAreaSeries* forbiddenSeries() const { return forbidden_; }
  QScatterSeries* certifiedSeries() const { return certified_; }
  // The legend to place under the chart (it has no parent until placed).
  SeriesLegend* legendWidget() const { return legend_; }

  // Picks the format from the suffix (".svg", anything else PNG); false with *error set.
  bool exportImage(const QString& path, QString* error = nullptr);

 private:
  QLineSeries* curve_;
  QLineSeries* boundary_;
  QLineSeries* floor_;
  QAreaSeries* forbidden_;
  QScatterSeries* certified_;
  SeriesLegend* legend_;
  QSet<QString> hidden_;  // names unticked in the legend
  bool hasResult_ = false;
  QString description_;

  void showSeries();
};

}  // namespace dpstudio::ui

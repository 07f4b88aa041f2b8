#include "ui/privacy/audit_chart.h"

#include <QAreaSeries>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

#include "core/privacy/tradeoff.h"
#include "ui/plot/series_legend.h"
#include "ui/plot/view_export.h"

namespace dpstudio::ui {

QList<QPointF> idealTradeOffBoundary(double epsilon, double delta) {
  QList<QPointF> points;
  for (const privacy::TradeOffPoint& p : privacy::epsilonDeltaTradeOffCorners(epsilon, delta))
    points.append(QPointF(p.falsePositive, p.falseNegative));
  return points;
}

QList<QPointF> auditCurvePoints(const audit::AuditResult& result) {
  const bool above = result.certificate.decision.above;
  QList<QPointF> points;
  points.reserve(static_cast<qsizetype>(result.curve.points.size()));
  // The curve holds the "above" test; the "below" test at the same threshold errs exactly
  // where the "above" one does not.
  for (const audit::RatePoint& p : result.curve.points)
    points.append(above ? QPointF(p.fpr, p.fnr) : QPointF(1.0 - p.fpr, 1.0 - p.fnr));
  std::stable_sort(points.begin(), points.end(), [](const QPointF& a, const QPointF& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() > b.y());
  });
  return points;
}

void styleForbiddenRegion(QAreaSeries* region) {
  region->setColor(QColor(198, 40, 40, 45));
  QPen edge(QColor(198, 40, 40));
  edge.setStyle(Qt::DashLine);
  edge.setWidthF(1.5);
  region->setPen(edge);
}

void styleThresholdTests(QLineSeries* tests) {
  QPen pen(QColor(21, 101, 192));
  pen.setWidthF(2.0);
  tests->setPen(pen);
}

AuditChart::AuditChart(QWidget* parent)
    : QChartView(parent),
      curve_(new QLineSeries),
      // The area series does not own its outline series (Qt Charts): the view does.
      boundary_(new QLineSeries(this)),
      floor_(new QLineSeries(this)),
      certified_(new QScatterSeries),
      legend_(new SeriesLegend) {
  auto* chart = new QChart;
  chart->setTheme(QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->legend()->setVisible(false);  // legend_ under the chart; exports show this one
  chart->setMargins(QMargins(4, 4, 4, 4));
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 0.9);
  titleFont.setBold(false);
  chart->setTitleFont(titleFont);

  forbidden_ = new QAreaSeries(boundary_, floor_);
  forbidden_->setName(tr("forbidden for \u03b5"));
  styleForbiddenRegion(forbidden_);

  curve_->setName(tr("threshold tests"));
  styleThresholdTests(curve_);

  certified_->setName(tr("certified test"));
  certified_->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  certified_->setMarkerSize(10);
  certified_->setColor(QColor(33, 33, 33));
  certified_->setBorderColor(Qt::white);

  chart->addSeries(forbidden_);
  chart->addSeries(curve_);
  chart->addSeries(certified_);

  auto* axisX = new QValueAxis;
  auto* axisY = new QValueAxis;
  axisX->setRange(0.0, 1.0);
  axisY->setRange(0.0, 1.0);
  axisX->setTickCount(6);
  axisY->setTickCount(6);
  axisX->setLabelFormat(QStringLiteral("%.1f"));
  axisY->setLabelFormat(QStringLiteral("%.1f"));
  axisX->setTitleText(tr("FPR: says D\u2032 on D"));
  axisY->setTitleText(tr("FNR: says D on D\u2032"));
  chart->addAxis(axisX, Qt::AlignBottom);
  chart->addAxis(axisY, Qt::AlignLeft);
  for (QAbstractSeries* series : chart->series()) {
    series->attachAxis(axisX);
    series->attachAxis(axisY);
  }
  // QChartView made a chart of its own, which setChart() releases without deleting.
  QChart* made = this->chart();
  setChart(chart);
  delete made;
  setToolTip(tr("Each threshold test on the audit statistic (all runs). Shaded: what no (\u03b5, \u03b4)-DP "
                "mechanism allows for the claimed \u03b5. Square: the certified test at its held-out 95% upper "
                "bounds; inside the shaded region it proves a violation."));
  setRenderHint(QPainter::Antialiasing);
  setMinimumSize(240, 220);
  // The legend is deleted with the chart even if it was never placed in a layout.
  connect(this, &QObject::destroyed, legend_, [legend = legend_] {
    if (!legend->parent()) delete legend;
  });
  connect(legend_, &SeriesLegend::shownChanged, this, [this](const QString& name, bool shown) {
    if (shown) hidden_.remove(name);
    else hidden_.insert(name);
    showSeries();
  });
  clear();
}

void AuditChart::showSeries() {
  forbidden_->setVisible(hasResult_ && !hidden_.contains(forbidden_->name()));
  curve_->setVisible(!hidden_.contains(curve_->name()));
  certified_->setVisible(!hidden_.contains(certified_->name()));
  QPen certifiedPen(certified_->color());
  certifiedPen.setWidthF(4);
  legend_->setEntries({{forbidden_->name(), forbidden_->pen(), false, !hidden_.contains(forbidden_->name())},
                       {curve_->name(), curve_->pen(), false, !hidden_.contains(curve_->name())},
                       {certified_->name(), certifiedPen, true, !hidden_.contains(certified_->name())}});
}

void AuditChart::clear() {
  curve_->clear();
  boundary_->clear();
  floor_->clear();
  certified_->clear();
  hasResult_ = false;
  showSeries();
  chart()->setTitle(tr("Run an audit to see its trade-off curve"));
  description_.clear();
}

void AuditChart::showResult(const audit::AuditResult& result) {
  const QList<QPointF> boundary = idealTradeOffBoundary(result.epsilon, result.delta);
  boundary_->replace(boundary);
  QList<QPointF> floor;
  for (const QPointF& p : boundary) floor.append(QPointF(p.x(), 0.0));
  floor_->replace(floor);
  hasResult_ = true;
  showSeries();
  curve_->replace(auditCurvePoints(result));
  const audit::RatePoint& heldOut = result.certificate.heldOut;
  certified_->replace(QList<QPointF>{QPointF(heldOut.fprUpper, heldOut.fnrUpper)});
  // Two lines: at 1366×768 the plot is ~280 px wide, and one line was cut after "against cl…".
  chart()->setTitle(tr("%1 (%2)<br>\u03b5_lower = %3 against claimed \u03b5 = %4")
                        .arg(QString::fromStdString(result.mechanism), QString::fromStdString(mech::calibrationWord(result.calibration)))
                        .arg(result.epsilonLower, 0, 'f', 3)
                        .arg(result.epsilon, 0, 'g', 4));
  description_ = tr("Audit trade-off curve: %1; %2").arg(QString::fromStdString(result.statistic),
                                                          QString::fromStdString(result.problem));
}

bool AuditChart::exportImage(const QString& path, QString* error) {
  // A file has no widget beside it: Qt's legend, laid out into the chart for the drawing.
  chart()->legend()->setVisible(true);
  if (QGraphicsLayout* layout = chart()->layout()) layout->activate();
  const bool written = QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0
                           ? writeViewSvg(this, path, chart()->title().replace(QStringLiteral("<br>"), QStringLiteral(" \u2014 ")),
                                          description_, error)
                           : writeViewPng(this, path, error);
  chart()->legend()->setVisible(false);
  if (QGraphicsLayout* layout = chart()->layout()) layout->activate();
  return written;
}

}  // namespace dpstudio::ui

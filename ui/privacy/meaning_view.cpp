#include "ui/privacy/meaning_view.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

#include "core/privacy/exact_privacy.h"
#include "core/privacy/tradeoff.h"
#include "ui/privacy/audit_chart.h"
#include "ui/privacy/audit_view.h"
#include "ui/training/mechanism_form.h"

namespace dpstudio::ui {
namespace {

constexpr int kCurvePoints = 101;

// A unit-square chart with its axes titled; the series attached.
QChartView* unitChart(const QString& title, const QString& xTitle, const QString& yTitle,
                      const QList<QAbstractSeries*>& series) {
  auto* chart = new QChart;
  chart->setTheme(QChart::ChartThemeLight);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setVisible(false);  // the caption under the charts says what is what
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->setTitle(title);
  auto* axisX = new QValueAxis;
  auto* axisY = new QValueAxis;
  for (QValueAxis* axis : {axisX, axisY}) {
    axis->setRange(0.0, 1.0);
    axis->setTickCount(6);
    axis->setLabelFormat(QStringLiteral("%.1f"));
  }
  axisX->setTitleText(xTitle);
  axisY->setTitleText(yTitle);
  chart->addAxis(axisX, Qt::AlignBottom);
  chart->addAxis(axisY, Qt::AlignLeft);
  for (QAbstractSeries* s : series) {
    chart->addSeries(s);
    s->attachAxis(axisX);
    s->attachAxis(axisY);
  }
  auto* view = new QChartView(chart);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(200, 200);
  return view;
}

QPen pen(const QColor& colour, double width, Qt::PenStyle style = Qt::SolidLine) {
  QPen p(colour);
  p.setWidthF(width);
  p.setStyle(style);
  return p;
}

}  // namespace

MeaningView::MeaningView(MechanismForm* mechanism, AuditView* audit, QWidget* parent)
    : QWidget(parent),
      mechanism_(mechanism),
      auditView_(audit),
      sentence_(new QLabel),
      boundary_(new QLineSeries(this)),  // the area series does not own its edges
      floor_(new QLineSeries(this)),
      audit_(new QLineSeries),
      exact_(new QLineSeries),
      posterior_(new QLineSeries),
      onePercent_(new QScatterSeries) {
  sentence_->setWordWrap(true);
  sentence_->setTextFormat(Qt::PlainText);
  sentence_->setObjectName(QStringLiteral("meaningSentence"));

  forbidden_ = new QAreaSeries(boundary_, floor_);
  styleForbiddenRegion(forbidden_);
  styleThresholdTests(audit_);
  auto* guessing = new QLineSeries;
  guessing->append(0, 0);
  guessing->append(1, 1);
  guessing->setPen(pen(QColor(120, 120, 120), 1.0, Qt::DotLine));
  posterior_->setPen(pen(QColor(21, 101, 192), 2.0));
  exact_->setPen(pen(QColor(106, 27, 154), 2.5));
  exact_->setName(tr("exact trade-off"));
  onePercent_->setMarkerSize(9);
  onePercent_->setColor(QColor(33, 33, 33));
  onePercent_->setBorderColor(Qt::white);

  QChartView* tradeOff = unitChart(tr("Any test of one person's record"), tr("false positives \u03b1"),
                                   tr("false negatives \u03b2"), {forbidden_, exact_, audit_});
  QChartView* belief = unitChart(tr("An attacker's belief"), tr("prior"), tr("largest posterior"),
                                 {guessing, posterior_, onePercent_});
  auto* charts = new QHBoxLayout;
  charts->addWidget(tradeOff, 1);
  charts->addWidget(belief, 1);
  caption_ = new QLabel;
  caption_->setWordWrap(true);
  caption_->setStyleSheet(QStringLiteral("color: #555555;"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(sentence_);
  layout->addLayout(charts, 1);
  layout->addWidget(caption_);

  connect(mechanism_, &MechanismForm::calibrationChanged, this, &MeaningView::refresh);
  connect(auditView_, &AuditView::resultShown, this, &MeaningView::refresh);
  refresh();
}

void MeaningView::refresh() {
  const auto& report = mechanism_->calibration();
  const bool guaranteed = mechanism_->isPrivate() && report.has_value() && report->guaranteeHolds();
  const bool experiment = mechanism_->settings().noise == privacy::NoiseKind::Experiment;
  // The guarantee that holds (as published: not always the claim) and the δ the law has.
  const double epsilon = guaranteed ? report->chargedEpsilon() : 0;
  const double delta = guaranteed ? report->chargedDelta() : 0;
  auto meaning = guaranteed ? privacy::meaningOf(epsilon, delta) : Result<privacy::GuaranteeMeaning>(Error{});
  boundary_->clear();
  floor_->clear();
  audit_->clear();
  exact_->clear();
  posterior_->clear();
  onePercent_->clear();
  computeExactCurve();
  if (!meaning) {
    sentence_->setText(!mechanism_->isPrivate()
                           ? tr("No mechanism: a non-private model bounds nothing \u2014 a test may tell one "
                                "person's record from another perfectly.")
                       : report.has_value() ? QString::fromLatin1(privacy::kNoGuaranteeMeaning)
                                            : tr("The guarantee appears once the Training dock's calibration does."));
    forbidden_->setVisible(false);
    return;
  }
  // Experiment noise is seeded: whoever knows the seed removes it, so the run bounds nothing.
  sentence_->setText(tr("%1(\u03b5 = %2, \u03b4 = %3) %4")
                         .arg(experiment ? tr("Experiment noise is NOT private; with release noise: ") : QString())
                         .arg(epsilon, 0, 'g', 4)
                         .arg(delta, 0, 'g', 3)
                         .arg(QString::fromStdString(meaning.value().sentence)));
  for (const privacy::TradeOffPoint& p : meaning.value().tradeOff) {
    boundary_->append(p.falsePositive, p.falseNegative);
    floor_->append(p.falsePositive, 0.0);
  }
  forbidden_->setVisible(true);
  for (int k = 0; k < kCurvePoints; ++k) {
    const double prior = static_cast<double>(k) / (kCurvePoints - 1);
    auto bound = delta > 0 ? privacy::posteriorBoundAt(prior, epsilon, delta, meaning.value().testFalsePositive)
                           : privacy::posteriorBound(prior, epsilon);
    if (bound) posterior_->append(prior, bound.value());
  }
  onePercent_->append(0.01, meaning.value().posteriors.front().atMost);
  // The audit's tests belong on this picture only when it audited the same claim.
  if (const auto& result = auditView_->result();
      result && std::abs(result->epsilon - report->epsilon) <= 1e-12 * std::max(1.0, report->epsilon) &&
      std::abs(result->delta - report->delta) <= 1e-15)
    for (const QPointF& p : auditCurvePoints(*result)) audit_->append(p);
}

void MeaningView::computeExactCurve() {
  const int generation = ++exactGeneration_;
  const auto& report = mechanism_->calibration();
  const bool known = mechanism_->isPrivate() && report && report->guaranteeHolds() && report->exactPrivacy;
  const QString tests = tr("blue, the last audit's threshold tests when it audited this \u03b5 and \u03b4");
  const QString belief =
      tr("Right: the most an attacker's belief that the record is one value rather than another can grow, against "
         "what they believed before (dotted: no change); the dot is a 1 % prior. An explanation, not a release: "
         "nothing is recorded. docs/algorithms.md \u00a71.6.");
  if (!known) {
    caption_->setText(tr("Left: shaded, what no test can reach under the guarantee (fewer false negatives at that "
                         "rate of false positives); %1. %2").arg(tests, belief));
    return;
  }
  const bool gaussian = report->exactPrivacy->gaussianMu.has_value();
  caption_->setText(
      tr("Left: shaded, what no test can reach under the claimed (\u03b5, \u03b4); purple, the exact limit of "
         "this mechanism (%1), which every test stays above too; %2. %3")
          .arg(gaussian ? tr("Gaussian noise: \u03bc-GDP with \u03bc = %1").arg(*report->exactPrivacy->gaussianMu, 0, 'g', 3)
                        : tr("its steps' privacy loss by the PLD accountant"),
               tests, belief));
  using Curve = std::shared_ptr<const Result<std::optional<std::vector<privacy::TradeOffPoint>>>>;
  auto* watcher = new QFutureWatcher<Curve>(this);
  connect(watcher, &QFutureWatcher<Curve>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != exactGeneration_) return;
    const auto& curve = *watcher->result();
    exact_->clear();
    if (curve && curve.value())
      for (const privacy::TradeOffPoint& p : *curve.value()) exact_->append(p.falsePositive, p.falseNegative);
  });
  watcher->setFuture(QtConcurrent::run([exact = *report->exactPrivacy] {
    return Curve(std::make_shared<const Result<std::optional<std::vector<privacy::TradeOffPoint>>>>(
        privacy::exactTradeOffCurve(exact, kCurvePoints)));
  }));
}

}  // namespace dpstudio::ui

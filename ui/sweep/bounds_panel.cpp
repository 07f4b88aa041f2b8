#include "ui/sweep/bounds_panel.h"

#include <QChartView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPlainTextEdit>
#include <QValueAxis>
#include <QVBoxLayout>

#include "ui/plot/utility_chart.h"
#include "ui/sweep/bound_chart.h"
#include "ui/sweep/sweep_session.h"

namespace dpstudio::ui {
namespace {

using experiment::BoundedQuantity;

QString quantityLabel(BoundedQuantity quantity) {
  switch (quantity) {
    case BoundedQuantity::ParameterDistance: return QObject::tr("Distance to the all-data model \u2016\u0175 \u2212 w*\u2016");
    case BoundedQuantity::EmpiricalExcessRisk: return QObject::tr("Empirical excess risk (training rows)");
    case BoundedQuantity::TrueExcessRisk: return QObject::tr("True excess risk (estimated on the test rows)");
  }
  return {};
}

// The x range the accuracy chart shows, so that both charts put a value at the same place.
std::optional<std::pair<double, double>> xRangeOf(const UtilityChart* chart) {
  if (const auto* log = qobject_cast<const QLogValueAxis*>(chart->xAxis())) return std::pair{log->min(), log->max()};
  if (const auto* value = qobject_cast<const QValueAxis*>(chart->xAxis())) return std::pair{value->min(), value->max()};
  return std::nullopt;
}

}  // namespace

BoundsPanel::BoundsPanel(SweepSession* session, UtilityChart* accuracy, QWidget* parent)
    : QWidget(parent),
      session_(session),
      accuracy_(accuracy),
      chart_(new BoundChart),
      chartView_(new QChartView(chart_)),
      quantity_(new QComboBox),
      confidence_(new QComboBox),
      notes_(new QPlainTextEdit),
      empty_(new QLabel) {
  setObjectName(QStringLiteral("sweepBoundsPanel"));
  quantity_->setObjectName(QStringLiteral("sweepBoundQuantity"));
  quantity_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  quantity_->setMinimumContentsLength(20);
  quantity_->setAccessibleName(tr("Bounded quantity"));
  quantity_->setToolTip(tr("What the bounds bound: each is drawn beside the same quantity measured in the sweep"));
  confidence_->setObjectName(QStringLiteral("sweepBoundConfidence"));
  confidence_->setAccessibleName(tr("Confidence of the bounds"));
  confidence_->setToolTip(tr("The excess-risk bounds hold with probability at least 1 \u2212 \u03b4 over the noise (if "
                             "the papers' proofs do); Theorem 4.2 always"));
  for (double delta : {0.1, 0.05, 0.01}) confidence_->addItem(tr("1 \u2212 \u03b4 = %1").arg(1.0 - delta), delta);
  confidence_->setCurrentIndex(1);
  chartView_->setObjectName(QStringLiteral("sweepBoundChartView"));
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setMinimumHeight(100);  // the window must fit 768 px (test_gui_smoke)
  notes_->setObjectName(QStringLiteral("sweepBoundNotes"));
  notes_->setReadOnly(true);
  notes_->setFrameShape(QFrame::NoFrame);
  notes_->setStyleSheet(QStringLiteral("QPlainTextEdit { color: #333; background: transparent; }"));
  // Three lines, then it scrolls: the caveats are long, the charts need the room.
  notes_->setMaximumHeight(3 * notes_->fontMetrics().lineSpacing() + 8);
  empty_->setObjectName(QStringLiteral("sweepBoundEmpty"));
  empty_->setWordWrap(true);
  empty_->setTextFormat(Qt::PlainText);

  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel(tr("Bounds as published on"));
  label->setToolTip(tr("The papers' own formulas and constants (Help \u2192 Algorithms \u00a74), not verified by this product"));
  row->addWidget(label);
  row->addWidget(quantity_, 1);
  row->addWidget(confidence_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(row);
  layout->addWidget(empty_);
  layout->addWidget(chartView_, 1);
  layout->addWidget(notes_);

  connect(accuracy_, &QChart::plotAreaChanged, this, &BoundsPanel::alignWithAccuracy);
  connect(chart_, &QGraphicsWidget::geometryChanged, this, &BoundsPanel::alignWithAccuracy);
  connect(quantity_, &QComboBox::currentIndexChanged, this, &BoundsPanel::refresh);
  connect(confidence_, &QComboBox::currentIndexChanged, this, &BoundsPanel::refresh);
  refresh();
}

bool BoundsPanel::setQuantity(BoundedQuantity quantity) {
  refreshQuantities();
  const int index = quantity_->findData(static_cast<int>(quantity));
  if (index < 0) return false;
  quantity_->setCurrentIndex(index);
  return true;
}

void BoundsPanel::refreshQuantities() {
  const auto available = session_->boundedQuantities();
  QList<int> have;
  for (int i = 0; i < quantity_->count(); ++i) have << quantity_->itemData(i).toInt();
  QList<int> want;
  for (BoundedQuantity q : available) want << static_cast<int>(q);
  if (have == want) return;
  const QVariant current = quantity_->currentData();
  QSignalBlocker block(quantity_);
  quantity_->clear();
  for (BoundedQuantity q : available) quantity_->addItem(quantityLabel(q), static_cast<int>(q));
  const int index = quantity_->findData(current);
  // The excess risk by default: the quantity most bounds of docs/algorithms.md §4 bound.
  const int preferred = quantity_->findData(static_cast<int>(BoundedQuantity::EmpiricalExcessRisk));
  quantity_->setCurrentIndex(index >= 0 ? index : std::max(0, preferred));
}

void BoundsPanel::refresh() {
  refreshQuantities();
  const bool any = quantity_->count() > 0;
  quantity_->setEnabled(any);
  confidence_->setEnabled(any);
  chartView_->setVisible(any);
  notes_->setVisible(any);
  empty_->setVisible(!any);
  if (!any) {
    empty_->setText(session_->whyNoBounds());
    return;
  }
  const auto quantity = static_cast<BoundedQuantity>(quantity_->currentData().toInt());
  const experiment::BoundFigure figure = session_->boundFigure(quantity, confidence_->currentData().toDouble());
  // Colours as in the accuracy chart: a series' index among its drawn series.
  const experiment::Curve& curve = session_->curve();
  auto colourOf = [&curve](const std::string& key) {
    for (std::size_t i = 0; i < curve.series.size(); ++i)
      if (curve.series[i].key == key) return static_cast<int>(i);
    return -1;
  };
  chart_->setFigure(figure, colourOf, accuracy_->meanSeries().isEmpty() ? std::nullopt : xRangeOf(accuracy_));
  alignWithAccuracy();
  // The key: colours are the accuracy chart's (its legend is above); the styles say what is what.
  QStringList bounds, levels;
  for (const auto& bound : figure.bounds) {
    if (!bounds.contains(QString::fromStdString(bound.source))) bounds << QString::fromStdString(bound.source);
    if (!levels.contains(QString::fromStdString(bound.vacuousLabel))) levels << QString::fromStdString(bound.vacuousLabel);
  }
  QStringList notes{tr("Colours as in the chart above. Solid: %1 as measured, mean \u00b1 1 sd over the repetitions. "
                       "Dashed: %2, as published \u2014 the papers' formulas and constants, not verified by this "
                       "product. Dotted: %3; a bound above it says nothing for these data.")
                        .arg(QString::fromStdString(figure.quantitySymbol), bounds.join(QStringLiteral("; ")),
                             levels.join(QStringLiteral("; ")))};
  if (chart_->clippedPoints() > 0)
    notes << tr("\u25b2: a bound above the top of the chart, drawn there (clipped); hover a dashed line for its "
                "values.");
  for (const std::string& note : figure.notes) notes << QString::fromStdString(note);
  notes_->setPlainText(notes.join('\n'));
}

}  // namespace dpstudio::ui

namespace dpstudio::ui {

QString BoundsPanel::notesText() const { return notes_->toPlainText(); }

void BoundsPanel::alignWithAccuracy() {
  const QRectF above = accuracy_->plotArea();
  const QRectF own = chart_->geometry();
  // Room above for the top tick's label, below for the x labels.
  constexpr double kTop = 18, kBottom = 30;
  if (accuracy_->meanSeries().isEmpty() || above.width() < 50 || own.height() < kTop + kBottom + 40) {
    if (!chart_->plotArea().isEmpty() && chart_->property("aligned").toBool()) {
      chart_->setPlotArea(QRectF());  // automatic again
      chart_->setProperty("aligned", false);
    }
    return;
  }
  const QRectF wanted(above.left(), kTop, std::min(above.width(), own.width() - above.left() - 8),
                      own.height() - kTop - kBottom);
  if (chart_->plotArea() != wanted) chart_->setPlotArea(wanted);
  chart_->setProperty("aligned", true);
}

}  // namespace dpstudio::ui

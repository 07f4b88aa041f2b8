#include "ui/plot/utility_chart.h"

#include <QApplication>
#include <QAreaSeries>
#include <QFileInfo>
#include <QBuffer>
#include <QFont>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QRegularExpression>
#include <QScreen>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QThread>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "ui/plot/chart_style.h"
#include "ui/plot/class_palette.h"
#include "ui/plot/round_ticks.h"

namespace dpstudio::ui {

using experiment::Curve;
using experiment::CurvePoint;

namespace detail {

// One series as drawn: its points by increasing value.
struct DrawnSeries {
  std::string key;
  QString title;
  std::vector<CurvePoint> points;
};

struct DrawnCurve {
  std::vector<DrawnSeries> series;
  bool empty = true;  // no drawable point in any series
};

}  // namespace detail

namespace {

using detail::DrawnCurve;
using detail::DrawnSeries;

constexpr int kSideMargin = 10;
constexpr int kCaptionGap = 4;
constexpr int kMaxImageSide = 20000;
// A log axis shows at most this many major ticks; wider ranges tick every k decades.
constexpr int kMaxLogTicks = 10;

bool drawable(const CurvePoint& p, bool logAxis) {
  return std::isfinite(p.value) && std::isfinite(p.mean) && (!logAxis || p.value > 0.0);
}

double spread(const CurvePoint& p) { return std::isfinite(p.std) && p.std > 0.0 ? p.std : 0.0; }

DrawnCurve drawnCurve(const Curve& curve) {
  DrawnCurve out;
  std::map<std::string, std::size_t> index;
  for (const experiment::SeriesInfo& info : curve.series) {
    if (index.count(info.key)) continue;  // a key listed twice draws once
    index[info.key] = out.series.size();
    out.series.push_back({info.key, QString::fromStdString(info.title.empty() ? info.key : info.title), {}});
  }
  for (const CurvePoint& p : curve.points) {
    auto it = index.find(p.series);
    if (it == index.end()) {
      it = index.emplace(p.series, out.series.size()).first;
      out.series.push_back({p.series, QString::fromStdString(p.series), {}});
    }
    if (!drawable(p, curve.logAxis)) continue;
    out.series[it->second].points.push_back(p);
    out.empty = false;
  }
  for (DrawnSeries& s : out.series)
    std::stable_sort(s.points.begin(), s.points.end(),
                     [](const CurvePoint& a, const CurvePoint& b) { return a.value < b.value; });
  return out;
}

std::vector<const experiment::ReferenceLine*> drawnReferences(const Curve& curve) {
  std::vector<const experiment::ReferenceLine*> out;
  for (const experiment::ReferenceLine& r : curve.references)
    if (std::isfinite(r.accuracy)) out.push_back(&r);
  return out;
}

// Test accuracy: every band and reference line, padded by 5 % and rounded out to a round
// tick step, within [0, 1]; at least 0.02 wide so that a flat curve does not fill the plot
// with its noise.
struct AccuracyRange {
  double min = 0.0, max = 1.0, step = 0.2;
};
AccuracyRange accuracyRange(const DrawnCurve& drawn, const Curve& curve) {
  double lo = 1.0, hi = 0.0;
  for (const DrawnSeries& s : drawn.series)
    for (const CurvePoint& p : s.points) {
      lo = std::min(lo, std::clamp(p.mean - spread(p), 0.0, 1.0));
      hi = std::max(hi, std::clamp(p.mean + spread(p), 0.0, 1.0));
    }
  for (const experiment::ReferenceLine* r : drawnReferences(curve)) {
    lo = std::min(lo, std::clamp(r->accuracy, 0.0, 1.0));
    hi = std::max(hi, std::clamp(r->accuracy, 0.0, 1.0));
  }
  if (lo > hi) return {};  // nothing to show
  if (hi - lo < 0.02) {
    const double mid = std::clamp(0.5 * (lo + hi), 0.01, 0.99);
    lo = mid - 0.01;
    hi = mid + 0.01;
  }
  const double pad = 0.05 * (hi - lo);
  lo = std::max(0.0, lo - pad);
  hi = std::min(1.0, hi + pad);
  const double step = roundTickStep(hi - lo, 5);
  if (!(step > 0.0)) return {};
  lo = std::max(0.0, std::floor(lo / step + 1e-9) * step);
  hi = std::min(1.0, std::ceil(hi / step - 1e-9) * step);
  return {lo, hi, step};
}

// The accuracy range is a whole number of round steps, so fixed ticks, one per step, are
// round numbers with a labelled tick at both ends. (Dynamic ticks, setRangeWithRoundTicks(),
// are anchored a hair above zero and drop a top tick that is exactly a multiple of the step,
// here the 1.0 that a paper's accuracy axis ends on.) Bounded: at most ~10 ticks whatever
// the range, so no intermediate state of the axis can ask Qt for more.
void setAccuracyRange(QValueAxis* axis, const AccuracyRange& range) {
  const int steps = std::clamp(static_cast<int>(std::lround((range.max - range.min) / range.step)), 1, 20);
  axis->setTickType(QValueAxis::TicksFixed);
  axis->setRange(range.min, range.max);
  axis->setTickCount(steps + 1);
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(range.step) + 1e-9)));
  axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

std::pair<double, double> valueExtent(const DrawnCurve& drawn) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (const DrawnSeries& s : drawn.series)
    for (const CurvePoint& p : s.points) {
      lo = std::min(lo, p.value);
      hi = std::max(hi, p.value);
    }
  return {lo, hi};
}

std::pair<double, double> linearRange(double lo, double hi) {
  if (!(lo <= hi)) return {0.0, 1.0};
  double pad = 0.04 * (hi - lo);
  if (!(pad > 0.0)) pad = std::max(0.5, std::abs(lo) * 0.1);  // one value
  return {lo - pad, hi + pad};
}

QPen referencePen(std::size_t i) {
  static const Qt::PenStyle styles[] = {Qt::DashLine, Qt::DashDotLine, Qt::DotLine, Qt::DashDotDotLine};
  QPen pen(i == 0 ? QColor(40, 40, 40) : QColor(100, 100, 100));
  pen.setWidthF(1.6);
  pen.setStyle(styles[i % std::size(styles)]);
  return pen;
}

}  // namespace

UtilityChart::UtilityChart(QGraphicsItem* parent) : QChart(parent) {
  setTheme(QChart::ChartThemeLight);
  setAnimationOptions(QChart::NoAnimation);  // points arrive live: no tweening
  setBackgroundRoundness(0);
  setDropShadowEnabled(false);
  setBackgroundBrush(Qt::white);
  setPlotAreaBackgroundBrush(Qt::white);
  setPlotAreaBackgroundPen(QPen(QColor(60, 60, 60), 1.0));
  setPlotAreaBackgroundVisible(true);
  setTitleFont(chartFont(1.3, true));
  setTitleBrush(QColor(20, 20, 20));
  legend()->setAlignment(Qt::AlignBottom);
  legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
  legend()->setFont(chartFont(1.0));
  legend()->setLabelColor(QColor(30, 30, 30));

  axisY_ = new QValueAxis;
  axisY_->setTitleText(tr("Test accuracy"));
  // A short chart (the Ledger dock open on a laptop screen) must still show "0.85", not "…":
  // Qt Charts elides a label that does not fit its tick spacing, and accuracies are short.
  axisY_->setTruncateLabels(false);
  addAxis(axisY_, Qt::AlignLeft);
  styleChartAxis(axisY_);
  setAccuracyRange(axisY_, AccuracyRange{});
  setXAxisKind(true);

  caption_ = new QGraphicsTextItem(this);
  caption_->setFont(chartFont(0.9));
  caption_->setDefaultTextColor(QColor(70, 70, 70));
  caption_->setZValue(10);
  emptyText_ = new QGraphicsSimpleTextItem(tr("No finished trials yet"), this);
  emptyText_->setFont(chartFont(1.4));
  emptyText_->setBrush(QColor(110, 110, 110));
  emptyText_->setZValue(10);

  connect(this, &QGraphicsWidget::geometryChanged, this, &UtilityChart::layoutOverlays);
  connect(this, &QChart::plotAreaChanged, this, &UtilityChart::layoutOverlays);
  setCurve({});
}

UtilityChart::~UtilityChart() = default;

bool UtilityChart::showsNoData() const { return emptyText_->isVisible(); }

QString UtilityChart::caption() const { return caption_->toPlainText(); }

QString UtilityChart::description() const {
  return title().isEmpty() ? caption() : title() + QStringLiteral(". ") + caption();
}

void UtilityChart::setXAxisKind(bool log) {
  if (axisX_ && (qobject_cast<QLogValueAxis*>(axisX_) != nullptr) == log) return;
  QString titleText;
  if (axisX_) {
    titleText = axisX_->titleText();
    removeAxis(axisX_);
    delete axisX_;
  }
  if (log) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10.0);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(-1);  // 2, 3, …, 9 between powers of ten
    axis->setRange(0.1, 10.0);
    axisX_ = axis;
  } else {
    auto* axis = new QValueAxis;
    axisX_ = axis;
  }
  axisX_->setTitleText(titleText);
  addAxis(axisX_, Qt::AlignBottom);
  styleChartAxis(axisX_);
  if (auto* value = qobject_cast<QValueAxis*>(axisX_)) setRangeWithRoundTicks(value, 0.0, 1.0);
}

void UtilityChart::setCurve(const Curve& curve) {
  const DrawnCurve drawn = drawnCurve(curve);
  QStringList structure{curve.logAxis ? QStringLiteral("log") : QStringLiteral("linear"),
                        drawn.empty ? QStringLiteral("empty") : QStringLiteral("data")};
  if (!drawn.empty) {
    for (const DrawnSeries& s : drawn.series) structure << QStringLiteral("s:") + QString::fromStdString(s.key);
    for (const experiment::ReferenceLine* r : drawnReferences(curve))
      structure << QStringLiteral("r:") + QString::fromStdString(r->label);
  }
  if (structure != structure_) {
    structure_ = structure;
    rebuild(curve, drawn);
  }
  fillSeries(curve, drawn);
}

void UtilityChart::rebuild(const Curve& curve, const DrawnCurve& drawn) {
  removeAllSeries();  // deletes them; a band's edges are its children
  means_.clear();
  bands_.clear();
  references_.clear();
  setXAxisKind(curve.logAxis);
  if (drawn.empty) return;

  auto attach = [this](QAbstractSeries* series) {
    addSeries(series);
    series->attachAxis(axisX_);
    series->attachAxis(axisY_);
  };
  // Stacking and the legend follow insertion: bands at the back (no legend entry), the
  // means, the reference lines last (in the legend too, where papers put the baseline).
  for (std::size_t i = 0; i < drawn.series.size(); ++i) {
    const QColor colour = classColor(static_cast<int>(i));
    auto* band = new QAreaSeries;
    band->setUpperSeries(new QLineSeries(band));
    band->setLowerSeries(new QLineSeries(band));
    QColor fill = colour;
    fill.setAlphaF(0.16);
    band->setBrush(fill);
    band->setPen(Qt::NoPen);
    attach(band);
    for (QLegendMarker* marker : legend()->markers(band)) marker->setVisible(false);
    bands_.append(band);
  }
  for (std::size_t i = 0; i < drawn.series.size(); ++i) {
    auto* mean = new QLineSeries;
    QPen pen(classColor(static_cast<int>(i)));
    pen.setWidthF(2.2);
    mean->setPen(pen);
    mean->setPointsVisible(true);
    mean->setMarkerSize(7.0);
    attach(mean);
    means_.append(mean);
  }
  const auto references = drawnReferences(curve);
  for (std::size_t i = 0; i < references.size(); ++i) {
    auto* line = new QLineSeries;
    line->setPen(referencePen(i));
    attach(line);
    references_.append(line);
  }
}

void UtilityChart::fillSeries(const Curve& curve, const DrawnCurve& drawn) {
  setTitle(QString::fromStdString(curve.title).toHtmlEscaped());
  axisX_->setTitleText(QString::fromStdString(curve.axisTitle.empty() ? curve.axis : curve.axisTitle));

  QString caption;
  if (!drawn.empty) caption = tr("Lines: mean test accuracy over the repetitions; bands: \u00b1 one standard deviation.");
  if (!curve.note.empty()) caption += (caption.isEmpty() ? QString() : QStringLiteral(" ")) + QString::fromStdString(curve.note);
  caption_->setPlainText(caption);
  caption_->setVisible(!caption.isEmpty());
  emptyText_->setVisible(drawn.empty);

  // Ranges first, so that the reference lines can span the x axis.
  double xMin = 0.1, xMax = 10.0;
  if (auto* log = qobject_cast<QLogValueAxis*>(axisX_)) {
    const auto [lo, hi] = valueExtent(drawn);
    const LogRange range = drawn.empty ? logRange(0.1, 10.0, kMaxLogTicks) : logRange(lo, hi, kMaxLogTicks);
    // Base before range: a wider range at the old base could ask for many ticks.
    if (range.base > log->base()) log->setBase(range.base);
    log->setRange(range.min, range.max);
    if (range.base < log->base()) log->setBase(range.base);
    log->setMinorTickCount(range.base == 10.0 ? -1 : 0);
    xMin = range.min;
    xMax = range.max;
  } else if (auto* value = qobject_cast<QValueAxis*>(axisX_)) {
    const auto [lo, hi] = valueExtent(drawn);
    const auto [min, max] = drawn.empty ? std::pair{0.0, 1.0} : linearRange(lo, hi);
    setRangeWithRoundTicks(value, min, max);
    xMin = value->min();
    xMax = value->max();
  }
  setAccuracyRange(axisY_, drawn.empty ? AccuracyRange{} : accuracyRange(drawn, curve));

  if (drawn.empty) {
    layoutOverlays();
    return;
  }
  for (qsizetype i = 0; i < means_.size(); ++i) {
    const DrawnSeries& s = drawn.series[static_cast<std::size_t>(i)];
    QList<QPointF> mean, upper, lower;
    mean.reserve(static_cast<qsizetype>(s.points.size()));
    upper.reserve(mean.capacity());
    lower.reserve(mean.capacity());
    for (const CurvePoint& p : s.points) {
      mean.append(QPointF(p.value, p.mean));
      upper.append(QPointF(p.value, std::clamp(p.mean + spread(p), 0.0, 1.0)));
      lower.append(QPointF(p.value, std::clamp(p.mean - spread(p), 0.0, 1.0)));
    }
    means_[i]->setName(s.title);
    means_[i]->replace(mean);
    bands_[i]->upperSeries()->replace(upper);
    bands_[i]->lowerSeries()->replace(lower);
    bands_[i]->setName(tr("%1 \u00b1 1 sd").arg(s.title));
  }
  const auto references = drawnReferences(curve);
  for (qsizetype i = 0; i < references_.size(); ++i) {
    const double y = std::clamp(references[static_cast<std::size_t>(i)]->accuracy, 0.0, 1.0);
    references_[i]->setName(QString::fromStdString(references[static_cast<std::size_t>(i)]->label));
    references_[i]->replace(QList<QPointF>{QPointF(xMin, y), QPointF(xMax, y)});
  }
  layoutOverlays();
}

// The legend goes below the plot when its entries fit in one row there, else to the right
// (Qt's horizontal legend does not wrap: it would cut every label short). The caption sits
// in the chart's bottom margin, under the legend; the margin grows with the caption's
// wrapped height. "No finished trials yet" is centred on the plot area.
void UtilityChart::layoutOverlays() {
  const QRectF area = rect();
  const QFontMetricsF metrics(legend()->font());
  double legendWidth = 0;
  for (const QList<QLineSeries*>* list : {&means_, &references_})
    for (const QLineSeries* series : *list)  // label, symbol and spacing (~3 line heights)
      legendWidth += metrics.horizontalAdvance(series->name()) + 3 * metrics.height();
  const Qt::Alignment side = legendWidth <= area.width() - 2 * kSideMargin - 20 ? Qt::AlignBottom : Qt::AlignRight;
  if (legend()->alignment() != side) legend()->setAlignment(side);
  int captionHeight = 0;
  if (caption_->isVisible()) {
    caption_->setTextWidth(std::max(50.0, area.width() - 2 * kSideMargin));
    captionHeight = static_cast<int>(std::ceil(caption_->boundingRect().height()));
    caption_->setPos(kSideMargin, area.bottom() - kSideMargin / 2.0 - captionHeight);
  }
  const QMargins wanted(kSideMargin, kSideMargin, kSideMargin + 6,
                        kSideMargin / 2 + (captionHeight > 0 ? captionHeight + kCaptionGap : kSideMargin / 2));
  if (margins() != wanted) setMargins(wanted);
  const QRectF plot = plotArea();
  const QRectF text = emptyText_->boundingRect();
  emptyText_->setPos(plot.center() - QPointF(text.width() / 2, text.height() / 2));
}

QChart* makeUtilityChart(const Curve& curve) {
  auto* chart = new UtilityChart;
  chart->setCurve(curve);
  return chart;
}

namespace {

// Why a plot cannot be drawn to `path` at `size` here, before anything is drawn.
Status checkPlotRequest(const QString& path, QSize size) {
  const std::string where = path.toStdString();
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QLatin1String("svg") && suffix != QLatin1String("png"))
    return Error{ErrorKind::Usage,
                 (suffix.isEmpty() ? QStringLiteral("a plot needs a file extension")
                                   : QStringLiteral("cannot write a plot as '.%1'").arg(suffix))
                         .toStdString() +
                     ": use .png or .svg",
                 where, 0, {}};
  if (size.width() < 1 || size.height() < 1 || size.width() > kMaxImageSide || size.height() > kMaxImageSide)
    return Error{ErrorKind::Usage,
                 QStringLiteral("a plot of %1 \u00d7 %2 pixels cannot be drawn: each side must be 1 to %3")
                     .arg(size.width())
                     .arg(size.height())
                     .arg(kMaxImageSide)
                     .toStdString(),
                 where, 0, {}};
  if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
    return Error{ErrorKind::Internal, "drawing a plot needs a QApplication (Qt Charts is widget-based)", where, 0, {}};
  if (QThread::currentThread() != QCoreApplication::instance()->thread())
    return Error{ErrorKind::Internal, "plots are drawn on the application's main thread", where, 0, {}};
  return Ok{};
}

// The scene (the chart, `size` pixels) as SVG, into `file` (`where`, for errors).
Status writeSvg(QGraphicsScene& scene, const UtilityChart& chart, const Curve& curve, QSize size, QSaveFile& file,
                const std::string& where) {
  const QRectF rect(QPointF(0, 0), QSizeF(size));
  QBuffer buffer;
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator generator;
  generator.setOutputDevice(&buffer);
  // Text was laid out at the screen's logical DPI; the same resolution turns its point
  // sizes into the user units (pixels) everything else is drawn in.
  const QScreen* screen = QGuiApplication::primaryScreen();
  generator.setResolution(screen ? qRound(screen->logicalDotsPerInchY()) : 96);
  generator.setSize(size);
  generator.setViewBox(rect);
  generator.setTitle(curve.title.empty() ? QStringLiteral("Privacy\u2013utility curve") : QString::fromStdString(curve.title));
  generator.setDescription(chart.description());
  QPainter painter;
  if (!painter.begin(&generator))
    return Error{ErrorKind::Internal, "cannot start the SVG drawing", where, 0, {}};
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  scene.render(&painter, rect, rect);
  painter.end();
  // A generic family after the font's own, for viewers that do not have it.
  QString text = QString::fromUtf8(buffer.data());
  text.replace(QRegularExpression(QStringLiteral("font-family=\"([^\",]*)\"")),
               QStringLiteral("font-family=\"\\1, sans-serif\""));
  if (file.write(text.toUtf8()) < 0)
    return Error{ErrorKind::Internal, "cannot write the plot: " + file.errorString().toStdString(), where, 0, {}};
  return Ok{};
}

// The scene as a PNG image of `size` pixels, into `file` (`where`, for errors).
Status writePng(QGraphicsScene& scene, QSize size, QSaveFile& file, const std::string& where) {
  const QRectF rect(QPointF(0, 0), QSizeF(size));
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  {
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    scene.render(&painter, rect, rect);
  }
  if (!image.save(&file, "PNG"))
    return Error{ErrorKind::Internal, "cannot encode the PNG image: " + file.errorString().toStdString(), where, 0, {}};
  return Ok{};
}

}  // namespace

Status saveUtilityPlot(const Curve& curve, const QString& path, QSize size) {
  if (Status request = checkPlotRequest(path, size); !request) return request;
  const std::string where = path.toStdString();

  QGraphicsScene scene;
  scene.setBackgroundBrush(Qt::white);  // opaque to the edges, in SVG viewers too
  auto* chart = new UtilityChart;  // the scene owns it
  scene.addItem(chart);
  chart->setCurve(curve);
  const QRectF rect(QPointF(0, 0), QSizeF(size));
  chart->setGeometry(rect);
  // Lay out now (the layout request is otherwise posted to the event loop): twice, as the
  // caption's height sets the margins the second pass uses.
  for (int pass = 0; pass < 2; ++pass)
    if (chart->layout()) chart->layout()->activate();
  scene.setSceneRect(rect);

  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    return Error{ErrorKind::Internal, "cannot write the plot: " + file.errorString().toStdString(), where, 0, {}};
  const bool svg = QFileInfo(path).suffix().toLower() == QLatin1String("svg");
  if (Status written = svg ? writeSvg(scene, *chart, curve, size, file, where) : writePng(scene, size, file, where);
      !written)
    return written;
  if (!file.commit())
    return Error{ErrorKind::Internal, "cannot write the plot: " + file.errorString().toStdString(), where, 0, {}};
  return Ok{};
}

}  // namespace dpstudio::ui

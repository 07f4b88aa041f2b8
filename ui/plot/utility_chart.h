#pragma once
// The privacy–utility curve (core/experiment/curve.h) drawn as a figure, the one way every
// front end draws it: dpstudio-cli's `sweep --plot curve.png|svg` and the GUI's
// privacy–utility view.
//
// The figure, as in the papers: per series (in Curve::series order, one colour each from
// classColor(), Okabe & Ito first) the mean test accuracy as a line with point markers,
// drawn by increasing axis value, over a translucent band of ± one standard deviation
// (clamped to [0, 1]); each reference line (non-private accuracy) dashed across the whole
// x range; x linear or, with Curve::logAxis, logarithmic (base 10, ticks at the powers of
// ten, 2…9 as minor ticks); y "Test accuracy", a padded range round to the tick step that
// holds every band and reference line, never outside [0, 1]. Legend below the plot (bands
// have no entry of their own); under it a caption saying what line and band are, followed
// by Curve::note. A curve with nothing to draw says "No finished trials yet".
//
// Points that cannot be drawn are left out: a non-finite value or mean, a value ≤ 0 on a
// log axis. A non-finite or negative std counts as 0. Points whose series is not listed in
// Curve::series get a series of their own (titled by the key) after the listed ones.
//
// Qt Charts is built on QGraphicsWidget: everything here needs a QApplication (not just a
// QCoreApplication) and runs on its thread. Headless, use QT_QPA_PLATFORM=offscreen
// (makeCliApplication() in ui/plot/plot_application.h does).

#include <QChart>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

#include "core/experiment/curve.h"
#include "core/util/result.h"

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QGraphicsSimpleTextItem;
class QGraphicsTextItem;
class QLineSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace dpstudio::ui {

namespace detail {
struct DrawnCurve;  // the curve as drawn: series in order, drawable points by value
}  // namespace detail

// A chart that shows one Curve at a time and can be given a newer one as trials finish.
// It is a QChart (a QGraphicsWidget), owned as Qt owns charts: by the QChartView it is set
// on (QChartView::setChart), the QGraphicsScene it is added to, or whoever created it.
class UtilityChart : public QChart {
  Q_OBJECT

 public:
  explicit UtilityChart(QGraphicsItem* parent = nullptr);
  ~UtilityChart() override;

  // Shows `curve`. When the curve has the same series, references, axis kind and
  // emptiness as the one shown, the existing series get the new points (no flicker, a
  // series hidden from the legend stays hidden); otherwise the series are rebuilt. Either
  // way the chart holds exactly the series of this curve: calling it again does not grow
  // series(), axes() or the legend.
  void setCurve(const experiment::Curve& curve);

  // What is shown, for the views that embed the chart and for tests.
  const QList<QLineSeries*>& meanSeries() const { return means_; }         // per drawn series
  const QList<QAreaSeries*>& bandSeries() const { return bands_; }         // same order
  const QList<QLineSeries*>& referenceSeries() const { return references_; }
  QAbstractAxis* xAxis() const { return axisX_; }  // QLogValueAxis when logAxis, else QValueAxis
  QValueAxis* yAxis() const { return axisY_; }
  bool showsNoData() const;           // the "No finished trials yet" state
  QString caption() const;            // the text under the plot (line/band key and the note)
  QString description() const;        // title and caption in one line: an SVG's <desc>

 private:
  void rebuild(const experiment::Curve& curve, const detail::DrawnCurve& drawn);
  void fillSeries(const experiment::Curve& curve, const detail::DrawnCurve& drawn);
  void setXAxisKind(bool log);
  void layoutOverlays();

  QStringList structure_;  // what setCurve compares to decide between update and rebuild
  QList<QLineSeries*> means_;
  QList<QAreaSeries*> bands_;
  QList<QLineSeries*> references_;
  QAbstractAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  QGraphicsTextItem* caption_ = nullptr;
  QGraphicsSimpleTextItem* emptyText_ = nullptr;
};

// A new chart showing `curve`; the caller owns it (or hands it to a QChartView).
QChart* makeUtilityChart(const experiment::Curve& curve);

// Writes the figure of `curve` to `path`: ".png" (case-insensitive) as a `size` pixel
// image, ".svg" as vector graphics of `size` user units (title and caption in <title> and
// <desc>). The file is written atomically (a temporary file in the same folder, renamed
// over `path` only when complete): a failure leaves no file and an existing one untouched.
// Errors name the path: ErrorKind::Usage for another extension (the message lists .png and
// .svg) or an empty or huge size (over 20 000 pixels a side); ErrorKind::Internal when the
// file cannot be written, or when called without a QApplication or off its thread.
Status saveUtilityPlot(const experiment::Curve& curve, const QString& path, QSize size = {900, 600});

}  // namespace dpstudio::ui

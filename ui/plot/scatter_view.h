#pragma once
// The central plot: points in a 2-D view, one QScatterSeries per class and role (class
// names in the legend, colours from class_palette.h), optional closed curves in class
// colours (LMGC's ellipses), and an optional "underlay" image placed in data coordinates
// behind everything (the decision regions), which stays aligned with the axes on zoom,
// pan and resize because it is painted from the current axis ranges on every repaint.
//
// Navigation: rubber-band zoom with the left button, the wheel zooms about the cursor,
// middle button (or Shift + left) drags to pan, right-click zooms out, double-click or
// resetZoom() restores the full view. Clicking a class in the legend hides or shows all
// of that class's series; clicking a key ("test points", "class ellipses") hides or shows
// every series of that role.
// Exports what is shown, underlay included, to PNG (at the screen's device pixel ratio) or SVG.
//
// The view never owns the data: it copies the coordinates it draws.

#include <QChartView>
#include <QImage>
#include <QSet>
#include <QString>

#include "core/data/dataset.h"
#include "ui/dataset/dataset_document.h"
#include "ui/plot/scatter_series.h"

QT_BEGIN_NAMESPACE
class QLegendMarker;
class QValueAxis;
QT_END_NAMESPACE

namespace dpstudio::ui {

class ChartNavigation;

class ScatterView : public QChartView {
  Q_OBJECT

 public:
  explicit ScatterView(QWidget* parent = nullptr);

  // The dataset's rows in its view, one Points set per class. title goes above the plot;
  // the view's notPrivate flag adds a mark.
  void showData(const Dataset& dataset, const DatasetView& view, const QString& title);
  // Replaces what is shown (the underlay is cleared; the axes fit the points).
  void showContent(const ScatterContent& content);
  // Shows an empty plot with a message instead of points.
  void showMessage(const QString& message);
  // Replaces the points of the shown point set of `role` and class `classIndex` (one that
  // showContent() made, possibly empty), keeping the zoom, the underlay and what the legend
  // hid: for point sets that change while a model is shown (a private predictor's answers).
  // False if there is no such set.
  bool replacePoints(SeriesRole role, int classIndex, const QList<QPointF>& points);

  // The image drawn behind the series so that it covers `dataRect` (x: xMin..xMax,
  // y: yMin..yMax in data coordinates, y pointing up; the image's first row is at yMax).
  void setUnderlay(const QImage& image, const QRectF& dataRect);
  void clearUnderlay();
  const QImage& underlay() const { return underlay_; }
  const QRectF& underlayRect() const { return underlayRect_; }

  // The visible axis ranges (same convention as setUnderlay's dataRect).
  QRectF visibleDataRect() const;
  // The plot area's size in device pixels.
  QSize plotPixelSize() const;

  int seriesCount() const;
  int seriesCount(SeriesRole role) const;
  int pointCount() const;  // over all series
  int pointCount(SeriesRole role) const;
  QStringList seriesNames() const;
  // Whether the legend key of `role` has hidden every series of that role.
  bool isRoleHidden(SeriesRole role) const { return hiddenRoles_.contains(static_cast<int>(role)); }
  // What the legend click on a key does; also for whoever offers the same toggle elsewhere.
  void setRoleHidden(SeriesRole role, bool hidden);
  ChartNavigation* navigation() const { return navigation_; }

  // A warning after the title, kept across new content until replaced (e.g. "stale:
  // settings changed since"); empty to remove.
  void setTitleNote(const QString& note);
  // A grey line at the end of the title: what else is drawn (Draw N's spread). Empty: none.
  void setInfoNote(const QString& note);
  // The title as plain text, with its note.
  QString titleText() const;

  // Writes what is shown; false with *error set on failure.
  bool exportPng(const QString& path, QString* error = nullptr);
  bool exportSvg(const QString& path, QString* error = nullptr);
  // Picks the format from the suffix (".svg" or anything else as PNG).
  bool exportImage(const QString& path, QString* error = nullptr);

 public slots:
  void resetZoom();

 signals:
  // The axis ranges or the plot area's size changed (zoom, pan, resize, new content).
  void visibleAreaChanged();
  // A legend key hid or showed its role (drawings outside the series, such as the reference
  // boundaries in the underlay, follow it).
  void roleVisibilityChanged(dpstudio::ui::SeriesRole role, bool visible);

 protected:
  void drawBackground(QPainter* painter, const QRectF& rect) override;
  void resizeEvent(QResizeEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;

 private:
  void setHomeRanges(const ScatterContent& content);
  void resetChartZoom();
  void applyTitle();
  void setLightMarkers(bool on);
  void toggleFromLegend(QLegendMarker* marker);
  void applyVisibility();

  QValueAxis* axisX_;
  QValueAxis* axisY_;
  ChartNavigation* navigation_;
  QString plainTitle_;
  QString titleHtml_;
  QString titleNote_;
  QString infoNote_;
  bool lightMarkers_ = false;  // large datasets: markers drawn as images (scatter_markers.h)
  QPointF homeX_{0.0, 1.0};    // axis ranges that show everything (min, max)
  QPointF homeY_{0.0, 1.0};
  QSet<int> hiddenClasses_;
  QSet<int> hiddenRoles_;      // SeriesRole values hidden through their legend key
  QImage underlay_;
  QRectF underlayRect_;
};

}  // namespace dpstudio::ui

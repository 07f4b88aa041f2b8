#pragma once
// The dataset's rows in its 2-D view, one QScatterSeries per class (class names in the
// legend, colours from class_palette.h), axis titles from the view's axis names.
// Rubber-band zoom with the left button; double-click or resetZoom() restores the full view.
// Clicking a class in the legend hides or shows it.
// Exports what is shown to PNG (at the screen's device pixel ratio) or SVG.
//
// The view never owns the data: showData() copies the coordinates it draws.

#include <QChartView>
#include <QString>

#include "core/data/dataset.h"
#include "ui/dataset_document.h"

QT_BEGIN_NAMESPACE
class QLegendMarker;
class QValueAxis;
QT_END_NAMESPACE

namespace dpstudio::ui {

class ScatterView : public QChartView {
  Q_OBJECT

 public:
  explicit ScatterView(QWidget* parent = nullptr);

  // Replaces what is shown. title goes above the plot; the view's notPrivate flag adds a mark.
  void showData(const Dataset& dataset, const DatasetView& view, const QString& title);
  // Shows an empty plot with a message instead of points.
  void showMessage(const QString& message);

  int seriesCount() const;
  int pointCount() const;  // over all series
  QStringList seriesNames() const;

  // Writes what is shown; false with *error set on failure.
  bool exportPng(const QString& path, QString* error = nullptr);
  bool exportSvg(const QString& path, QString* error = nullptr);
  // Picks the format from the suffix (".svg" or anything else as PNG).
  bool exportImage(const QString& path, QString* error = nullptr);

 public slots:
  void resetZoom();

 protected:
  void mouseDoubleClickEvent(QMouseEvent* event) override;

 private:
  void setAxisRanges(const Eigen::MatrixXd& coords);
  void setLightMarkers(bool on);
  void toggleSeries(QLegendMarker* marker);

  QValueAxis* axisX_;
  QValueAxis* axisY_;
  QString plainTitle_;
  bool lightMarkers_ = false;  // large datasets: markers drawn as images (see .cpp)
};

}  // namespace dpstudio::ui

#pragma once
// Decision regions as a picture: core's RegionMap (decision_map.h) for a rectangle of the
// view, rendered with light versions of the class colours so that points drawn on top keep
// their contrast, and the boundaries between regions a little darker so that they read as
// lines. Pure functions of values: safe on worker threads (QImage is reentrant).

#include <QImage>
#include <QRectF>
#include <QSize>

#include <memory>

#include "core/learn/decision_map.h"

namespace dpstudio::ui {

// The region colour of a class: its palette colour mixed with white.
QRgb regionColor(int classIndex);

// The map as an image of map.width × map.height pixels; row 0 is the top (yMax).
// outline: darken the pixels on region boundaries (a coarse preview scaled up would turn
// them into thick steps, so previews leave them out).
QImage renderRegionMap(const RegionMap& map, bool outline = true);

struct RegionImage {
  QImage image;
  QRectF dataRect;  // view coordinates it covers: x xMin..xMax, y yMin..yMax (y up)
};

// Computes the regions of `model` at `theta` on `view` for dataRect, pixels.width() ×
// pixels.height() pixels, and renders them.
RegionImage computeRegionImage(const Model& model, const Eigen::VectorXd& theta,
                               const ViewProjection& view, const QRectF& dataRect, QSize pixels,
                               bool outline = true);

}  // namespace dpstudio::ui

#pragma once
// Decision regions as a picture: core's RegionMap (decision_map.h) for a rectangle of the
// view, rendered with light versions of the class colours so that points drawn on top keep
// their contrast, and the boundaries between regions a little darker so that they read as
// lines. A second model's boundaries (the non-private reference of a private model) can be
// drawn over them as dark dashes. Pure functions of values: safe on worker threads (QImage
// is reentrant).

#include <QImage>
#include <QRectF>
#include <QSize>

#include <memory>
#include <vector>

#include "core/learn/decision_map.h"
#include "core/learn/learner.h"

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

// The boundary pixels of `reference` (a map of the image's size) drawn over `image` in
// dark grey, dashed (on and off in 4-pixel blocks) and two pixels wide.
inline constexpr QRgb kReferenceBoundaryColor = 0xff303030;
void drawReferenceBoundaries(QImage& image, const RegionMap& reference);

// The boundary pixels of each of `spread`'s maps (private models of the same settings, each
// with fresh noise) drawn over `image` as faint one-pixel lines: where many draws agree the
// lines pile up dark, where the noise moves the boundary they fan out.
void drawSpreadBoundaries(QImage& image, const std::vector<RegionMap>& spread);

// The grid of pixels.width() × pixels.height() pixels over dataRect (view coordinates, y up).
ViewGrid viewGrid(const QRectF& dataRect, QSize pixels);

// Computes the regions of `model` at `theta` on `view` for dataRect, pixels.width() ×
// pixels.height() pixels, and renders them; with `reference`, its boundaries go on top.
// With `spread` (Draw N), those models' boundaries go on faintly, under the reference's.
RegionImage computeRegionImage(const Model& model, const Eigen::VectorXd& theta,
                               const ViewProjection& view, const QRectF& dataRect, QSize pixels,
                               bool outline = true, const TrainedModel* reference = nullptr,
                               const std::vector<TrainedModel>* spread = nullptr);

}  // namespace dpstudio::ui

#include "ui/plot/region_image.h"

#include <QColor>

#include <vector>

#include "ui/plot/class_palette.h"

namespace dpstudio::ui {
namespace {

QRgb mixWithWhite(const QColor& colour, double share) {
  const auto mix = [share](int channel) { return static_cast<int>(channel * share + 255.0 * (1.0 - share) + 0.5); };
  return qRgb(mix(colour.red()), mix(colour.green()), mix(colour.blue()));
}

// Light enough that filled markers of the same class still stand out on their own region,
// dark enough that neighbouring regions differ at a glance.
constexpr double kRegionShare = 0.22;
constexpr double kBoundaryShare = 0.55;

}  // namespace

QRgb regionColor(int classIndex) { return mixWithWhite(classColor(classIndex), kRegionShare); }

QImage renderRegionMap(const RegionMap& map, bool outline) {
  if (map.width <= 0 || map.height <= 0) return {};
  int classes = 0;
  for (int label : map.labels) classes = std::max(classes, label + 1);
  std::vector<QRgb> fill(static_cast<std::size_t>(classes));
  std::vector<QRgb> edge(static_cast<std::size_t>(classes));
  for (int k = 0; k < classes; ++k) {
    fill[static_cast<std::size_t>(k)] = regionColor(k);
    edge[static_cast<std::size_t>(k)] = mixWithWhite(classColor(k), kBoundaryShare);
  }
  QImage image(map.width, map.height, QImage::Format_RGB32);
  for (int row = 0; row < map.height; ++row) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(row));
    for (int column = 0; column < map.width; ++column) {
      const int label = map.at(row, column);
      // A pixel whose right or lower neighbour belongs to another class is on a boundary.
      const bool boundary = outline && ((column + 1 < map.width && map.at(row, column + 1) != label) ||
                            (row + 1 < map.height && map.at(row + 1, column) != label));
      const auto k = static_cast<std::size_t>(std::max(label, 0));
      line[column] = boundary ? edge[k] : fill[k];
    }
  }
  return image;
}

void drawReferenceBoundaries(QImage& image, const RegionMap& reference) {
  if (image.width() != reference.width || image.height() != reference.height) return;
  if (image.format() != QImage::Format_RGB32) image = image.convertToFormat(QImage::Format_RGB32);
  constexpr int kDash = 4;
  for (int row = 0; row < reference.height; ++row) {
    auto* line = reinterpret_cast<QRgb*>(image.scanLine(row));
    for (int column = 0; column < reference.width; ++column) {
      // Blocks of a checkerboard: a boundary in any direction but the exact diagonals
      // passes alternately through "on" and "off" blocks, so it reads as dashes.
      if ((row / kDash + column / kDash) % 2 != 0) continue;
      const int label = reference.at(row, column);
      // Both sides of a change of label: two pixels wide, visible over the region colours.
      const bool boundary = (column + 1 < reference.width && reference.at(row, column + 1) != label) ||
                            (row + 1 < reference.height && reference.at(row + 1, column) != label) ||
                            (column > 0 && reference.at(row, column - 1) != label) ||
                            (row > 0 && reference.at(row - 1, column) != label);
      if (boundary) line[column] = kReferenceBoundaryColor;
    }
  }
}

void drawSpreadBoundaries(QImage& image, const std::vector<RegionMap>& spread) {
  if (spread.empty()) return;
  if (image.format() != QImage::Format_RGB32) image = image.convertToFormat(QImage::Format_RGB32);
  // Each draw darkens its boundary pixels by a fixed share towards the line colour, so N
  // coinciding boundaries read as one dark line and scattered ones as a faint fan.
  constexpr double kShare = 0.35;
  const QColor ink(0x30, 0x30, 0x30);
  for (const RegionMap& map : spread) {
    if (image.width() != map.width || image.height() != map.height) continue;
    for (int row = 0; row < map.height; ++row) {
      auto* line = reinterpret_cast<QRgb*>(image.scanLine(row));
      for (int column = 0; column < map.width; ++column) {
        const int label = map.at(row, column);
        const bool boundary = (column + 1 < map.width && map.at(row, column + 1) != label) ||
                              (row + 1 < map.height && map.at(row + 1, column) != label);
        if (!boundary) continue;
        const QRgb p = line[column];
        line[column] = qRgb(static_cast<int>(qRed(p) + kShare * (ink.red() - qRed(p))),
                            static_cast<int>(qGreen(p) + kShare * (ink.green() - qGreen(p))),
                            static_cast<int>(qBlue(p) + kShare * (ink.blue() - qBlue(p))));
      }
    }
  }
}

ViewGrid viewGrid(const QRectF& dataRect, QSize pixels) {
  ViewGrid grid;
  grid.xMin = dataRect.left();
  grid.xMax = dataRect.right();
  grid.yMin = dataRect.top();
  grid.yMax = dataRect.bottom();
  grid.width = pixels.width();
  grid.height = pixels.height();
  return grid;
}

RegionImage computeRegionImage(const Model& model, const Eigen::VectorXd& theta,
                               const ViewProjection& view, const QRectF& dataRect, QSize pixels,
                               bool outline, const TrainedModel* reference,
                               const std::vector<TrainedModel>* spread) {
  const ViewGrid grid = viewGrid(dataRect, pixels);
  QImage image = renderRegionMap(computeDecisionRegions(model, theta, view, grid), outline);
  if (spread) {
    std::vector<RegionMap> maps;
    maps.reserve(spread->size());
    for (const TrainedModel& draw : *spread)
      if (draw.model) maps.push_back(computeDecisionRegions(*draw.model, draw.theta, view, grid));
    drawSpreadBoundaries(image, maps);
  }
  if (reference && reference->model)
    drawReferenceBoundaries(image, computeDecisionRegions(*reference->model, reference->theta, view, grid));
  return RegionImage{std::move(image), dataRect};
}

}  // namespace dpstudio::ui

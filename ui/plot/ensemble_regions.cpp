#include "ui/plot/ensemble_regions.h"

#include <algorithm>
#include <vector>

namespace dpstudio::ui {

qint64 maxVotePixels(Index teachers) {
  constexpr qint64 kTeacherPixels = 40'000'000;
  constexpr qint64 kMinimum = 64 * 64;
  return std::max<qint64>(kMinimum, kTeacherPixels / std::max<Index>(teachers, 1));
}

std::optional<RegionImage> computeVoteRegionImage(const predict::TeacherEnsemble& teachers,
                                                  const ViewProjection& view, const QRectF& dataRect, QSize pixels,
                                                  const Progress& progress) {
  const ViewGrid grid = viewGrid(dataRect, pixels);
  const Index classes = teachers.model->classes();
  const std::size_t cells = static_cast<std::size_t>(grid.width) * static_cast<std::size_t>(grid.height);
  // votes[cell * C + k]: how many teachers predict class k at the cell.
  std::vector<int> votes(cells * static_cast<std::size_t>(classes), 0);
  for (const Eigen::VectorXd& theta : teachers.thetas) {
    if (progress.cancelled()) return std::nullopt;
    const RegionMap map = computeDecisionRegions(*teachers.model, theta, view, grid);
    for (std::size_t cell = 0; cell < cells; ++cell)
      ++votes[cell * static_cast<std::size_t>(classes) + static_cast<std::size_t>(map.labels[cell])];
  }
  RegionMap plurality;
  plurality.width = grid.width;
  plurality.height = grid.height;
  plurality.labels.resize(cells);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const auto first = votes.begin() + static_cast<std::ptrdiff_t>(cell * static_cast<std::size_t>(classes));
    // max_element returns the first maximum: ties go to the lower class.
    plurality.labels[cell] = static_cast<int>(std::max_element(first, first + classes) - first);
  }
  return RegionImage{renderRegionMap(plurality), dataRect};
}

}  // namespace dpstudio::ui

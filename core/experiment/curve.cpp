#include "core/experiment/curve.h"

namespace dpstudio::experiment {

Curve overlayCurves(const std::vector<Curve>& curves) {
  if (curves.empty()) return {};
  Curve out = curves.front();
  for (std::size_t k = 1; k < curves.size(); ++k) {
    const Curve& next = curves[k];
    if (next.axis != out.axis) continue;
    const std::string tag = " #" + std::to_string(k + 1);
    const std::string mark = " (sweep " + std::to_string(k + 1) + ")";
    for (const SeriesInfo& series : next.series) out.series.push_back({series.key + tag, series.title + mark});
    for (CurvePoint point : next.points) {
      point.series += tag;
      out.points.push_back(std::move(point));
    }
    for (ReferenceLine line : next.references) {
      line.label += mark;
      out.references.push_back(std::move(line));
    }
  }
  if (curves.size() > 1) out.title += " \u2014 " + std::to_string(curves.size()) + " sweeps";
  return out;
}

}  // namespace dpstudio::experiment

#include "app/cli/sweep_plot.h"

#include "ui/plot/utility_chart.h"

namespace dpstudio::cli {

Status renderSweepPlot(const experiment::Curve& curve, const QString& path) {
  return ui::saveUtilityPlot(curve, path);
}

}  // namespace dpstudio::cli

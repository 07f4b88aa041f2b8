#pragma once
// Renders a sweep's curve to PNG or SVG for `--plot`, in the look of the GUI's
// privacy–utility view (ui/plot/utility_chart.h draws both). Needs the QApplication that main()
// creates for `sweep --plot` and `sweep-merge --plot`.

#include <QString>

#include "core/experiment/curve.h"
#include "core/util/result.h"

namespace dpstudio::cli {

Status renderSweepPlot(const experiment::Curve& curve, const QString& path);

}  // namespace dpstudio::cli

#pragma once
// The decision regions of subsample-and-aggregate's teachers (docs/algorithms.md §3 G) as a
// picture: at every pixel, the class most of the T non-private teachers predict (ties to the
// lower class, as the comparison beside the private answers counts them). It shows where the
// private vote leans, NOT what it answers: the released label is sampled with probability
// ∝ exp(β·votes), so near a boundary it is often the other class. The decision view labels
// the image "not released".
//
// Each teacher's map is core's (decision_map.h: exact on the plane for linear models and
// LMGC), so the cost is T maps; the caller keeps T·pixels moderate (maxVotePixels()).
// A pure function of values: safe on a worker thread; it stops early when cancelled.

#include <optional>

#include "core/prediction/subsample_aggregate.h"
#include "core/util/progress.h"
#include "ui/plot/region_image.h"

namespace dpstudio::ui {

// The largest pixel count worth a vote image of `teachers` maps (about 4·10⁷ teacher-pixels,
// a fraction of a second); the image is drawn stretched to the plot.
qint64 maxVotePixels(Index teachers);

// nullopt when cancelled.
std::optional<RegionImage> computeVoteRegionImage(const predict::TeacherEnsemble& teachers,
                                                  const ViewProjection& view, const QRectF& dataRect, QSize pixels,
                                                  const Progress& progress);

}  // namespace dpstudio::ui

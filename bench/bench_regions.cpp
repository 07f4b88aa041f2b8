// The decision view's region map at 512 × 512 pixels, which the GUI recomputes on every zoom
// and pan (issue 3's target: 10 classes within 50 ms). Two paths (decision_map.h):
//   exact   softmax on digits (10 classes, degree-1 scores fitted on the plane)
//   mapped  softmax on moons through D = 200 random Fourier features (point by point)
// and an opened bundle's (regions_through_preprocessing.h: every pixel's raw row through the
// whole preprocessing, no shortcut):
//   bundle  the same moons model, on the raw data's view plane
// Usage: bench_regions [repeats]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/sources/prepare.h"
#include "core/sources/source.h"
#include "core/learn/decision_map.h"
#include "core/learn/learner.h"
#include "core/learn/model_view.h"
#include "core/learn/regions_through_preprocessing.h"

using namespace dpstudio;

namespace {

template <typename T>
T orDie(Result<T> result) {
  if (!result) {
    std::fprintf(stderr, "%s\n", result.error().toString().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

void run(const char* name, const std::string& spec, const PreprocessSpec& preprocess, int repeats) {
  SplitAndPreprocess settings;
  settings.preprocess = preprocess;
  const PreparedData data = orDie(prepareLoaded(orDie(openDataset(spec)), std::nullopt, settings));
  const TrainedModel m = orDie(trainModel({ModelKind::Softmax, 1e-4, 0.5}, data.train.X, data.train.y,
                                          data.train.classes()));
  const ModelViewGeometry geometry = orDie(makeModelViewGeometry(data, {}, *m.model, m.theta));
  ViewGrid grid;
  grid.xMin = geometry.trainCoords.col(0).minCoeff();
  grid.xMax = geometry.trainCoords.col(0).maxCoeff();
  grid.yMin = geometry.trainCoords.col(1).minCoeff();
  grid.yMax = geometry.trainCoords.col(1).maxCoeff();
  grid.width = grid.height = 512;
  double best = 1e300;
  bool exact = false;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const RegionMap map = computeDecisionRegions(*m.model, m.theta, geometry.projection, grid);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    exact = map.exact;
  }
  std::printf("regions %-7s %-14s classes=%ld  512x512  %s  best_ms=%.1f\n", name, spec.c_str(),
              static_cast<long>(data.train.classes()), exact ? "exact" : "pointwise", 1e3 * best);
  if (!preprocess.randomFeatures) return;

  // The same model as an opened bundle draws it: on the raw dataset's plane, over its points.
  const Dataset raw = orDie(openDataset(spec));
  const ViewProjection rawView = orDie(makeViewProjection(raw, {}));
  const Eigen::MatrixXd coords = rawView.project(raw.X);
  ViewGrid rawGrid{coords.col(0).minCoeff(), coords.col(0).maxCoeff(), coords.col(1).minCoeff(),
                   coords.col(1).maxCoeff(), 512, 512};
  best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const RegionMap map =
        orDie(computeRegionsThroughPreprocessing(data.preprocessor, *m.model, m.theta, rawView, rawGrid));
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("regions %-7s %-14s classes=%ld  512x512  through preprocessing  best_ms=%.1f\n", "bundle",
              spec.c_str(), static_cast<long>(data.train.classes()), 1e3 * best);
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  PreprocessSpec digits;
  digits.unitRows = true;
  run("exact", "builtin:digits", digits, repeats);
  PreprocessSpec moons;
  moons.normBound = 3.0;
  moons.randomFeatures = RandomFeaturesSpec{200, 4.0, 1};
  run("mapped", "builtin:moons", moons, repeats);
  return 0;
}

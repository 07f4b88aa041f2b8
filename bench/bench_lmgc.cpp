// Non-private LMGC on every built-in dataset as the GUI trains it (issues 9 and 14): the
// dataset's public norm bound if it has one, test fraction 0.25, split seed 1, λ =
// defaultLambda(LMGC), tolerance 1e-8, 3000 iterations (tests/models/test_lmgc_builtin.cpp).
// Prints, per dataset: termination, iterations, evaluations, seconds (best of the repeats),
// J, the reported stopping measure, for comparison the original coordinates'
// projected-gradient step ‖P(Φ − ∇J) − Φ‖, the relative duality gap (J − D)/J (lmgc_dual.h:
// an upper bound on J's relative distance from the minimum), the ranks of the Ψ_c, and how
// many class ellipses the decision view draws (S shadow, s section, c centre section, T strip, -
// not drawn) on the default view and on the PCA view. --unit-rows scales rows to norm 1;
// --half-of-class draws the contours the GUI draws for a non-private model (model_view.h).
// With --verify=N,
// N iterations of plain projected gradient (original coordinates) from the result show
// whether J can still be lowered, i.e. how far from the minimizer the result is.
// --components=M trains a mixture of M Gaussians per class (issue 34; no duality gap then).
// Usage: bench_lmgc [dataset|all] [repeats] [maxIterations] [--verify=N] [--unit-rows] [--half-of-class] [--tolerance=t] [--lambda=l] [--components=M]

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>


#include "core/learn/learner.h"
#include "core/learn/model_view.h"
#include "core/linalg/psd.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/models/ellipsoid.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_dual.h"
#include "core/models/objective.h"
#include "core/optim/projected_gradient.h"
#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/sources/public_bounds.h"

using namespace dpstudio;

namespace {

PreparedData prepareAsTheGuiDoes(const std::string& name, bool unitRows) {
  auto data = loadBuiltin(name);
  if (!data) {
    std::fprintf(stderr, "%s\n", data.error().toString().c_str());
    std::exit(1);
  }
  SplitAndPreprocess split;
  if (auto bound = publicNormBound("builtin:" + name)) split.preprocess.normBound = bound->bound;
  split.preprocess.unitRows = unitRows;
  split.preprocess.scaleToData = true;  // as the GUI's non-private LMGC: only where nothing above scales the rows
  auto prepared = prepareLoaded(std::move(data).value(), std::nullopt, split);
  if (!prepared) {
    std::fprintf(stderr, "%s\n", prepared.error().toString().c_str());
    std::exit(1);
  }
  return std::move(prepared).value();
}

struct Settings {
  int repeats = 3;
  int maxIterations = TrainControl{}.maxIterations;
  int verify = 0;
  bool unitRows = false;
  EllipseLevelRule levels = EllipseLevelRule::OneMargin;
  double tolerance = TrainControl{}.tolerance;
  double lambda = defaultLambda(ModelKind::Lmgc);
  int components = 1;
};

// "drawn/classes (kinds)" for the class ellipses on a view, as the decision view draws them.
std::string ellipsesOn(const PreparedData& data, const ViewSpec& view, const Model& model, const Eigen::VectorXd& theta,
                       EllipseLevelRule levels) {
  auto geometry = makeModelViewGeometry(data, view, model, theta, levels);
  if (!geometry) return "error: " + geometry.error().toString();
  int drawn = 0;
  std::string kinds;
  for (const ViewEllipse& e : geometry.value().ellipses) {
    drawn += e.drawing != EllipseDrawing::NotDrawn ? 1 : 0;
    kinds += e.drawing == EllipseDrawing::Shadow ? 'S' : e.drawing == EllipseDrawing::Section ? 's'
             : e.drawing == EllipseDrawing::CentreSection ? 'c' : e.drawing == EllipseDrawing::Strip ? 'T' : '-';
  }
  return std::to_string(drawn) + "/" + std::to_string(geometry.value().ellipses.size()) + " (" + kinds + ")";
}

void run(const std::string& name, const Settings& settings) {
  const int repeats = settings.repeats;
  const PreparedData data = prepareAsTheGuiDoes(name, settings.unitRows);
  LearnerSpec spec;
  spec.kind = ModelKind::Lmgc;
  spec.lambda = settings.lambda;
  spec.components = settings.components;
  TrainControl control;
  control.maxIterations = settings.maxIterations;
  control.tolerance = settings.tolerance;
  double best = 1e300;
  TrainedModel model;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    auto trained = trainModel(spec, data.train.X, data.train.y, data.train.classes(), control);
    if (!trained) {
      std::fprintf(stderr, "%s\n", trained.error().toString().c_str());
      std::exit(1);
    }
    model = std::move(trained).value();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, seconds);
  }
  const auto& lmgc = dynamic_cast<const LmgcModel&>(*model.model);
  const ObjectiveTerms terms{LossScale::Sum, spec.lambda, lmgc.traceRegularizer(spec.lambda)};
  const Objective objective(lmgc, data.train.X, data.train.y, terms);
  Eigen::VectorXd grad;
  const double value = objective(model.theta, grad);
  double squared = 0;
  for (Eigen::Index c = 0; c < lmgc.blocks(); ++c) {
    const Eigen::MatrixXd phi = lmgc.blockMatrix(model.theta, c);
    const Eigen::MatrixXd g = lmgc.blockMatrix(grad, c);
    squared += (projectPsd(phi - g) - phi).squaredNorm();
  }
  if (settings.verify > 0) {
    // Plain projected gradient (original coordinates) from the result: can it still lower J?
    Eigen::VectorXd polished = model.theta;
    ProjectedGradientOptions options;
    options.maxIterations = settings.verify;
    options.absoluteTolerance = 1e-12;
    options.relativeTolerance = 1e-14;
    const OptimizeSummary s = minimizeProjectedGradient(objective, [&](Eigen::VectorXd& t) { lmgc.project(t); }, polished, options);
    std::printf("  verify: plain PG from the result: J %.10g -> %.10g after %d iterations; train accuracy %.4f\n", value, s.objective, s.iterations,
                accuracy(lmgc, model.theta, data.train.X, data.train.y));
  }
  // The dual (lmgc_dual.h) is the single-Gaussian problem's.
  const double gap = lmgc.components() == 1
                         ? lmgcDualityGap(lmgc, data.train.X, data.train.y, terms, model.theta).relative()
                         : std::nan("");
  std::string ranks;
  for (Eigen::Index c = 0; c < lmgc.blocks(); ++c) {
    const Eigen::MatrixXd psi = lmgc.blockMatrix(model.theta, c).topLeftCorner(lmgc.inputDim(), lmgc.inputDim());
    const Eigen::VectorXd ev = symmetricEigenvalues(psi);
    const double top = std::max(ev.maxCoeff(), 0.0);
    ranks += (c ? "," : "") + std::to_string((ev.array() > 1e-9 * top).count());
  }
  ViewSpec defaultView;  // ui/dataset/dataset_controller.cpp: two features (the suggested ones,
                         // else the first), or a random plane past 10
  if (data.train.features() > 10) defaultView.kind = ViewKind::RandomProjection;
  if (const auto suggested = suggestedViewFeatures("builtin:" + name)) {
    defaultView.featureA = suggested->first;
    defaultView.featureB = suggested->second;
  }
  ViewSpec pca;
  pca.kind = ViewKind::Pca;
  std::printf("%-14s n=%-5ld d=%-3ld C=%-2ld %-15s iterations=%-5d evaluations=%-6d seconds=%.3f  test accuracy=%.4f  J=%.10g  measure=%.2e  original=%.2e  gap=%.2e  rank(Psi)=%s  ellipses default=%s pca=%s\n",
              name.c_str(), static_cast<long>(data.train.rows()), static_cast<long>(data.train.features()),
              static_cast<long>(data.train.classes()), terminationName(model.summary.termination).c_str(),
              model.summary.iterations, model.summary.evaluations, best,
              accuracy(lmgc, model.theta, data.test.X, data.test.y), value, model.summary.gradientNorm,
              std::sqrt(squared), gap, ranks.c_str(), ellipsesOn(data, defaultView, lmgc, model.theta, settings.levels).c_str(),
              ellipsesOn(data, pca, lmgc, model.theta, settings.levels).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::string which = "all";
  Settings settings;
  int positional = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--components=", 0) == 0) {
      settings.components = std::atoi(arg.c_str() + 13);
    } else if (arg.rfind("--lambda=", 0) == 0) {
      settings.lambda = std::atof(arg.c_str() + 9);
    } else if (arg.rfind("--tolerance=", 0) == 0) {
      settings.tolerance = std::atof(arg.c_str() + 12);
    } else if (arg == "--half-of-class") {
      settings.levels = EllipseLevelRule::HalfOfClass;
    } else if (arg == "--unit-rows") {
      settings.unitRows = true;
    } else if (arg.rfind("--verify=", 0) == 0) {
      settings.verify = std::atoi(arg.c_str() + 9);
    } else if (positional == 0) {
      which = arg;
      ++positional;
    } else if (positional == 1) {
      settings.repeats = std::atoi(arg.c_str());
      ++positional;
    } else {
      settings.maxIterations = std::atoi(arg.c_str());
    }
  }
  for (const char* name : {"iris", "wine", "breast_cancer", "digits", "blobs", "moons", "xor"})
    if (which == "all" || which == name) run(name, settings);
  return 0;
}

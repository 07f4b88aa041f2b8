// The MNIST softmax fit (λ = 1e-5, mean scale, the CLI's tolerance 1e-8) under several
// solver settings, from zero each time: L-BFGS with memory m (m > 0), or the gradient polish
// alone with memory −m (m < 0: it takes quasi-Newton steps from directional derivatives only,
// see core/optim/gradient_polish.h). Prints termination, iterations, evaluations, the final
// gradient norm, the objective and the time of each, to choose the defaults by measurement.
// Usage: DPSTUDIO_DATA_DIR=… bench_solver [m …]   (default: 5 10 20 -10)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/mnist_rows.h"
#include "core/models/linear.h"
#include "core/models/objective.h"
#include "core/optim/gradient_polish.h"
#include "core/optim/lbfgs.h"

using namespace dpstudio;

int main(int argc, char** argv) {
  const char* dir = std::getenv("DPSTUDIO_DATA_DIR");
  if (!dir) {
    std::fprintf(stderr, "set DPSTUDIO_DATA_DIR to the folder with MNIST's IDX files\n");
    return 2;
  }
  auto mnist = bench::readMnistUnitRows(dir);
  if (!mnist) {
    std::fprintf(stderr, "%s\n", mnist.error().toString().c_str());
    return 1;
  }
  const Dataset& data = mnist.value();
  const SoftmaxModel model(data.features(), data.classes());
  const Objective objective(model, data.X, data.y, {LossScale::Mean, 1e-5, {}});
  constexpr double kTolerance = 1e-8;

  std::vector<int> settings;
  for (int k = 1; k < argc; ++k) settings.push_back(std::atoi(argv[k]));
  if (settings.empty()) settings = {5, 10, 20, -10};
  for (const int m : settings) {
    if (m == 0) continue;
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(model.parameterCount());
    const auto start = std::chrono::steady_clock::now();
    OptimizeSummary summary;
    if (m > 0) {
      LbfgsOptions options;
      options.memory = m;
      options.relativeTolerance = options.absoluteTolerance = kTolerance;
      summary = minimizeLbfgs(objective, theta, options);
    } else {
      PolishOptions options;
      options.memory = -m;
      options.relativeTolerance = options.absoluteTolerance = kTolerance;
      options.maxIterations = 3000;
      summary = polishGradient(objective, theta, options);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-8s m=%-3d %-18s iterations %4d  evaluations %4d  gradient %.3g  objective %.10f  %.1f s\n",
                m > 0 ? "L-BFGS" : "polish", m > 0 ? m : -m, terminationName(summary.termination).c_str(),
                summary.iterations, summary.evaluations, summary.gradientNorm, summary.objective, seconds);
    std::fflush(stdout);
  }
}

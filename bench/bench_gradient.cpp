// One loss-and-gradient evaluation of softmax regression (the work of every L-BFGS iteration),
// timed on MNIST's training rows (DPSTUDIO_DATA_DIR set) or on generated rows of MNIST's
// shape and density (60 000 × 784, 19 % non-zero), with 1 thread and with all of them.
// Reports the best of the repeats in milliseconds and checks that 1 and all threads give the
// same bits.
// Usage: [DPSTUDIO_DATA_DIR=…] bench_gradient [repeats (20)]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/mnist_rows.h"
#include "core/models/feature_matrix.h"
#include "core/models/linear.h"
#include "core/random/rng.h"
#include "core/util/parallel.h"

using namespace dpstudio;

namespace {

Dataset mnistOrGenerated() {
  if (const char* dir = std::getenv("DPSTUDIO_DATA_DIR")) {
    auto mnist = bench::readMnistUnitRows(dir);
    if (mnist) return std::move(mnist).value();
    std::fprintf(stderr, "MNIST not read (%s): generated rows instead\n", mnist.error().toString().c_str());
  }
  Dataset data;
  const Index n = 60000, d = 784;
  data.X = Eigen::MatrixXd::Zero(n, d);
  data.y.resize(n);
  Rng rng(7);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < d; ++j)
      if (rng.uniform01() < 0.19) data.X(i, j) = rng.uniform01();
    data.X.row(i) /= std::max(1e-12, data.X.row(i).norm());
    data.y[i] = static_cast<int>(i % 10);
  }
  for (int c = 0; c < 10; ++c) data.classNames.push_back(std::to_string(c));
  return data;
}

double bestMilliseconds(const SoftmaxModel& model, const Eigen::VectorXd& theta, const FeatureMatrix& X,
                        const Eigen::VectorXi& y, int repeats, Eigen::VectorXd& grad) {
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    model.lossSumOnRows(theta, X, y, &grad);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int repeats = argc > 1 ? std::atoi(argv[1]) : 20;
  const Dataset data = mnistOrGenerated();
  const FeatureMatrix X = FeatureMatrix::withSparseIfWorthIt(data.X);
  const SoftmaxModel model(data.features(), 10);
  Rng rng(3);
  Eigen::VectorXd theta(model.parameterCount());
  for (Index k = 0; k < theta.size(); ++k) theta[k] = 0.1 * rng.normal();
  Eigen::VectorXd one, all;
  setWorkerThreads(1);
  const double single = bestMilliseconds(model, theta, X, data.y, repeats, one);
  setWorkerThreads(0);
  const double parallel = bestMilliseconds(model, theta, X, data.y, repeats, all);
  std::printf("softmax loss+gradient, %lld x %lld (%s, %.1f%% non-zero): 1 thread %.1f ms, %d threads %.1f ms; "
              "same bits: %s\n",
              static_cast<long long>(data.rows()), static_cast<long long>(data.features()),
              X.hasSparse() ? "sparse rows" : "dense", 100.0 * static_cast<double>((data.X.array() != 0).count()) /
                                                            static_cast<double>(data.X.size()),
              single, workerThreads(), parallel, one == all ? "yes" : "NO");
  return one == all ? 0 : 1;
}

// Peak memory of training against the size of the training data as float64 (issue 14's
// target: at most 2×). One measurement per process, because the peak (getrusage's
// ru_maxrss) never goes down:
//
//   bench_memory generated [N] [d]   N × d dense rows made in memory (default 1 000 000 × 100),
//                                    logistic regression, λ = 1e-4
//   bench_memory mnist DIR           MNIST from its four IDX files as paper 003 prepares it
//                                    (unit rows), softmax, λ = 1e-5, the 10 000 test rows too
//
// Prints one line: peak RSS, the training data's float64 size, their ratio, the fit's time.

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/learn/learner.h"
#include "core/random/rng.h"
#include "core/sources/prepare.h"

using namespace dpstudio;

namespace {

double peakRssMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

void report(const char* what, const Dataset& train, const Result<TrainedModel>& trained, double seconds) {
  const double dataMegabytes = static_cast<double>(train.X.size()) * 8.0 / (1024.0 * 1024.0);
  const double peak = peakRssMegabytes();
  std::printf("bench_memory %s rows=%lld features=%lld data_mb=%.0f peak_rss_mb=%.0f ratio=%.2f fit_seconds=%.2f %s\n",
              what, static_cast<long long>(train.rows()), static_cast<long long>(train.features()), dataMegabytes,
              peak, peak / dataMegabytes, seconds,
              trained ? terminationName(trained.value().summary.termination).c_str()
                      : trained.error().toString().c_str());
}

template <class Fit>
Result<TrainedModel> timed(Fit fit, double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  auto trained = fit();
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return trained;
}

int generated(Index n, Index d) {
  Dataset train;
  train.X.resize(n, d);
  train.y.resize(n);
  train.classNames = {"0", "1"};
  Rng rng(7);
  Eigen::VectorXd w(d);
  for (Index j = 0; j < d; ++j) w[j] = rng.normal();
  // Row by row into the one matrix (column-major: a row is strided, but nothing else is
  // allocated): features in the unit ball, labels from a noisy hyperplane.
  Eigen::VectorXd row(d);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < d; ++j) row[j] = rng.normal();
    row /= std::max(1.0, row.norm());
    train.X.row(i) = row.transpose();
    train.y[i] = row.dot(w) + 0.1 * rng.normal() > 0 ? 1 : 0;
  }
  double seconds = 0;
  auto trained = timed([&] { return trainModel({ModelKind::LogisticRegression, 1e-4, 0.5}, train.X, train.y, 2); },
                       seconds);
  report("generated", train, trained, seconds);
  return trained ? 0 : 1;
}

int mnist(const std::string& dir) {
  auto prepared = prepareData(mnistRequest(dir));
  if (!prepared) {
    std::fprintf(stderr, "%s\n", prepared.error().toString().c_str());
    return 1;
  }
  const Dataset& train = prepared.value().train;
  double seconds = 0;
  auto trained = timed([&] { return trainModel({ModelKind::Softmax, 1e-5, 0.5}, train.X, train.y, train.classes()); },
                       seconds);
  report("mnist", train, trained, seconds);
  return trained ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "generated";
  if (mode == "generated")
    return generated(argc > 2 ? std::atoll(argv[2]) : 1000000, argc > 3 ? std::atoll(argv[3]) : 100);
  if (mode == "mnist" && argc > 2) return mnist(argv[2]);
  std::fprintf(stderr, "usage: bench_memory generated [N] [d] | bench_memory mnist DIR\n");
  return 2;
}

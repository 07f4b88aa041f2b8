// LMGC's evaluations on dense rows of MNIST-50's shape (n = 60 000, d = 50, 10 classes,
// standard normal features): milliseconds per evaluation of the factored objective (ranks 35
// a class, as MNIST-50's minimizer) and of the screened loss over the full cone. Best of 3
// runs of 20 evaluations, every row computed (each evaluation moves the point far enough that
// nothing is screened out).
// Usage: bench_lmgc_dense [rows] [features] [classes] [rank]

#include <cstdio>
#include <cstdlib>

#include "bench/best_of.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_screening.h"
#include "core/random/rng.h"

using namespace dpstudio;
using Index = Eigen::Index;

int main(int argc, char** argv) {
  const Index n = argc > 1 ? std::atol(argv[1]) : 60000, d = argc > 2 ? std::atol(argv[2]) : 50,
              C = argc > 3 ? std::atol(argv[3]) : 10, rank = argc > 4 ? std::atol(argv[4]) : 35, D = d + 1;
  Rng rng(1);
  Eigen::MatrixXd X(n, d);
  Eigen::VectorXi y(n);
  for (Index i = 0; i < n; ++i) {
    y[i] = static_cast<int>(rng.uniformIndex(static_cast<std::uint64_t>(C)));
    for (Index j = 0; j < d; ++j) X(i, j) = rng.normal();
  }
  const Eigen::MatrixXd T = Eigen::MatrixXd::Identity(D, D);
  const LmgcModel model(d, C, 0.5);
  const Eigen::VectorXd linear;
  const LmgcInteriorProblem problem{model, X, y, 1.0 / static_cast<double>(n), 1e-2, linear, T};

  const std::vector<Index> ranks(static_cast<std::size_t>(C), rank);
  Eigen::VectorXd factors(D * rank * C);
  for (Index i = 0; i < factors.size(); ++i) factors[i] = 0.1 * rng.normal();
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(model.parameterCount());
  for (Index c = 0; c < C; ++c) {
    const Eigen::Map<const Eigen::MatrixXd> L(factors.data() + c * rank * D, D, rank);
    Eigen::Map<Eigen::MatrixXd>(theta.data() + c * D * D, D, D) = L * L.transpose();
  }
  LmgcFactoredObjective objective(problem, ranks);
  ScreenedLmgcLoss loss(model, X, y, nullptr);
  Eigen::VectorXd grad;
  const double factored = bench::millisecondsPerCall(
      [&](int k) {
        Eigen::VectorXd moved = factors * (1.0 + 0.5 * (k % 2));
        objective(moved, grad);
      },
      20);
  const double full = bench::millisecondsPerCall(
      [&](int k) {
        Eigen::VectorXd moved = theta * (1.0 + 0.5 * (k % 2));
        loss(moved, grad);
      },
      20);
  std::printf("%ld × %ld, %ld classes, ranks %ld: factored objective %.2f ms, screened loss %.2f ms an evaluation "
              "(%ld rows computed)\n",
              static_cast<long>(n), static_cast<long>(d), static_cast<long>(C), static_cast<long>(rank), factored, full,
              static_cast<long>(objective.computedRows()));
}

// LMGC's evaluations on sparse rows through the whitening map (lmgc_sparse_rows.h), on rows
// of a9a's shape (n = 32 561, d = 123, 14 ones a row, 2 classes) and a map T near the identity:
// milliseconds per evaluation of the factored objective (ranks 47 and 47, as a9a's minimizer)
// and of the screened loss over the full cone, each through the sparse rows and on the dense
// whitened rows. Best of 3 runs of 50 evaluations, every row computed (each evaluation moves
// the point far enough that nothing is screened out).
// Usage: bench_lmgc_sparse [rows]

#include <cstdio>
#include <cstdlib>

#include "bench/best_of.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_screening.h"
#include "core/models/lmgc_sparse_rows.h"
#include "core/random/rng.h"

using namespace dpstudio;
using Index = Eigen::Index;

int main(int argc, char** argv) {
  const Index n = argc > 1 ? std::atol(argv[1]) : 32561, d = 123, C = 2, D = d + 1;
  Rng rng(1);
  Eigen::MatrixXd X = Eigen::MatrixXd::Zero(n, d);
  Eigen::VectorXi y(n);
  for (Index i = 0; i < n; ++i) {
    y[i] = static_cast<int>(rng.uniformIndex(C));
    for (int k = 0; k < 14; ++k) X(i, static_cast<Index>(rng.uniformIndex(d))) = 1;
  }
  Eigen::MatrixXd T = Eigen::MatrixXd::Identity(D, D);
  for (Index i = 0; i < d; ++i)
    for (Index j = 0; j < D; ++j) T(i, j) += 0.01 * rng.normal();
  const Eigen::RowVectorXd shift = T.topRightCorner(d, 1).transpose();
  const Eigen::MatrixXd mapped = (X * T.topLeftCorner(d, d).transpose()).rowwise() + shift;
  const auto sparse = LmgcSparseRows::ifSparse(X, T);
  if (!sparse) return std::fprintf(stderr, "rows not sparse enough\n"), 1;
  const LmgcModel model(d, C, 0.5);
  const Eigen::VectorXd linear;
  const LmgcInteriorProblem dense{model, mapped, y, 1.0 / static_cast<double>(n), 1e-2, linear, T};
  const LmgcInteriorProblem throughT{model, mapped, y, 1.0 / static_cast<double>(n), 1e-2, linear, T, &*sparse};

  const std::vector<Index> ranks{47, 47};
  Eigen::VectorXd factors(D * 94);
  for (Index i = 0; i < factors.size(); ++i) factors[i] = 0.1 * rng.normal();
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(model.parameterCount());
  for (Index c = 0; c < C; ++c) {
    const Eigen::Map<const Eigen::MatrixXd> L(factors.data() + c * 47 * D, D, 47);
    Eigen::Map<Eigen::MatrixXd>(theta.data() + c * D * D, D, D) = L * L.transpose();
  }
  for (const auto& [name, problem] : {std::pair{"dense ", &dense}, std::pair{"sparse", &throughT}}) {
    LmgcFactoredObjective objective(*problem, ranks);
    ScreenedLmgcLoss loss(model, mapped, y, problem->sparse);
    Eigen::VectorXd grad;
    const double factored = bench::millisecondsPerCall(
        [&](int k) {
          Eigen::VectorXd moved = factors * (1.0 + 0.5 * (k % 2));
          objective(moved, grad);
        },
        50);
    const double full = bench::millisecondsPerCall(
        [&](int k) {
          Eigen::VectorXd moved = theta * (1.0 + 0.5 * (k % 2));
          loss(moved, grad);
        },
        50);
    std::printf("%s rows: factored objective %.2f ms, screened loss %.2f ms an evaluation (%ld rows computed)\n", name,
                factored, full, static_cast<long>(objective.computedRows()));
  }
}

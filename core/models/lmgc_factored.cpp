#include "core/models/lmgc_factored.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc_pairs.h"
#include "core/models/lmgc_screening.h"
#include "core/util/parallel.h"

namespace dpstudio {

LmgcFactoredObjective::LmgcFactoredObjective(const LmgcInteriorProblem& problem, std::vector<Index> ranks)
    : problem_(problem), ranks_(std::move(ranks)) {
  const Index n = problem.rows.rows(), C = problem.model.classes();
  Xt_ = LmgcModel::augmentedRows(problem.rows);
  rowNorms_ = Xt_.rowwise().norm();
  if (problem.sparse) Xt_.resize(0, 0);
  P_ = problem.metric();
  offsets_.push_back(0);
  for (Index c = 0; c < C; ++c) offsets_.push_back(offsets_.back() + ranks_[static_cast<std::size_t>(c)]);
  for (Index c = 0; c < C; ++c) E_.push_back(problem.linearTerm(c));
  if (problem.sparse) chunkRows_ = kSparseChunkRows;
  chunks_.resize(static_cast<std::size_t>((n + chunkRows_ - 1) / chunkRows_));
}

double LmgcFactoredObjective::operator()(const Eigen::VectorXd& factors, Eigen::VectorXd& grad) {
  const Index n = rowNorms_.size(), D = problem_.model.augmentedDim(), C = problem_.model.classes(), R = width();
  const double q = problem_.quadratic;
  L_ = Eigen::Map<const Eigen::MatrixXd>(factors.data(), D, R);
  // A new reference when there is none, when the last evaluation computed most rows anyway
  // (the iterate has moved far), or after kRefreshEvery evaluations (the drift bounds only grow).
  const bool refresh = sinceRefresh_ < 0 || sinceRefresh_ >= kRefreshEvery || (sinceRefresh_ > 0 && 2 * computed_ > n);
  Eigen::VectorXd drift = Eigen::VectorXd::Zero(C);
  if (refresh) {
    reference_ = L_;
    referenceScores_.resize(n, C);
    sinceRefresh_ = 0;
  } else {
    for (Index c = 0; c < C; ++c)
      drift[c] = (L_.middleCols(offset(c), rank(c)) - reference_.middleCols(offset(c), rank(c))).norm();
    ++sinceRefresh_;
  }
  if (problem_.sparse) pulled_ = problem_.sparse->pullFactors(L_);
  parallelFor(static_cast<Index>(chunks_.size()), [&](Index k) { lossChunk(k, refresh, drift); });

  grad.resize(factors.size());
  Eigen::Map<Eigen::MatrixXd> G(grad.data(), D, R);
  double loss = 0;
  computed_ = 0;
  for (const Chunk& chunk : chunks_) {  // in chunk order: the same bits on any thread count
    loss += chunk.loss;
    computed_ += chunk.computed;
  }
  // The chunks' gradients added in chunk order, rows of the sum in parallel.
  RowMajorMatrix sum(D, R);
  constexpr Index kSumRows = 8;
  parallelFor((D + kSumRows - 1) / kSumRows, [&](Index block) {
    const Index first = block * kSumRows, rows = std::min(kSumRows, D - first);
    auto part = sum.middleRows(first, rows);
    part.setZero();
    for (const Chunk& chunk : chunks_)
      if (chunk.computed > 0) part += chunk.gradient.middleRows(first, rows);
  });
  if (problem_.sparse) {
    G = problem_.sparse->pushFactors(sum);
  } else {
    G = sum;
  }
  double value = problem_.weight * loss;
  for (Index c = 0; c < C; ++c) {
    const auto Lc = L_.middleCols(offset(c), rank(c));
    const Eigen::MatrixXd PL = P_ * Lc;
    const Eigen::MatrixXd K = Lc.transpose() * PL;
    const Eigen::MatrixXd EL = E_[static_cast<std::size_t>(c)] * Lc;
    value += 0.5 * q * K.squaredNorm() + Lc.cwiseProduct(EL).sum();
    G.middleCols(offset(c), rank(c)) += 2.0 * q * PL * K + 2.0 * EL;
  }
  return value;
}

bool LmgcFactoredObjective::screenedOut(Index row, const Eigen::VectorXd& drift) const {
  // |s_c − s⁰_c| = |‖u‖² − ‖u⁰‖²| ≤ ‖u − u⁰‖(2‖u⁰‖ + ‖u − u⁰‖), ‖u − u⁰‖ ≤ ‖x̃‖ε_c, u = L_cᵀx̃.
  const Eigen::VectorXd moved = rowNorms_[row] * drift;
  const Eigen::VectorXd change =
      moved.cwiseProduct(2.0 * referenceScores_.row(row).transpose().cwiseSqrt() + moved);
  return provablyBeyondEveryMargin(referenceScores_.row(row), problem_.y[row], change, problem_.model.huberWidth());
}

// The chunk's loss and its share of the loss gradient 2w·X̃ᵀ diag(W_c) X̃ L_c, over the rows
// not screened out.
void LmgcFactoredObjective::lossChunk(Index k, bool refresh, const Eigen::VectorXd& drift) {
  const Index first = k * chunkRows_, rows = std::min(chunkRows_, rowNorms_.size() - first);
  const Index D = problem_.model.augmentedDim(), C = problem_.model.classes();
  const double h = problem_.model.huberWidth(), w = problem_.weight;
  Chunk& chunk = chunks_[static_cast<std::size_t>(k)];
  chunk.rows.clear();
  for (Index i = first; i < first + rows; ++i)
    if (refresh || !screenedOut(i, drift)) chunk.rows.push_back(i);
  chunk.computed = static_cast<Index>(chunk.rows.size());
  chunk.loss = 0;
  if (chunk.computed == 0) return;
  if (problem_.sparse) {
    problem_.sparse->multiply(chunk.rows, pulled_, chunk.U);
  } else {
    if (chunk.computed == rows) {
      chunk.U.noalias() = Xt_.middleRows(first, rows) * L_;
    } else {
      chunk.Xg.resize(chunk.computed, D);
      for (Index j = 0; j < chunk.computed; ++j) chunk.Xg.row(j) = Xt_.row(chunk.rows[static_cast<std::size_t>(j)]);
      chunk.U.noalias() = chunk.Xg * L_;
    }
  }
  chunk.S.resize(chunk.computed, C);
  for (Index c = 0; c < C; ++c) chunk.S.col(c) = chunk.U.middleCols(offset(c), rank(c)).rowwise().squaredNorm();
  chunk.labels.resize(chunk.computed);
  const Eigen::VectorXd* counts = problem_.counts;
  chunk.counts.resize(counts ? chunk.computed : 0);
  for (Index j = 0; j < chunk.computed; ++j) {
    const Index i = chunk.rows[static_cast<std::size_t>(j)];
    chunk.labels[j] = problem_.y[i];
    if (counts) chunk.counts[j] = (*counts)[i];
    if (refresh) referenceScores_.row(i) = chunk.S.row(j);
  }
  chunk.loss = lmgc_detail::pairLoss(chunk.S, chunk.labels, h, &chunk.W, nullptr, counts ? chunk.counts.data() : nullptr);
  // Rows left after screening are nearly all within some margin: no second compaction.
  for (Index c = 0; c < C; ++c)
    chunk.U.middleCols(offset(c), rank(c)).array().colwise() *= (2.0 * w) * chunk.W.col(c).array();
  if (problem_.sparse) {
    problem_.sparse->transposeProduct(chunk.rows, chunk.U, chunk.gradient);
  } else {
    if (chunk.computed == rows) {
      chunk.gradient.noalias() = Xt_.middleRows(first, rows).transpose() * chunk.U;
    } else {
      chunk.gradient.noalias() = chunk.Xg.transpose() * chunk.U;
    }
  }
}

std::vector<Index> lmgcFactorRanks(const LmgcModel& model, const Eigen::VectorXd& x, double relative, Index extra) {
  const Index C = model.classes(), D = model.augmentedDim();
  std::vector<Eigen::VectorXd> eigenvalues;
  double largest = 0;
  for (Index c = 0; c < C; ++c) {
    eigenvalues.push_back(symmetricEigenvalues(model.classMatrix(x, c)));
    largest = std::max(largest, eigenvalues.back().maxCoeff());
  }
  std::vector<Index> ranks;
  for (const Eigen::VectorXd& values : eigenvalues) {
    const Index above = (values.array() > relative * largest).count();
    ranks.push_back(std::clamp<Index>(above + extra, 1, D));
  }
  return ranks;
}

OptimizeSummary minimizeLmgcFactored(const LmgcInteriorProblem& problem, Eigen::VectorXd& x,
                                     const std::vector<Index>& ranks, const LbfgsOptions& options,
                                     const IterationCallback& callback) {
  const LmgcModel& model = problem.model;
  const Index C = model.classes(), D = model.augmentedDim();
  LmgcFactoredObjective objective(problem, ranks);
  // The start: each x_c's top r_c eigenpairs, L_c = V √λ (negative eigenvalues as 0).
  // (Scaling the columns by 1/√λ, scaled gradient descent's metric, was tried: 3× more
  // iterations on digits, as J's curvature along a small column is mostly ⟨∇J, δδᵀ⟩.)
  Eigen::VectorXd factors(D * objective.width());
  for (Index c = 0; c < C; ++c) {
    const SymmetricEigen eig = symmetricEigen(model.classMatrix(x, c));
    const Index r = objective.rank(c);
    Eigen::Map<Eigen::MatrixXd>(factors.data() + objective.offset(c) * D, D, r) =
        eig.vectors.rightCols(r) * eig.values.tail(r).cwiseMax(0.0).cwiseSqrt().asDiagonal();
  }
  OptimizeSummary summary =
      minimizeLbfgs([&](const Eigen::VectorXd& f, Eigen::VectorXd& g) { return objective(f, g); }, factors, options,
                    callback);
  if (!factors.allFinite()) return summary;
  for (Index c = 0; c < C; ++c) {
    const Eigen::Map<const Eigen::MatrixXd> Lc(factors.data() + objective.offset(c) * D, D, objective.rank(c));
    Eigen::Map<Eigen::MatrixXd>(x.data() + c * D * D, D, D) = Lc * Lc.transpose();
  }
  return summary;
}

}  // namespace dpstudio

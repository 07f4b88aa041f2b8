#include "core/models/lmgc_factored.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Eigenvalues>

#include "core/models/huber.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

// J over the factors L = [L_0 … L_{C−1}] (D × R, R = Σ r_c), as lmgc_factored.h describes.
// The regularizer R(x) = (q/2)‖TᵀxT‖² + ⟨c, TᵀxT⟩ becomes, with P = TTᵀ and E_c = T c_c Tᵀ,
// (q/2)‖L_cᵀPL_c‖² + tr(L_cᵀE_cL_c) per class: r_c × r_c work instead of D × D.
class FactoredObjective {
 public:
  FactoredObjective(const LmgcInteriorProblem& problem, std::vector<Index> ranks)
      : problem_(problem), ranks_(std::move(ranks)) {
    const Index n = problem.rows.rows(), d = problem.rows.cols(), D = d + 1, C = problem.model.classes();
    Xt_.resize(n, D);
    Xt_ << problem.rows / std::numbers::sqrt2, Eigen::VectorXd::Constant(n, 1.0 / std::numbers::sqrt2);
    P_ = problem.T * problem.T.transpose();
    offsets_.push_back(0);
    for (Index c = 0; c < C; ++c) offsets_.push_back(offsets_.back() + ranks_[static_cast<std::size_t>(c)]);
    const bool hasLinear = problem.linear.size() == problem.model.parameterCount();
    for (Index c = 0; c < C; ++c) {
      Eigen::MatrixXd E = Eigen::MatrixXd::Zero(D, D);
      if (hasLinear)
        E = problem.T * Eigen::Map<const Eigen::MatrixXd>(problem.linear.data() + c * D * D, D, D) * problem.T.transpose();
      E_.push_back(0.5 * (E + E.transpose()));
    }
  }

  Index width() const { return offsets_.back(); }

  double operator()(const Eigen::VectorXd& variables, Eigen::VectorXd& grad) {
    const Index n = Xt_.rows(), D = Xt_.cols(), C = problem_.model.classes(), R = width();
    const double q = problem_.quadratic;
    L_ = Eigen::Map<const Eigen::MatrixXd>(variables.data(), D, R);
    const Eigen::MatrixXd& L = L_;
    const Index chunks = (n + kChunkRows - 1) / kChunkRows;
    chunks_.resize(static_cast<std::size_t>(chunks));
    parallelFor(chunks, [&](Index k) { lossChunk(k, std::min(kChunkRows, n - k * kChunkRows)); });
    grad.resize(variables.size());
    Eigen::Map<Eigen::MatrixXd> G(grad.data(), D, R);
    G.setZero();
    double loss = 0;
    for (const Chunk& chunk : chunks_) {  // in chunk order: the same bits on any thread count
      loss += chunk.loss;
      if (chunk.active > 0) G += chunk.gradient;
    }
    double value = problem_.weight * loss;
    for (Index c = 0; c < C; ++c) {
      const auto Lc = L.middleCols(offset(c), rank(c));
      const Eigen::MatrixXd PL = P_ * Lc;
      const Eigen::MatrixXd K = Lc.transpose() * PL;
      const Eigen::MatrixXd EL = E_[static_cast<std::size_t>(c)] * Lc;
      value += 0.5 * q * K.squaredNorm() + Lc.cwiseProduct(EL).sum();
      G.middleCols(offset(c), rank(c)) += 2.0 * q * PL * K + 2.0 * EL;
    }
    return value;
  }

  Index offset(Index c) const { return offsets_[static_cast<std::size_t>(c)]; }
  Index rank(Index c) const { return ranks_[static_cast<std::size_t>(c)]; }

 private:
  // Rows per chunk: the partition depends on n only (core/util/parallel.h).
  static constexpr Index kChunkRows = 256;

  // One chunk's loss and its share of the loss gradient 2w·X̃ᵀ diag(W_c) X̃ L_c, over the
  // chunk's rows with a non-zero weight only (rows beyond every margin cost the scores alone).
  struct Chunk {
    double loss = 0;
    Index active = 0;
    Eigen::MatrixXd U, Xa, Va, gradient;
  };

  void lossChunk(Index k, Index rows) {
    const Index first = k * kChunkRows, D = Xt_.cols(), C = problem_.model.classes(), R = width();
    const double h = problem_.model.huberWidth(), w = problem_.weight;
    Chunk& chunk = chunks_[static_cast<std::size_t>(k)];
    chunk.U.noalias() = Xt_.middleRows(first, rows) * L_;
    chunk.Xa.resize(rows, D);
    chunk.Va.resize(rows, R);
    chunk.loss = 0;
    chunk.active = 0;
    Eigen::VectorXd scores(C), weights(C);
    for (Index i = 0; i < rows; ++i) {
      for (Index c = 0; c < C; ++c) scores[c] = chunk.U.row(i).segment(offset(c), rank(c)).squaredNorm();
      const Index yi = problem_.y[first + i];
      weights.setZero();
      for (Index c = 0; c < C; ++c) {
        if (c == yi) continue;
        const double margin = scores[c] - scores[yi];
        chunk.loss += huber::loss(margin, h);
        const double slope = huber::derivative(margin, h);
        weights[c] += slope;
        weights[yi] -= slope;
      }
      if (weights.isZero(0.0)) continue;
      const Index a = chunk.active++;
      chunk.Xa.row(a) = Xt_.row(first + i);
      for (Index c = 0; c < C; ++c)
        chunk.Va.row(a).segment(offset(c), rank(c)) = (2.0 * w * weights[c]) * chunk.U.row(i).segment(offset(c), rank(c));
    }
    if (chunk.active > 0)
      chunk.gradient.noalias() = chunk.Xa.topRows(chunk.active).transpose() * chunk.Va.topRows(chunk.active);
  }

  const LmgcInteriorProblem& problem_;
  std::vector<Index> ranks_, offsets_;
  Eigen::MatrixXd Xt_, P_;
  std::vector<Eigen::MatrixXd> E_;
  Eigen::MatrixXd L_;
  std::vector<Chunk> chunks_;
};

}  // namespace

std::vector<Index> lmgcFactorRanks(const LmgcModel& model, const Eigen::VectorXd& x, double relative, Index extra) {
  const Index C = model.classes(), D = model.augmentedDim();
  std::vector<Eigen::VectorXd> eigenvalues;
  double largest = 0;
  for (Index c = 0; c < C; ++c) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(model.classMatrix(x, c), Eigen::EigenvaluesOnly);
    eigenvalues.push_back(eig.eigenvalues());
    largest = std::max(largest, eig.eigenvalues().maxCoeff());
  }
  std::vector<Index> ranks;
  for (const Eigen::VectorXd& values : eigenvalues) {
    const Index above = (values.array() > relative * largest).count();
    ranks.push_back(std::clamp<Index>(above + extra, 1, D));
  }
  return ranks;
}

double lmgcFactoredObjective(const LmgcInteriorProblem& problem, const std::vector<Index>& ranks,
                             const Eigen::VectorXd& factors, Eigen::VectorXd& grad) {
  FactoredObjective objective(problem, ranks);
  eigen_assert(factors.size() == problem.model.augmentedDim() * objective.width());
  return objective(factors, grad);
}

OptimizeSummary minimizeLmgcFactored(const LmgcInteriorProblem& problem, Eigen::VectorXd& x,
                                     const std::vector<Index>& ranks, const LbfgsOptions& options,
                                     const IterationCallback& callback) {
  const LmgcModel& model = problem.model;
  const Index C = model.classes(), D = model.augmentedDim();
  FactoredObjective objective(problem, ranks);
  // The start: each x_c's top r_c eigenpairs, L_c = V √λ (negative eigenvalues as 0).
  // (Scaling the columns by 1/√λ, scaled gradient descent's metric, was tried: 3× more
  // iterations on digits, as J's curvature along a small column is mostly ⟨∇J, δδᵀ⟩.)
  Eigen::VectorXd factors(D * objective.width());
  for (Index c = 0; c < C; ++c) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(model.classMatrix(x, c));
    const Index r = objective.rank(c);
    Eigen::Map<Eigen::MatrixXd>(factors.data() + objective.offset(c) * D, D, r) =
        eig.eigenvectors().rightCols(r) * eig.eigenvalues().tail(r).cwiseMax(0.0).cwiseSqrt().asDiagonal();
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

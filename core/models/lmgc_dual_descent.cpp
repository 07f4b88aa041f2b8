#include "core/models/lmgc_dual_descent.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <LBFGSB.h>

#include "core/linalg/symmetric_eigen.h"
#include "core/models/huber.h"
#include "core/models/lmgc_pairs.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// Thrown from the objective to unwind LBFGSpp (no hook of its own) once the gap is met, the
// budget spent or the callback says stop. Never leaves this file.
struct Finished {};

class DualObjective {
 public:
  DualObjective(const LmgcInteriorProblem& problem, const LmgcDualDescentOptions& options)
      : problem_(problem), options_(options), C_(problem.model.classes()), D_(problem.model.augmentedDim()),
        h_(problem.model.huberWidth()), q_(problem.quadratic), Tinv_(problem.T.inverse()) {
    rows_ = LmgcModel::augmentedRows(problem.rows) * Tinv_.transpose();
    const Index n = rows_.rows();
    rho_ = problem.counts ? Eigen::VectorXd(problem.weight * *problem.counts)
                          : Eigen::VectorXd::Constant(n, problem.weight);
    linear_.assign(static_cast<std::size_t>(C_), Eigen::MatrixXd::Zero(D_, D_));
    if (problem.linear.size() == C_ * D_ * D_)
      for (Index c = 0; c < C_; ++c) {
        const Eigen::Map<const Eigen::MatrixXd> E(problem.linear.data() + c * D_ * D_, D_, D_);
        linear_[static_cast<std::size_t>(c)] = 0.5 * (E + E.transpose());
      }
    factors_.resize(static_cast<std::size_t>(C_));
    squares_.resize(static_cast<std::size_t>(C_));
  }

  Index size() const { return rows_.rows() * C_; }

  // x(α) in the problem's coordinates, x_c = T⁻ᵀΦ_cT⁻¹, at the smallest J seen; empty if none.
  Eigen::VectorXd best() const {
    if (bestFactors_.empty()) return {};
    Eigen::VectorXd x(C_ * D_ * D_);
    for (Index c = 0; c < C_; ++c) {
      const Eigen::MatrixXd F = Tinv_.transpose() * bestFactors_[static_cast<std::size_t>(c)];
      Eigen::Map<Eigen::MatrixXd>(x.data() + c * D_ * D_, D_, D_).noalias() = F * F.transpose();
    }
    return x;
  }
  int evaluations = 0;
  double bestPrimal = HUGE_VAL, bestDual = -HUGE_VAL;
  bool converged = false, cancelled = false;

  // −g(α) and its gradient; α is n × C column-major, the label columns held at 0 by bounds.
  double operator()(const Eigen::VectorXd& flat, Eigen::VectorXd& grad) {
    const Index n = rows_.rows();
    const Eigen::Map<const Eigen::MatrixXd> alpha(flat.data(), n, C_);
    Eigen::MatrixXd W = rho_.asDiagonal() * alpha;
    for (Index i = 0; i < n; ++i) {
      const Index y = problem_.y[i];
      W(i, y) = 0;
      W(i, y) = -W.row(i).sum();
    }
    parallelFor(C_, [&](Index c) {
      const auto k = static_cast<std::size_t>(c);
      // Only the rows with a non-zero weight enter S_c.
      std::vector<Index> kept;
      for (Index i = 0; i < n; ++i)
        if (W(i, c) != 0) kept.push_back(i);
      const Index m = static_cast<Index>(kept.size());
      Eigen::MatrixXd gathered(m, D_), weighted(m, D_);
      for (Index j = 0; j < m; ++j) {
        gathered.row(j) = rows_.row(kept[static_cast<std::size_t>(j)]);
        weighted.row(j) = W(kept[static_cast<std::size_t>(j)], c) * gathered.row(j);
      }
      Eigen::MatrixXd S = -linear_[k];
      if (m > 0) S.noalias() += gathered.transpose() * weighted;  // (Eigen offsets into no data when m = 0)
      S = 0.5 * (S + S.transpose()).eval();
      const SymmetricEigen eig = symmetricEigen(S);
      const Index p = (eig.values.array() > 0).count();
      const Eigen::VectorXd lambda = eig.values.tail(p) / q_;
      squares_[k] = lambda.squaredNorm();
      factors_[k] = eig.vectors.rightCols(p) * lambda.cwiseSqrt().asDiagonal();  // Φ_c = FFᵀ
    });
    // The scores of every row (a multiplier at 0 may need to move), by row chunks.
    Eigen::MatrixXd scores(n, C_);
    const RowChunks chunks{n};
    parallelFor(chunks.count(), [&](Index chunk) {
      const auto block = rows_.middleRows(chunks.begin(chunk), chunks.size(chunk));
      for (Index c = 0; c < C_; ++c) {
        auto part = scores.col(c).segment(chunks.begin(chunk), chunks.size(chunk));
        const Eigen::MatrixXd& F = factors_[static_cast<std::size_t>(c)];
        if (F.cols() == 0) {
          part.setZero();  // Φ_c = 0
        } else {
          part = (block * F).rowwise().squaredNorm();
        }
      }
    });
    double dual = 0;
    grad.setZero(flat.size());
    Eigen::Map<Eigen::MatrixXd> G(grad.data(), n, C_);
    for (Index i = 0; i < n; ++i) {
      const Index y = problem_.y[i];
      for (Index c = 0; c < C_; ++c) {
        if (c == y) continue;
        const double a = alpha(i, c), margin = scores(i, c) - scores(i, y);
        dual += rho_[i] * huber::conjugateTerm(a, h_);
        G(i, c) = -rho_[i] * (1 + h_ - margin - 2 * h_ * a);
      }
    }
    const double loss = problem_.weight * lmgc_detail::pairLoss(scores, problem_.y, h_, nullptr, nullptr,
                                                                problem_.counts ? problem_.counts->data() : nullptr);
    double squares = 0, linear = 0;
    for (Index c = 0; c < C_; ++c) {
      const auto k = static_cast<std::size_t>(c);
      squares += squares_[k];
      linear += (factors_[k].transpose() * linear_[k] * factors_[k]).trace();
    }
    dual -= 0.5 * q_ * squares;
    const double primal = loss + 0.5 * q_ * squares + linear;
    ++evaluations;
    if (primal < bestPrimal) {
      bestPrimal = primal;
      bestFactors_ = factors_;
    }
    bestDual = std::max(bestDual, dual);
    const double gap = bestPrimal - bestDual;
    if (options_.callback && !options_.callback({evaluations, bestPrimal, gap})) {
      cancelled = true;
      throw Finished{};
    }
    if (gap <= options_.relativeGap * std::abs(bestPrimal)) {
      converged = true;
      throw Finished{};
    }
    if (evaluations >= options_.maxEvaluations) throw Finished{};
    return -dual;
  }

 private:
  const LmgcInteriorProblem& problem_;
  const LmgcDualDescentOptions& options_;
  Index C_, D_;
  double h_, q_;
  Eigen::MatrixXd rows_, Tinv_;
  Eigen::VectorXd rho_;
  std::vector<Eigen::MatrixXd> linear_, factors_, bestFactors_;
  std::vector<double> squares_;
};

}  // namespace

LmgcDualDescentResult descendLmgcDual(const LmgcInteriorProblem& problem, Eigen::VectorXd& x,
                                      const LmgcDualDescentOptions& options) {
  LmgcDualDescentResult result;
  DualObjective objective(problem, options);
  const Index n = problem.rows.rows();
  Eigen::VectorXd alpha = Eigen::VectorXd::Zero(objective.size()), lower = alpha,
                  upper = Eigen::VectorXd::Ones(objective.size());
  for (Index i = 0; i < n; ++i) upper[problem.y[i] * n + i] = 0;
  LBFGSpp::LBFGSBParam<double> param;
  constexpr double kMaxPairBytes = 64.0 * 1024 * 1024;  // as lbfgs.h's
  const double pairBytes = 2.0 * sizeof(double) * static_cast<double>(std::max<Index>(objective.size(), 1));
  param.m = std::max(1, std::min(options.memory, static_cast<int>(kMaxPairBytes / pairBytes)));
  param.epsilon = 0;
  param.epsilon_rel = 0;
  param.max_iterations = options.maxEvaluations;
  LBFGSpp::LBFGSBSolver<double> solver(param);
  double value = 0;
  try {
    solver.minimize(objective, alpha, value, lower, upper);
  } catch (const Finished&) {
  } catch (const std::exception&) {
    // LBFGSpp's line search gives up with an exception near round-off: the best point stands.
  }
  result.evaluations = objective.evaluations;
  result.primal = objective.bestPrimal;
  result.dual = objective.bestDual;
  result.cancelled = objective.cancelled;
  result.converged = objective.converged;
  if (Eigen::VectorXd best = objective.best(); best.size() > 0) x = std::move(best);
  return result;
}

}  // namespace dpstudio

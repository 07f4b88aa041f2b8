#include "core/models/lmgc_semismooth.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc_pairs.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// Beyond this many active-row features (Σ_c n_active·D doubles, 200 MB) the method declines.
constexpr Index kMaxActiveEntries = 25'000'000;
// Damped steps tried before the method gives up on a direction: 1, 1/2, 1/4, 1/8.
constexpr int kMaxHalvings = 3;
// A step that leaves more than this share of ‖F‖ says the method is far from where it
// converges fast, and each step costs hundreds of conjugate-gradient iterations: it stops
// there, keeping the step, and the caller's first-order rounds go on. Measured: digits'
// steps leave 0.56, 0.29, 0.14, 0.54; DNA's (180 binary features) 0.88, 0.89, 0.72, 0.54
// and a9a's 0.90, 0.35, 0.94, each step ~0.8 s on DNA and ~2.5 s on a9a, while the
// rounds after them reached the same points without them.
constexpr double kSlowProgress = 0.8;
// Conjugate gradients that have not brought the residual below these shares of the
// right-hand side by these iterations are taken to stall (the diagonal preconditioner misses
// the system's conditioning) and the method gives up. Measured at 50: digits' systems at
// 0.02–0.23 (λ = 10⁻² and 10⁻³), a9a's (123 binary features, n = 32 561) in a later round
// at 0.63, on its way to 0.12 after 300 iterations (40 ms each) and a direction that raised
// ‖F‖ a thousandfold. At 100, first steps after the first round: digits raw 0.030 (the step
// is taken, ‖F‖ × 0.56, and three more converge), while DNA 0.18, MNIST-50 0.25 and digits at
// λ = 10⁻³ and 3·10⁻⁴ 0.21 and 0.27 went on to 212–300 iterations for a step rejected or
// kept with ‖F‖ × 0.88 (MNIST: 3.4 s, DNA 0.8 s).
struct StallCheck {
  int iterations;
  double residual;
};
constexpr StallCheck kStallChecks[] = {{50, 0.5}, {100, 0.1}};

// A vector of the reduced system: per class the columns of the range (D × p_c) of a
// symmetric matrix in Q_c's basis — its range–null rows first, then its range–range block.
using Blocks = std::vector<Eigen::MatrixXd>;

// z, the spectral decomposition that projects it, and F there.
struct Point {
  Eigen::VectorXd z, x, grad;  // x = P(z), grad = ∇J(x)
  std::vector<Eigen::MatrixXd> Q;
  std::vector<Eigen::VectorXd> lambda;  // ascending
  std::vector<Index> ranks;             // positive eigenvalues: the last `ranks[c]`
  double value = 0;
  double residual = 0;  // ‖F(z)‖
};

// The reduced Newton system at one point.
struct ClassSystem {
  Index D = 0, p = 0;
  Eigen::MatrixXd A;      // n_active × D: the active rows in Q's basis
  Eigen::MatrixXd Phat;   // QᵀPQ
  Eigen::MatrixXd Fhat;   // QᵀFQ
  Eigen::MatrixXd omega;  // D × p: Ω on the range's columns
  Eigen::MatrixXd tau;    // D × p: 1/Ω − 1
  Eigen::MatrixXd diagonal;  // D × p: the preconditioner
  Index nullDim() const { return D - p; }
};

class SemismoothNewton {
 public:
  SemismoothNewton(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                   const LmgcSemismoothOptions& options)
      : problem_(problem),
        objective_(objective),
        options_(options),
        C_(problem.model.classes()),
        D_(problem.model.augmentedDim()),
        rows_(LmgcModel::augmentedRows(problem.rows)),
        P_(problem.metric()) {}

  int evaluations = 0;

  // P(z), J and ∇J there, and ‖F(z)‖.
  Point evaluate(Eigen::VectorXd z) {
    Point point;
    point.z = std::move(z);
    point.Q.resize(static_cast<std::size_t>(C_));
    point.lambda.resize(static_cast<std::size_t>(C_));
    point.ranks.resize(static_cast<std::size_t>(C_));
    point.x.resize(point.z.size());
    parallelFor(C_, [&](Index c) {
      const auto zc = problem_.model.classMatrix(point.z, c);
      SymmetricEigen eig = symmetricEigen(0.5 * (zc + zc.transpose()));
      const auto k = static_cast<std::size_t>(c);
      const Index p = (eig.values.array() > 0).count();
      point.Q[k] = std::move(eig.vectors);
      point.lambda[k] = std::move(eig.values);
      point.ranks[k] = p;
      const Eigen::MatrixXd scaled =
          point.Q[k].rightCols(p) * point.lambda[k].tail(p).cwiseSqrt().asDiagonal();
      Eigen::Map<Eigen::MatrixXd>(point.x.data() + c * D_ * D_, D_, D_).noalias() = scaled * scaled.transpose();
    });
    ++evaluations;
    point.value = objective_(point.x, point.grad);
    const Eigen::VectorXd F = options_.step * point.grad + point.z - point.x;
    point.residual = std::isfinite(point.value) && F.allFinite() ? F.norm() : HUGE_VAL;
    return point;
  }

  // The reduced system at `point`; false when the active rows' features would be too large.
  bool prepare(const Point& point) {
    const Index n = rows_.rows();
    const Eigen::MatrixXd scores = -problem_.model.scores(point.x, problem_.rows);
    lmgc_detail::pairLoss(scores, problem_.y, problem_.model.huberWidth(), nullptr, &curvature_,
                          problem_.counts ? problem_.counts->data() : nullptr);
    active_.clear();
    for (Index i = 0; i < n; ++i)
      if ((curvature_.row(i).array() != 0).any()) active_.push_back(i);
    const Index m = static_cast<Index>(active_.size());
    if (m * D_ * C_ > kMaxActiveEntries) return false;
    Eigen::MatrixXd gathered(m, D_);
    labels_.resize(m);
    kappa_.resize(m, C_);
    for (Index k = 0; k < m; ++k) {
      gathered.row(k) = rows_.row(active_[static_cast<std::size_t>(k)]);
      labels_[k] = problem_.y[active_[static_cast<std::size_t>(k)]];
      kappa_.row(k) = curvature_.row(active_[static_cast<std::size_t>(k)]);
    }
    // ρ_c: the curvature a class-c score sees alone (its own pairs, or all of the row's when
    // c is the row's label) — the block diagonal's weights, for the preconditioner.
    Eigen::MatrixXd rho = kappa_;
    for (Index k = 0; k < m; ++k) rho(k, labels_[k]) = kappa_.row(k).sum();
    const double alpha = options_.step, w = problem_.weight, q = problem_.quadratic;
    systems_.assign(static_cast<std::size_t>(C_), ClassSystem{});
    parallelFor(C_, [&](Index c) {
      const auto k = static_cast<std::size_t>(c);
      ClassSystem& s = systems_[k];
      const Eigen::MatrixXd& Q = point.Q[k];
      const Eigen::VectorXd& lambda = point.lambda[k];
      s.D = D_;
      s.p = point.ranks[k];
      s.A.noalias() = gathered * Q;
      s.Phat.noalias() = Q.transpose() * P_ * Q;
      const Eigen::VectorXd F = alpha * point.grad.segment(c * D_ * D_, D_ * D_) + point.z.segment(c * D_ * D_, D_ * D_) -
                                point.x.segment(c * D_ * D_, D_ * D_);
      s.Fhat.noalias() = Q.transpose() * Eigen::Map<const Eigen::MatrixXd>(F.data(), D_, D_) * Q;
      s.omega.resize(D_, s.p);
      s.tau.resize(D_, s.p);
      for (Index l = 0; l < s.p; ++l) {
        const double positive = lambda[s.nullDim() + l];
        for (Index j = 0; j < D_; ++j) {
          const double other = lambda[j];
          s.omega(j, l) = other > 0 ? 1.0 : positive / (positive - other);
          s.tau(j, l) = other > 0 ? 0.0 : -other / positive;
        }
      }
      // The diagonal of αH + diag(τ) on the basis matrices E_jl (j ≠ l: both entries 1).
      const Eigen::MatrixXd squares = s.A.cwiseAbs2();
      const Eigen::MatrixXd loss = squares.transpose() * rho.col(c).asDiagonal() * squares.rightCols(s.p);
      s.diagonal.resize(D_, s.p);
      for (Index l = 0; l < s.p; ++l) {
        const Index L = s.nullDim() + l;
        for (Index j = 0; j < D_; ++j) {
          const bool onDiagonal = j == L;
          const double regularizer =
              onDiagonal ? s.Phat(j, j) * s.Phat(j, j) : s.Phat(j, j) * s.Phat(L, L) + s.Phat(j, L) * s.Phat(j, L);
          s.diagonal(j, l) = alpha * ((onDiagonal ? 1.0 : 2.0) * w * loss(j, l) + q * regularizer) + s.tau(j, l);
        }
      }
      const double largest = s.diagonal.size() > 0 ? s.diagonal.maxCoeff() : 1.0;
      s.diagonal = s.diagonal.cwiseMax(1e-12 * std::max(largest, 1e-300));
    });
    return true;
  }

  // The symmetric D × D matrix whose range columns are Y (zero null–null block).
  static Eigen::MatrixXd full(const ClassSystem& s, const Eigen::MatrixXd& Y) {
    Eigen::MatrixXd U = Eigen::MatrixXd::Zero(s.D, s.D);
    U.rightCols(s.p) = Y;
    U.bottomLeftCorner(s.p, s.nullDim()) = Y.topRows(s.nullDim()).transpose();
    return U;
  }

  // t(k, c) = ∂²ℓ/∂s ∂s applied to the score changes of the direction Y (active rows).
  Eigen::MatrixXd scoreCurvature(const Blocks& Y) const {
    const Index m = static_cast<Index>(active_.size());
    Eigen::MatrixXd ds(m, C_);
    parallelFor(C_, [&](Index c) {
      const ClassSystem& s = systems_[static_cast<std::size_t>(c)];
      const Eigen::MatrixXd& Yc = Y[static_cast<std::size_t>(c)];
      // x̃ᵀUx̃ = 2 a_nullᵀ Y_null a_range + a_rangeᵀ Y_range a_range.
      Eigen::MatrixXd V = s.A.rightCols(s.p) * Yc.bottomRows(s.p);
      V.noalias() += 2.0 * s.A.leftCols(s.nullDim()) * Yc.topRows(s.nullDim());
      ds.col(c) = s.A.rightCols(s.p).cwiseProduct(V).rowwise().sum();
    });
    Eigen::MatrixXd t = Eigen::MatrixXd::Zero(m, C_);
    for (Index k = 0; k < m; ++k) {
      const Index y = labels_[k];
      double own = 0;
      for (Index c = 0; c < C_; ++c) {
        if (c == y) continue;
        t(k, c) = kappa_(k, c) * (ds(k, c) - ds(k, y));
        own -= t(k, c);
      }
      t(k, y) = own;
    }
    return t;
  }

  // (αH + diag(τ))Y on the range's columns.
  Blocks apply(const Blocks& Y) const {
    const Eigen::MatrixXd t = scoreCurvature(Y);
    const double alpha = options_.step, w = problem_.weight, q = problem_.quadratic;
    Blocks out(static_cast<std::size_t>(C_));
    parallelFor(C_, [&](Index c) {
      const auto k = static_cast<std::size_t>(c);
      const ClassSystem& s = systems_[k];
      const Eigen::MatrixXd weighted = t.col(c).asDiagonal() * s.A.rightCols(s.p);
      Eigen::MatrixXd r = (alpha * w) * (s.A.transpose() * weighted);
      if (q != 0) r.noalias() += (alpha * q) * (s.Phat * (full(s, Y[k]) * s.Phat.rightCols(s.p)));
      out[k] = r + s.tau.cwiseProduct(Y[k]);
    });
    return out;
  }

  // ⟨Y, Z⟩ of the symmetric matrices they stand for.
  double dot(const Blocks& Y, const Blocks& Z) const {
    double sum = 0;
    for (Index c = 0; c < C_; ++c) {
      const auto k = static_cast<std::size_t>(c);
      const Index nd = systems_[k].nullDim(), p = systems_[k].p;
      sum += 2.0 * Y[k].topRows(nd).cwiseProduct(Z[k].topRows(nd)).sum() +
             Y[k].bottomRows(p).cwiseProduct(Z[k].bottomRows(p)).sum();
    }
    return sum;
  }

  // Preconditioned conjugate gradients for (αH + diag(τ))Y = −F̂ on the range's columns;
  // `proceed` is asked after every iteration (false: stop, and `cancelled`); `stalled` when
  // they make too little progress to be worth finishing (kStallChecks).
  Blocks solve(int& iterations, const std::function<bool()>& proceed, bool& cancelled, bool& stalled) const {
    Blocks b(static_cast<std::size_t>(C_)), Y(static_cast<std::size_t>(C_));
    for (std::size_t k = 0; k < systems_.size(); ++k) {
      b[k] = -systems_[k].Fhat.rightCols(systems_[k].p);
      Y[k] = Eigen::MatrixXd::Zero(systems_[k].D, systems_[k].p);
    }
    const auto precondition = [&](const Blocks& r) {
      Blocks z(r.size());
      for (std::size_t k = 0; k < r.size(); ++k) z[k] = r[k].cwiseQuotient(systems_[k].diagonal);
      return z;
    };
    Blocks r = b, z = precondition(r), d = z;
    double rz = dot(r, z);
    const double scale = std::sqrt(dot(b, b)), target = options_.forcing * scale;
    for (iterations = 0; iterations < options_.maxInnerIterations && std::sqrt(dot(r, r)) > target; ++iterations) {
      const Blocks Ad = apply(d);
      const double curvature = dot(d, Ad);
      if (!(curvature > 0)) break;  // rounding at convergence
      const double a = rz / curvature;
      for (std::size_t k = 0; k < Y.size(); ++k) {
        Y[k] += a * d[k];
        r[k] -= a * Ad[k];
      }
      z = precondition(r);
      const double next = dot(r, z);
      for (std::size_t k = 0; k < d.size(); ++k) d[k] = z[k] + (next / rz) * d[k];
      rz = next;
      if (!proceed()) {
        cancelled = true;
        break;
      }
      const auto stalledAt = [&](const StallCheck& check) {
        return iterations + 1 == check.iterations && std::sqrt(dot(r, r)) > check.residual * scale;
      };
      if (std::any_of(std::begin(kStallChecks), std::end(kStallChecks), stalledAt)) {
        stalled = true;
        break;
      }
    }
    return Y;
  }

  // dz in the original basis from the reduced solution (the null–null block from F's equation).
  Eigen::VectorXd direction(const Point& point, const Blocks& Y) const {
    const Eigen::MatrixXd t = scoreCurvature(Y);
    const double alpha = options_.step, w = problem_.weight, q = problem_.quadratic;
    Eigen::VectorXd dz(point.z.size());
    parallelFor(C_, [&](Index c) {
      const auto k = static_cast<std::size_t>(c);
      const ClassSystem& s = systems_[k];
      const Index nd = s.nullDim();
      const Eigen::MatrixXd U = full(s, Y[k]);
      Eigen::MatrixXd hat(s.D, s.D);
      hat.rightCols(s.p) = Y[k].cwiseQuotient(s.omega);
      hat.bottomLeftCorner(s.p, nd) = hat.topRightCorner(nd, s.p).transpose();
      const auto nullRows = s.A.leftCols(nd);
      Eigen::MatrixXd Hnull = w * (nullRows.transpose() * t.col(c).asDiagonal() * nullRows);
      if (q != 0) Hnull.noalias() += q * (s.Phat.topRows(nd) * U * s.Phat.leftCols(nd));
      hat.topLeftCorner(nd, nd) = -s.Fhat.topLeftCorner(nd, nd) - alpha * Hnull;
      const Eigen::MatrixXd& Q = point.Q[k];
      Eigen::Map<Eigen::MatrixXd>(dz.data() + c * D_ * D_, D_, D_).noalias() = Q * hat * Q.transpose();
    });
    return dz;
  }

 private:
  const LmgcInteriorProblem& problem_;
  const SmoothFunction& objective_;
  const LmgcSemismoothOptions& options_;
  Index C_, D_;
  Eigen::MatrixXd rows_, P_;
  Eigen::MatrixXd curvature_, kappa_;
  Eigen::VectorXi labels_;
  std::vector<Index> active_;
  std::vector<ClassSystem> systems_;
};

}  // namespace

LmgcSemismoothResult minimizeLmgcSemismooth(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                                            Eigen::VectorXd& x, const LmgcSemismoothOptions& options) {
  LmgcSemismoothResult result;
  SemismoothNewton newton(problem, objective, options);
  Eigen::VectorXd grad;
  ++newton.evaluations;
  objective(x, grad);
  Point point = newton.evaluate(x - options.step * grad);
  const auto done = [&] {
    return point.residual <= options.tolerance * options.step ||
           (options.converged && options.converged(point.x, point.grad));
  };
  for (; result.steps < options.maxSteps && !done(); ++result.steps) {
    if (!newton.prepare(point)) break;
    result.built = true;
    int inner = 0;
    const auto proceed = [&] {
      return !options.callback || options.callback({result.steps + 1, point.value, point.residual / options.step});
    };
    bool stalled = false;
    const Blocks Y = newton.solve(inner, proceed, result.cancelled, stalled);
    result.innerIterations += inner;
    if (result.cancelled || stalled) break;
    const Eigen::VectorXd dz = newton.direction(point, Y);
    const double previous = point.residual;
    bool accepted = false;
    double t = 1;
    for (int halving = 0; halving <= kMaxHalvings && !accepted; ++halving, t *= 0.5) {
      Point trial = newton.evaluate(point.z + t * dz);
      if (trial.residual <= (1 - 1e-4 * t) * point.residual) {
        point = std::move(trial);
        accepted = true;
      }
    }
    if (!accepted) break;
    if (point.residual > kSlowProgress * previous) {
      ++result.steps;
      break;
    }
  }
  result.evaluations = newton.evaluations;
  result.residual = point.residual / options.step;
  if (result.built && point.x.allFinite()) x = point.x;
  return result;
}

}  // namespace dpstudio

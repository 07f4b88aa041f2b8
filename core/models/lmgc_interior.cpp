#include "core/models/lmgc_interior.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>

namespace dpstudio {
namespace {

using Index = Eigen::Index;

constexpr double kCut = 10;          // μ ← μ/kCut once centred
constexpr double kCentred = 0.5;     // centred: Newton decrement² ≤ kCentred·μ
constexpr double kBoundary = 0.99;   // fraction of the step to the cone's boundary
constexpr double kArmijo = 1e-4;
constexpr int kHalvings = 40;
constexpr double kStartShift = 1e-3;  // x_c += kStartShift·λ_max·I before the first step
constexpr double kZeroShare = 1e-9;   // purification: eigenvalues below this share → 0
constexpr double kSmallestMu = 1e-30;

// h_μ(z) = min_{u,v} w(u²/(4h) + v) − μ log v − μ log(u + v − a), a = 1 + h − z: its value,
// slope and curvature in z. Stationarity gives v = β/(1 − u/2h), r = 2hβ/u (β = μ/w), and
// u ∈ (0, 2h) the root of G(u) = u + v(u) − r(u) − a, increasing from −∞ to +∞; by the
// envelope theorem h_μ' = −μ/r = −wu/(2h), and h_μ'' = (w/2h)/G'(u).
struct Smoothed {
  double value = 0, slope = 0, curvature = 0;
};

Smoothed smoothedHinge(double z, double mu, double w, double h) {
  const double a = 1 + h - z, beta = mu / w, width = 2 * h;
  const auto G = [&](double u) { return u + beta / (1 - u / width) - width * beta / u - a; };
  const auto dG = [&](double u) {
    const double s = 1 - u / width;
    return 1 + beta / (width * s * s) + width * beta / (u * u);
  };
  // Start from the μ → 0 asymptotics: beyond the margin r ≈ β − a, on the linear part
  // 1 − u/2h ≈ β/(a − 2h + β), in between u ≈ a.
  double u = a <= 0 ? width * beta / (beta - a) : a >= width ? width * (1 - beta / (a - width + beta)) : a;
  double lo = 0, hi = width;
  if (!(u > lo && u < hi)) u = 0.5 * width;
  for (int k = 0; k < 200; ++k) {
    const double g = G(u);
    if (g == 0) break;
    (g < 0 ? lo : hi) = u;
    double next = u - g / dG(u);
    if (!(next > lo && next < hi)) next = lo > 0 ? 0.5 * (lo + hi) : 0.5 * hi;
    const bool done = std::abs(next - u) <= 1e-15 * u;
    u = next;
    if (done) break;
  }
  const double v = beta / (1 - u / width), r = width * beta / u;
  Smoothed s;
  s.value = w * (u * u / (2 * width) + v) - mu * (std::log(v) + std::log(r));
  s.slope = -w * u / width;
  s.curvature = (w / width) / dG(u);
  return s;
}

// Φ ↦ MᵀΦM for every class block.
Eigen::VectorXd congruence(const Eigen::VectorXd& theta, const Eigen::MatrixXd& M, Index classes) {
  const Index D = M.rows();
  Eigen::VectorXd out(theta.size());
  for (Index c = 0; c < classes; ++c) {
    const Eigen::Map<const Eigen::MatrixXd> phi(theta.data() + c * D * D, D, D);
    Eigen::Map<Eigen::MatrixXd>(out.data() + c * D * D, D, D) = M.transpose() * phi * M;
  }
  return out;
}

// Coordinates of the symmetric matrices in an eigenbasis V of x_c: pairs (a ≤ b) of the
// orthonormal basis e_ae_aᵀ, (e_ae_bᵀ + e_be_aᵀ)/√2, in which the log-det barrier's Hessian
// is diagonal (μ/(λ_aλ_b)).
struct Pairs {
  std::vector<std::pair<Index, Index>> list;
  explicit Pairs(Index D) {
    for (Index b = 0; b < D; ++b)
      for (Index a = 0; a <= b; ++a) list.emplace_back(a, b);
  }
  Index size() const { return static_cast<Index>(list.size()); }
};

void coordinatesOf(const Pairs& pairs, const Eigen::MatrixXd& ZV, Eigen::Ref<Eigen::VectorXd> out) {
  for (Index k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs.list[static_cast<std::size_t>(k)];
    out[k] = a == b ? ZV(a, a) : std::numbers::sqrt2 * ZV(a, b);
  }
}

Eigen::MatrixXd matrixOf(const Pairs& pairs, const Eigen::Ref<const Eigen::VectorXd>& delta, Index D) {
  Eigen::MatrixXd ZV(D, D);
  for (Index k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs.list[static_cast<std::size_t>(k)];
    if (a == b) {
      ZV(a, a) = delta[k];
    } else {
      ZV(a, b) = ZV(b, a) = delta[k] / std::numbers::sqrt2;
    }
  }
  return ZV;
}

class Barrier {
 public:
  explicit Barrier(const LmgcBarrierProblem& p)
      : p_(p), C_(p.model.classes()), D_(p.model.augmentedDim()), pairs_(p.model.augmentedDim()),
        hasLinear_(p.linear.size() == p.model.parameterCount()) {
    const Index n = p.rows.rows(), d = p.model.inputDim();
    augmented_.resize(n, D_);
    augmented_.leftCols(d) = p.rows / std::numbers::sqrt2;
    augmented_.col(d).setConstant(1 / std::numbers::sqrt2);
    metric_ = p.T * p.T.transpose();
  }

  Index dimension() const { return C_ * pairs_.size(); }
  Index pairCount() const { return p_.rows.rows() * (C_ - 1); }

  // B_μ(x); false if some x_c is not positive definite.
  bool value(const Eigen::VectorXd& x, double mu, double& out) const {
    double logDet = 0;
    for (Index c = 0; c < C_; ++c) {
      const Eigen::LLT<Eigen::MatrixXd> llt(p_.model.classMatrix(x, c));
      if (llt.info() != Eigen::Success || !(llt.matrixLLT().diagonal().minCoeff() > 0)) return false;
      logDet += 2 * llt.matrixLLT().diagonal().array().log().sum();
    }
    const Eigen::MatrixXd s = -p_.model.scores(x, p_.rows);
    double total = regularizer(x, nullptr) - mu * logDet;
    for (Index i = 0; i < s.rows(); ++i)
      for (Index c = 0; c < C_; ++c)
        if (c != p_.y[i]) total += smoothedHinge(s(i, c) - s(i, p_.y[i]), mu, p_.weight, p_.model.huberWidth()).value;
    out = total;
    return std::isfinite(out);
  }

  // The Newton direction of B_μ at x (every x_c ≻ 0): false if the system is not positive
  // definite. Fills the step (parameter layout), the decrement² −⟨∇B, Δ⟩ and the largest
  // t ≤ 1 keeping x + tΔ inside the cone with the fraction-to-boundary rule.
  bool newton(const Eigen::VectorXd& x, double mu, Eigen::VectorXd& step, double& decrement, double& maxStep) const {
    const Index n = p_.rows.rows(), m = pairs_.size(), M = dimension();
    const double h = p_.model.huberWidth();
    std::vector<Eigen::MatrixXd> V(static_cast<std::size_t>(C_));
    std::vector<Eigen::VectorXd> lambda(static_cast<std::size_t>(C_));
    for (Index c = 0; c < C_; ++c) {
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(p_.model.classMatrix(x, c));
      if (!(eig.eigenvalues().minCoeff() > 0)) return false;
      V[static_cast<std::size_t>(c)] = eig.eigenvectors();
      lambda[static_cast<std::size_t>(c)] = eig.eigenvalues();
    }

    // The pairs' slopes (as score weights W, n × C) and curvatures κ.
    const Eigen::MatrixXd s = -p_.model.scores(x, p_.rows);
    Eigen::MatrixXd W = Eigen::MatrixXd::Zero(n, C_), kappa = Eigen::MatrixXd::Zero(n, C_);
    for (Index i = 0; i < n; ++i) {
      const Index yi = p_.y[i];
      for (Index c = 0; c < C_; ++c) {
        if (c == yi) continue;
        const Smoothed sm = smoothedHinge(s(i, c) - s(i, yi), mu, p_.weight, h);
        W(i, c) = sm.slope;
        W(i, yi) -= sm.slope;
        kappa(i, c) = sm.curvature;
      }
    }

    Eigen::VectorXd regGrad;
    regularizer(x, &regGrad);
    Eigen::VectorXd g(M);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(M, M);
    std::vector<Eigen::MatrixXd> P(static_cast<std::size_t>(C_));
    for (Index c = 0; c < C_; ++c) {
      const Eigen::MatrixXd& Vc = V[static_cast<std::size_t>(c)];
      const Eigen::VectorXd& lc = lambda[static_cast<std::size_t>(c)];
      // Rows' coordinates: x̃ᵀE_αx̃ = p_ap_b (·√2 off the diagonal), p = Vᵀx̃.
      const Eigen::MatrixXd rowsV = augmented_ * Vc;
      Eigen::MatrixXd& Pc = P[static_cast<std::size_t>(c)];
      Pc.resize(n, m);
      for (Index k = 0; k < m; ++k) {
        const auto [a, b] = pairs_.list[static_cast<std::size_t>(k)];
        Pc.col(k) = rowsV.col(a).cwiseProduct(rowsV.col(b)) * (a == b ? 1.0 : std::numbers::sqrt2);
      }
      auto gc = g.segment(c * m, m);
      const Eigen::Map<const Eigen::MatrixXd> rc(regGrad.data() + c * D_ * D_, D_, D_);
      coordinatesOf(pairs_, Vc.transpose() * rc * Vc, gc);
      gc.noalias() += Pc.transpose() * W.col(c);
      // Regularizer q⟨E_α, M E_β M⟩ and barrier μ⟨E_α, Λ⁻¹E_βΛ⁻¹⟩ = μ/(λ_aλ_b) on α = β.
      const Eigen::MatrixXd MV = Vc.transpose() * metric_ * Vc;
      auto Hc = H.block(c * m, c * m, m, m);
      const auto scale = [](Index a, Index b) { return a == b ? 0.5 : 1.0 / std::numbers::sqrt2; };
      for (Index j = 0; j < m; ++j) {
        const auto [k, l] = pairs_.list[static_cast<std::size_t>(j)];
        const double sj = scale(k, l) * 2 * p_.quadratic;
        for (Index i = 0; i <= j; ++i) {
          const auto [a, b] = pairs_.list[static_cast<std::size_t>(i)];
          Hc(i, j) = (MV(b, k) * MV(a, l) + MV(b, l) * MV(a, k)) * scale(a, b) * sj;
        }
        Hc(j, j) += mu / (lc[k] * lc[l]);
        if (k == l) gc[j] -= mu / lc[k];
      }
    }
    // The loss: Σ_i Σ_{c≠y} κ_ic (a_ic − a_iy)(a_ic − a_iy)ᵀ, class blocks (a, b).
    Eigen::VectorXd omega(n);
    for (Index a = 0; a < C_; ++a)
      for (Index b = a; b < C_; ++b) {
        for (Index i = 0; i < n; ++i) {
          const Index yi = p_.y[i];
          omega[i] = a == b ? (a == yi ? kappa.row(i).sum() : kappa(i, a))
                            : (yi == a ? -kappa(i, b) : yi == b ? -kappa(i, a) : 0.0);
        }
        if (omega.isZero(0)) continue;
        const Eigen::MatrixXd block =
            P[static_cast<std::size_t>(a)].transpose() * omega.asDiagonal() * P[static_cast<std::size_t>(b)];
        if (a == b) {
          H.block(a * m, a * m, m, m).triangularView<Eigen::Upper>() += block;
        } else {
          H.block(a * m, b * m, m, m) += block;
        }
      }

    // Symmetric diagonal scaling before Cholesky (of the upper triangle, the one filled):
    // the barrier's diagonal spans many orders.
    const Eigen::VectorXd scale = H.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse();
    const Eigen::LLT<Eigen::MatrixXd, Eigen::Upper> llt(scale.asDiagonal() * H * scale.asDiagonal());
    if (llt.info() != Eigen::Success) return false;
    const Eigen::VectorXd delta = scale.cwiseProduct(llt.solve(-scale.cwiseProduct(g)));
    if (!delta.allFinite()) return false;
    decrement = -g.dot(delta);

    step.resize(x.size());
    maxStep = 1;
    for (Index c = 0; c < C_; ++c) {
      const Eigen::MatrixXd& Vc = V[static_cast<std::size_t>(c)];
      const Eigen::MatrixXd DV = matrixOf(pairs_, delta.segment(c * m, m), D_);
      Eigen::Map<Eigen::MatrixXd>(step.data() + c * D_ * D_, D_, D_) = Vc * DV * Vc.transpose();
      // x + tΔ ≻ 0 ⇔ I + tΛ^{-1/2}Δ_VΛ^{-1/2} ≻ 0.
      const Eigen::VectorXd r = lambda[static_cast<std::size_t>(c)].cwiseSqrt().cwiseInverse();
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(r.asDiagonal() * DV * r.asDiagonal(),
                                                               Eigen::EigenvaluesOnly);
      const double lowest = eig.eigenvalues().minCoeff();
      if (lowest < 0) maxStep = std::min(maxStep, -kBoundary / lowest);
    }
    return true;
  }

  // R(x) = (q/2)‖TᵀxT‖² + ⟨c, TᵀxT⟩ and, if wanted, its gradient T(qΦ + c)Tᵀ.
  double regularizer(const Eigen::VectorXd& x, Eigen::VectorXd* grad) const {
    const Eigen::VectorXd phi = congruence(x, p_.T, C_);
    double value = 0.5 * p_.quadratic * phi.squaredNorm();
    Eigen::VectorXd pull = p_.quadratic * phi;
    if (hasLinear_) {
      value += p_.linear.dot(phi);
      pull += p_.linear;
    }
    if (grad) *grad = congruence(pull, p_.T.transpose(), C_);
    return value;
  }

 private:
  const LmgcBarrierProblem& p_;
  Index C_, D_;
  Pairs pairs_;
  bool hasLinear_;
  Eigen::MatrixXd augmented_;  // x̃ = [x; 1]/√2 of the rows
  Eigen::MatrixXd metric_;     // TTᵀ
};

// Each x_c with its eigenvalues below kZeroShare·λ_max set to zero.
Eigen::VectorXd purified(const LmgcModel& model, const Eigen::VectorXd& x) {
  const Index D = model.augmentedDim();
  Eigen::VectorXd out(x.size());
  for (Index c = 0; c < model.classes(); ++c) {
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(model.classMatrix(x, c));
    Eigen::VectorXd l = eig.eigenvalues();
    const double floor = kZeroShare * std::max(l.maxCoeff(), 0.0);
    for (Index k = 0; k < l.size(); ++k)
      if (l[k] <= floor) l[k] = 0;
    Eigen::Map<Eigen::MatrixXd>(out.data() + c * D * D, D, D) =
        eig.eigenvectors() * l.asDiagonal() * eig.eigenvectors().transpose();
  }
  model.project(out);  // exact symmetry; no eigenvalue is negative beyond rounding
  return out;
}

}  // namespace

LmgcInteriorResult minimizeLmgcInterior(const LmgcBarrierProblem& problem, const SmoothFunction& objective,
                                        Eigen::VectorXd& x, const LmgcInteriorOptions& options) {
  const LmgcModel& model = problem.model;
  const Index C = model.classes(), D = model.augmentedDim();
  LmgcInteriorResult result;
  const Barrier barrier(problem);
  if (barrier.dimension() > options.maxDimension) {
    result.outcome = LmgcInteriorResult::Outcome::TooLarge;
    return result;
  }

  // Strictly inside: x_c + shift·I.
  double largest = 0;
  for (Index c = 0; c < C; ++c)
    largest = std::max(largest, Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(model.classMatrix(x, c),
                                                                                Eigen::EigenvaluesOnly)
                                    .eigenvalues()
                                    .maxCoeff());
  const double shift = kStartShift * (largest > 0 ? largest : 1.0);
  for (Index c = 0; c < C; ++c)
    for (Index k = 0; k < D; ++k) x[c * D * D + k * D + k] += shift;

  Eigen::VectorXd grad(x.size());
  result.objective = objective(x, grad);
  ++result.evaluations;
  double tolerance = 0;
  result.measure = options.measure(x, grad, tolerance);
  // The barrier's duality gap is about μ·ν, ν the number of logarithms: J/ν would start the
  // gap near J, but in J's nearly flat directions the centre of B_μ is then far out (wine:
  // ‖x‖ ~ 10⁵); initialBarrierShare scales it down.
  const double nu = static_cast<double>(2 * barrier.pairCount() + C * D);
  double mu = std::max(std::abs(result.objective), 1e-12) / nu * options.initialBarrierShare;
  double current = 0;
  if (!barrier.value(x, mu, current)) return result;

  Eigen::VectorXd step, trial(x.size());
  while (result.iterations < options.maxIterations) {
    double decrement = 0, maxStep = 1;
    if (!barrier.newton(x, mu, step, decrement, maxStep)) return result;
    if (decrement <= kCentred * mu) {
      // Centred for this μ: follow the path.
      if (mu <= kSmallestMu) return result;
      mu /= kCut;
      if (!barrier.value(x, mu, current)) return result;
      continue;
    }
    const double noise = 64 * std::numeric_limits<double>::epsilon() * std::abs(current);
    double t = maxStep, next = 0;
    bool accepted = false;
    for (int k = 0; k < kHalvings && !accepted; ++k, t *= 0.5) {
      trial = x + t * step;
      accepted = barrier.value(trial, mu, next) && next <= current - kArmijo * t * decrement + noise;
    }
    if (!accepted) {
      // No decrease beyond rounding: as centred as it gets at this μ.
      if (mu <= kSmallestMu) return result;
      mu /= kCut;
      if (!barrier.value(x, mu, current)) return result;
      continue;
    }
    x.swap(trial);
    current = next;
    ++result.iterations;
    result.objective = objective(x, grad);
    ++result.evaluations;
    result.measure = options.measure(x, grad, tolerance);
    if (options.callback && !options.callback({result.iterations, result.objective, result.measure})) {
      result.outcome = LmgcInteriorResult::Outcome::Cancelled;
      return result;
    }
    if (result.measure <= tolerance) {
      result.outcome = LmgcInteriorResult::Outcome::Converged;
      // The barrier keeps exact zeros at ~μ/γ; set them to zero if that keeps the measure.
      const Eigen::VectorXd clean = purified(model, x);
      Eigen::VectorXd cleanGrad(x.size());
      const double value = objective(clean, cleanGrad);
      ++result.evaluations;
      double cleanTolerance = 0;
      const double measure = options.measure(clean, cleanGrad, cleanTolerance);
      if (measure <= cleanTolerance && value <= result.objective + noise) {
        x = clean;
        result.objective = value;
        result.measure = measure;
      }
      return result;
    }
  }
  result.outcome = LmgcInteriorResult::Outcome::MaxIterations;
  return result;
}

}  // namespace dpstudio

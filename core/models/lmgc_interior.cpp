#include "core/models/lmgc_interior.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>

#include "core/linalg/blocked_cholesky.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc_congruence.h"
#include "core/models/lmgc_pair_curvature.h"
#include "core/models/lmgc_sym_coordinates.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;
using lmgc_detail::congruence;

constexpr double kBoundary = 0.98;    // fraction of the largest feasible step taken
// x_c += kStartShift·λ_max·I before the first step. A start well inside the cone keeps the dual
// Z_c = μ₀x_c⁻¹ moderate, and the steps long (bench_lmgc, steps to convergence at 10⁻³ → 0.3:
// raw breast cancer 61 → 44, wine 49 → 39, iris 37 → 16, blobs 24 → 13; 0.1…1 within a few).
constexpr double kStartShift = 0.3;
constexpr double kZeroShare = 1e-9;   // purification: eigenvalues below this share → 0
constexpr double kSmallestStep = 1e-10;  // steps this short: stalled, hand over to the caller
// Converged also needs the complementarity gap below this share of |J|: the caller's measure
// alone, relative to ‖x‖, can hold while J is still 10⁻⁵ above its minimum (raw wine).
constexpr double kGapShare = 1e-10;

// The symmetric matrices' coordinates (lmgc_sym_coordinates.h), taken in an eigenbasis V of
// x_c: there the log-det barrier's Hessian is diagonal (μ/(λ_aλ_b)).
using Pairs = lmgc_detail::SymmetricPairs;
using lmgc_detail::coordinatesOf;
using lmgc_detail::matrixOf;

// sym(M) = (M + Mᵀ)/2.
Eigen::MatrixXd sym(const Eigen::MatrixXd& m) { return 0.5 * (m + m.transpose()); }

// The largest t with A + tΔ ⪰ 0 for A ≻ 0 given by its lower Cholesky factor L (∞ when
// Δ ⪰ 0).
double coneStep(const Eigen::MatrixXd& L, const Eigen::MatrixXd& delta) {
  const Eigen::MatrixXd left = L.triangularView<Eigen::Lower>().solve(delta);
  const Eigen::MatrixXd both = L.triangularView<Eigen::Lower>().solve(left.transpose());
  const double lowest = symmetricEigenvalues(sym(both)).minCoeff();
  return lowest < 0 ? -1 / lowest : std::numeric_limits<double>::infinity();
}

// Rows [first, first + count) of the n × C pair matrices (and of an n-vector), as arrays: the
// slice a row chunk's elementwise work sees (PrimalDual::forRowChunks).
struct RowSlice {
  Index first, count;
  auto operator()(const Eigen::MatrixXd& matrix) const { return matrix.middleRows(first, count).array(); }
  auto operator()(Eigen::MatrixXd& matrix) const { return matrix.middleRows(first, count).array(); }
  auto of(const Eigen::VectorXd& vector) const { return vector.segment(first, count).array(); }
};

// A search direction of the primal-dual system (see lmgc_interior.h), per class in the
// eigenbasis V_c of x_c for the matrices, n × C for the pairs (column y_i unused).
struct Direction {
  Eigen::VectorXd x;                  // Δx in the parameter layout (mapped coordinates)
  std::vector<Eigen::MatrixXd> xV;    // V_cᵀΔx_cV_c
  std::vector<Eigen::MatrixXd> zV;    // V_cᵀΔZ_cV_c
  Eigen::MatrixXd u, v, y, eta, s;
  Eigen::MatrixXd margins;  // Δm_p, 0 on column y_i
};

class PrimalDual {
 public:
  explicit PrimalDual(const LmgcInteriorProblem& p)
      : p_(p), C_(p.model.classes()), D_(p.model.augmentedDim()), pairs_(p.model.augmentedDim()),
        hasLinear_(p.linear.size() == p.model.parameterCount()) {
    const Index n = p.rows.rows();
    // The rows in class order, each class's a contiguous range: a block (a, b ≠ a) of the
    // system sees only the rows of classes a and b (factor()).
    std::vector<Index> order(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    std::stable_sort(order.begin(), order.end(), [&](Index i, Index j) { return p.y[i] < p.y[j]; });
    rows_.resize(n, p.rows.cols());
    labels_.resize(n);
    rowWeight_.resize(n);
    classStart_ = std::vector<Index>(static_cast<std::size_t>(C_ + 1), 0);
    for (Index k = 0; k < n; ++k) {
      const Index i = order[static_cast<std::size_t>(k)];
      rows_.row(k) = p.rows.row(i);
      labels_[k] = p.y[i];
      rowWeight_[k] = p.counts ? p.weight * (*p.counts)[i] : p.weight;
      ++classStart_[static_cast<std::size_t>(p.y[i] + 1)];
    }
    for (Index c = 0; c < C_; ++c) classStart_[static_cast<std::size_t>(c + 1)] += classStart_[static_cast<std::size_t>(c)];
    augmented_ = LmgcModel::augmentedRows(rows_);
    outer_ = lmgc_detail::outerProductCoordinates(pairs_, augmented_);
    pairCurvature_.emplace(pairs_, augmented_, outer_, classStart_);
    metric_ = p.metric();
    mask_ = Eigen::MatrixXd::Ones(n, C_);
    for (Index i = 0; i < n; ++i) mask_(i, labels_[i]) = 0;
    labelMask_ = 1 - mask_.array();
    rowK_ = rowWeight_ / (2 * p.model.huberWidth());
  }

  Index dimension() const { return lmgcInteriorDimension(C_, D_); }
  Index pairCount() const { return rows_.rows() * (C_ - 1); }
  double nu() const { return static_cast<double>(C_ * D_ + 2 * pairCount()); }

  // The hinge constraint's slack u + v − (1 + h − m) ≥ 0 on the slice's rows, from margins z.
  // (Above its callers, which need its deduced type.)
  auto slack(const RowSlice& rows, const Eigen::MatrixXd& z) const {
    return rows(u_) + rows(v_) + rows(z) - (1 + p_.model.huberWidth());
  }

  // Starts from x (moved inside the cone by the caller): pairs on their constraints'
  // safe side, y = η = w/2 (r_v = 0), Z_c = μ₀x_c⁻¹ (centred).
  bool start(const Eigen::VectorXd& x) {
    const double h = p_.model.huberWidth();
    const Eigen::MatrixXd& z = margins(x);
    const Index n = z.rows();
    u_ = Eigen::MatrixXd::Zero(n, C_);
    v_ = u_;
    for (Index i = 0; i < n; ++i)
      for (Index c = 0; c < C_; ++c) {
        if (mask_(i, c) == 0) continue;
        const double a = 1 + h - z(i, c);
        u_(i, c) = std::clamp(a, 0.0, 2 * h);
        v_(i, c) = std::max(a - u_(i, c), 0.0) + 1;
      }
    y_ = 0.5 * (rowWeight_.asDiagonal() * mask_);
    eta_ = y_;
    const Eigen::MatrixXd s = slack(RowSlice{0, n}, z).matrix();
    const double mu0 = (y_.cwiseProduct(s).sum() + eta_.cwiseProduct(v_).sum()) / static_cast<double>(2 * pairCount());
    Z_.assign(static_cast<std::size_t>(C_), Eigen::MatrixXd());
    for (Index c = 0; c < C_; ++c) {
      const Eigen::LLT<Eigen::MatrixXd> llt(p_.model.classMatrix(x, c));
      if (llt.info() != Eigen::Success) return false;
      Z_[static_cast<std::size_t>(c)] = mu0 * llt.solve(Eigen::MatrixXd::Identity(D_, D_));
    }
    return true;
  }

  // One Mehrotra predictor–corrector step from x (and the duals held here). Returns the
  // step length taken (0: the system could not be solved).
  double step(Eigen::VectorXd& x) {
    const Index n = rows_.rows();
    V_.assign(static_cast<std::size_t>(C_), Eigen::MatrixXd());
    lambda_.assign(static_cast<std::size_t>(C_), Eigen::VectorXd());
    ZV_.assign(static_cast<std::size_t>(C_), Eigen::MatrixXd());
    double gap = 0;
    for (Index c = 0; c < C_; ++c) {
      const auto cs = static_cast<std::size_t>(c);
      SymmetricEigen eig = symmetricEigen(p_.model.classMatrix(x, c));
      if (!(eig.values.minCoeff() > 0)) return 0;
      V_[cs] = std::move(eig.vectors);
      lambda_[cs] = std::move(eig.values);
      ZV_[cs] = sym(V_[cs].transpose() * Z_[cs] * V_[cs]);
      gap += lambda_[cs].dot(ZV_[cs].diagonal());
    }
    L_.resize(static_cast<std::size_t>(C_));
    for (Index c = 0; c < C_; ++c) L_[static_cast<std::size_t>(c)] = lmgc_detail::basisChange(pairs_, V_[static_cast<std::size_t>(c)]);
    const Eigen::MatrixXd& z = margins(x);
    for (Eigen::MatrixXd* pairs : {&s_, &ru_, &rv_, &yPad_, &etaPad_, &kappa_, &inverseY_, &inverseEta_, &inverseS_,
                                   &inverseV_})
      pairs->resize(n, C_);
    gap += sumOverRowChunks([&](const RowSlice& rows) {
      rows(s_) = slack(rows, z);
      rows(ru_) = (rows(u_).colwise() * rows.of(rowK_) - rows(y_)) * rows(mask_);
      rows(rv_) = (rows(mask_).colwise() * rows.of(rowWeight_) - rows(y_) - rows(eta_)) * rows(mask_);
      // y and η with 1 off the pairs, to divide by (column y_i is 0 in everything divided).
      rows(yPad_) = rows(y_) + rows(labelMask_);
      rows(etaPad_) = rows(eta_) + rows(labelMask_);
      // κ_p = 1/(1/k + v/η + s/y): the pairs' curvature after eliminating u, v, y, η.
      rows(kappa_) = rows(mask_) / (((rows(v_) / rows(etaPad_)).colwise() + rows.of(rowK_).inverse()) +
                                    rows(s_) / rows(yPad_));
      // For the ratio tests of both directions (maxStep).
      rows(inverseY_) = rows(mask_) / rows(yPad_);
      rows(inverseEta_) = rows(mask_) / rows(etaPad_);
      rows(inverseS_) = rows(mask_) / (rows(s_) * rows(mask_) + rows(labelMask_));
      rows(inverseV_) = rows(mask_) / (rows(v_) + rows(labelMask_));
      return (rows(y_) * rows(s_) + rows(eta_) * rows(v_)).sum();
    });
    mu_ = gap / nu();
    if (!factor()) return 0;
    regularizerGradient(x);

    // Predictor (σ = 0), then the corrector with σ = (μ_aff/μ)³ and the second-order terms.
    zeroPairs_.setZero(n, C_);
    std::vector<Eigen::MatrixXd> zeroZ(static_cast<std::size_t>(C_), Eigen::MatrixXd::Zero(D_, D_));
    Direction& affine = affine_;
    if (!solve(0, zeroPairs_, zeroPairs_, zeroZ, affine)) return 0;
    const double tAffine = std::min(1.0, maxStep(affine));
    double affineGap = 0;
    for (Index c = 0; c < C_; ++c) {
      const auto cs = static_cast<std::size_t>(c);
      const Eigen::MatrixXd X = Eigen::MatrixXd(lambda_[cs].asDiagonal()) + tAffine * affine.xV[cs];
      affineGap += (X.cwiseProduct(ZV_[cs] + tAffine * affine.zV[cs])).sum();
    }
    corrY_.resize(n, C_);
    corrV_.resize(n, C_);
    affineGap += sumOverRowChunks([&](const RowSlice& rows) {
      rows(corrY_) = rows(affine.y) * rows(affine.s);
      rows(corrV_) = rows(affine.eta) * rows(affine.v);
      return (((rows(y_) + tAffine * rows(affine.y)) * (rows(s_) + tAffine * rows(affine.s))) * rows(mask_)).sum() +
             (((rows(eta_) + tAffine * rows(affine.eta)) * (rows(v_) + tAffine * rows(affine.v))) * rows(mask_)).sum();
    });
    const double sigma = std::clamp(std::pow(std::max(affineGap, 0.0) / gap, 3), 0.0, 1.0);
    std::vector<Eigen::MatrixXd> corrZ(static_cast<std::size_t>(C_));
    for (Index c = 0; c < C_; ++c) {
      const auto cs = static_cast<std::size_t>(c);
      corrZ[cs] = sym(lambda_[cs].cwiseInverse().asDiagonal() * affine.xV[cs] * affine.zV[cs]);
    }
    Direction& d = direction_;
    if (!solve(sigma * mu_, corrY_, corrV_, corrZ, d)) return 0;
    const double t = std::min(1.0, kBoundary * maxStep(d));
    if (!(t > 0) || !std::isfinite(t)) return 0;

    x += t * d.x;
    for (Index c = 0; c < C_; ++c) {
      const auto cs = static_cast<std::size_t>(c);
      Z_[cs] = sym(Z_[cs] + t * V_[cs] * d.zV[cs] * V_[cs].transpose());
    }
    forRowChunks([&](const RowSlice& rows) {
      rows(u_) += t * rows(d.u);
      rows(v_) += t * rows(d.v);
      rows(y_) += t * rows(d.y);
      rows(eta_) += t * rows(d.eta);
      rows(margins_) += t * rows(d.margins);
    });
    marginsAt_ = x;
    return t;
  }

  // The complementarity gap Σ_c⟨x_c, Z_c⟩ + Σ_p (y_p s_p + η_p v_p) at x: J(x) minus the
  // Lagrangian dual's value, once the residuals of the other KKT conditions have vanished.
  double gap(const Eigen::VectorXd& x) const {
    double total = 0;
    for (Index c = 0; c < C_; ++c) total += p_.model.classMatrix(x, c).cwiseProduct(Z_[static_cast<std::size_t>(c)]).sum();
    const Eigen::MatrixXd& z = margins(x);
    return total + sumOverRowChunks([&](const RowSlice& rows) {
             return ((rows(y_) * slack(rows, z) + rows(eta_) * rows(v_)) * rows(mask_)).sum();
           });
  }

 private:
  // m_p = s_c − s_y for the pairs (0 on y_i's column). Computed from the scores at the start;
  // after that a step moves them along with x, by t·Δm (they are linear in x), and gap() and
  // the next step() find them here: two evaluations of the scores over every row a step cost
  // shuttle 0.6 of its 4.3 s. (Their rounding drifts by ~10⁻¹⁴ a step, against slacks of
  // ~10⁻⁷ at the end; convergence is decided on J's own evaluation.)
  const Eigen::MatrixXd& margins(const Eigen::VectorXd& x) const {
    if (marginsAt_.size() == x.size() && (marginsAt_.array() == x.array()).all()) return margins_;
    const Eigen::MatrixXd scores = p_.model.scores(x, rows_);  // −s
    margins_.resize(scores.rows(), C_);
    forRowChunks([&](const RowSlice& rows) {
      for (Index i = rows.first; i < rows.first + rows.count; ++i)
        margins_.row(i) = scores(i, labels_[i]) - scores.row(i).array();
    });
    marginsAt_ = x;
    return margins_;
  }
  // body(slice) for the rows in RowChunks, on the worker threads.
  void forRowChunks(const std::function<void(const RowSlice& rows)>& body) const {
    const RowChunks chunks{rows_.rows()};
    parallelFor(chunks.count(), [&](Index chunk) { body(RowSlice{chunks.begin(chunk), chunks.size(chunk)}); });
  }
  // body(slice)'s value for each of the RowChunks, on the worker threads, in chunk order.
  std::vector<double> perRowChunk(const std::function<double(const RowSlice& rows)>& body) const {
    const RowChunks chunks{rows_.rows()};
    std::vector<double> values(static_cast<std::size_t>(chunks.count()), 0.0);
    parallelFor(chunks.count(), [&](Index chunk) {
      values[static_cast<std::size_t>(chunk)] = body(RowSlice{chunks.begin(chunk), chunks.size(chunk)});
    });
    return values;
  }
  // Their sum, added in chunk order (the same bits on any thread count).
  double sumOverRowChunks(const std::function<double(const RowSlice& rows)>& body) const {
    const std::vector<double> values = perRowChunk(body);
    return std::accumulate(values.begin(), values.end(), 0.0);
  }

  // H = ∇²R + Σ_p κ_p A_pA_pᵀ + E, E(Δ) = sym(x⁻¹ΔZ) the HKM term, in the eigenbases.
  bool factor() {
    const Index m = pairs_.size(), M = dimension();
    H_ = Eigen::MatrixXd::Zero(M, M);
    const auto scale = [](Index a, Index b) { return a == b ? 0.5 : 1.0 / std::numbers::sqrt2; };
    parallelFor(C_, [&](Index c) {  // each class its own diagonal block
      const auto cs = static_cast<std::size_t>(c);
      const Eigen::MatrixXd MV = V_[cs].transpose() * metric_ * V_[cs];
      const Eigen::MatrixXd& Zt = ZV_[cs];
      const Eigen::VectorXd inv = lambda_[cs].cwiseInverse();
      auto Hc = H_.block(c * m, c * m, m, m);
      for (Index j = 0; j < m; ++j) {
        const auto [k, l] = pairs_.list[static_cast<std::size_t>(j)];
        const double sj = scale(k, l);
        for (Index i = 0; i <= j; ++i) {
          const auto [a, b] = pairs_.list[static_cast<std::size_t>(i)];
          const double si = scale(a, b);
          // Regularizer q⟨E_α, M E_β M⟩.
          double value = (MV(b, k) * MV(a, l) + MV(b, l) * MV(a, k)) * si * sj * 2 * p_.quadratic;
          // ⟨E_β, Λ⁻¹E_αZ̃⟩ with E_α = s_α(e_ae_bᵀ + e_be_aᵀ): nonzero when they share an index.
          double e = 0;
          if (k == a) e += Zt(b, l) * inv[a];
          if (k == b) e += Zt(a, l) * inv[b];
          if (l == a) e += Zt(b, k) * inv[a];
          if (l == b) e += Zt(a, k) * inv[b];
          value += si * sj * e;
          Hc(i, j) = value;
        }
      }
    });
    // The pairs: Σ_i Σ_{c≠y} κ_ic (a_ic − a_iy)(a_ic − a_iy)ᵀ (lmgc_pair_curvature.h).
    pairCurvature_->addTo(H_, kappa_, V_, L_);
    // Symmetric diagonal scaling before Cholesky (of the upper triangle, the one filled, which
    // is the lower triangle of the transpose that BlockedCholesky reads).
    scaling_ = H_.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse();
    scaledSystem_.noalias() = (scaling_.asDiagonal() * H_ * scaling_.asDiagonal()).transpose();
    return cholesky_.computeInPlace(scaledSystem_);
  }

  // ∇R = T(qΦ + c)Tᵀ in each eigenbasis' coordinates.
  void regularizerGradient(const Eigen::VectorXd& x) {
    const Eigen::VectorXd phi = congruence(x, p_.T, C_);
    Eigen::VectorXd pull = p_.quadratic * phi;
    if (hasLinear_) pull += p_.linear;
    const Eigen::VectorXd grad = congruence(pull, p_.T.transpose(), C_);
    const Index m = pairs_.size();
    regCoords_.resize(dimension());
    for (Index c = 0; c < C_; ++c) {
      const auto cs = static_cast<std::size_t>(c);
      const Eigen::Map<const Eigen::MatrixXd> g(grad.data() + c * D_ * D_, D_, D_);
      coordinatesOf(pairs_, V_[cs].transpose() * g * V_[cs], regCoords_.segment(c * m, m));
    }
  }

  // The direction for centring target σμ and second-order corrections (pairs: Δy·Δs and
  // Δη·Δv; matrices: sym(Λ⁻¹ΔX̃ΔZ̃) in the eigenbases).
  bool solve(double target, const Eigen::MatrixXd& corrY, const Eigen::MatrixXd& corrV,
             const std::vector<Eigen::MatrixXd>& corrZ, Direction& d) {
    const Index n = rows_.rows(), m = pairs_.size();
    Eigen::MatrixXd& rcY = rcY_;
    Eigen::MatrixXd& rcV = rcV_;
    rcY.resize(n, C_);
    rcV.resize(n, C_);
    // Δy_p = g_p − κ_p⟨A_p, Δx⟩.
    Eigen::MatrixXd& g = g_;
    Eigen::MatrixXd& W = W_;
    g.resize(n, C_);
    W.resize(n, C_);
    forRowChunks([&](const RowSlice& rows) {  // rows are independent
      rows(rcY) = (target - rows(y_) * rows(s_) - rows(corrY)) * rows(mask_);
      rows(rcV) = (target - rows(eta_) * rows(v_) - rows(corrV)) * rows(mask_);
      rows(g) = rows(kappa_) * ((rows(rcY) / rows(yPad_) + rows(ru_).colwise() / rows.of(rowK_)) -
                                (rows(rcV) - rows(v_) * rows(rv_)) / rows(etaPad_));
      // W_ic = y_ic + g_ic on the pairs, and minus their sum on column y_i.
      rows(W) = rows(y_) + rows(g);
      for (Index i = rows.first; i < rows.first + rows.count; ++i) {
        double sum = 0;
        for (Index c = 0; c < C_; ++c)
          if (c != labels_[i]) sum += W(i, c);
        W(i, labels_[i]) = -sum;
      }
    });
    const RowChunks chunks{n};
    // Σ_i W_ic a_ic = L_c·Σ_i W_ic q_i: the rows' sums by chunk, added in chunk order. As
    // WᵀQ (C × m), whose product packs Q's columns as they are stored: QᵀW packed Qᵀ's rows
    // across columns of Q, 4.2 against 3.0 ms over shuttle's rows.
    std::vector<Eigen::MatrixXd> partial(static_cast<std::size_t>(chunks.count()));
    parallelFor(chunks.count(), [&](Index chunk) {
      partial[static_cast<std::size_t>(chunk)].noalias() =
          W.middleRows(chunks.begin(chunk), chunks.size(chunk)).transpose() *
          outer_.middleRows(chunks.begin(chunk), chunks.size(chunk));
    });
    Eigen::MatrixXd weighted = Eigen::MatrixXd::Zero(m, C_);
    for (const Eigen::MatrixXd& part : partial) weighted += part.transpose();
    Eigen::VectorXd rhs = -regCoords_;
    parallelFor(C_, [&](Index c) {  // each class its own segment
      const auto cs = static_cast<std::size_t>(c);
      auto rc = rhs.segment(c * m, m);
      rc.noalias() += L_[cs] * weighted.col(c);
      Eigen::VectorXd extra(m);
      const Eigen::MatrixXd target_c = target * Eigen::MatrixXd(lambda_[cs].cwiseInverse().asDiagonal()) - corrZ[cs];
      coordinatesOf(pairs_, target_c, extra);
      rc += extra;
    });
    const Eigen::VectorXd delta = scaling_.cwiseProduct(cholesky_.solve(scaling_.cwiseProduct(rhs)));
    if (!delta.allFinite()) return false;

    d.x.resize(C_ * D_ * D_);
    d.xV.assign(static_cast<std::size_t>(C_), Eigen::MatrixXd());
    d.zV.assign(static_cast<std::size_t>(C_), Eigen::MatrixXd());
    // ⟨a_ic, Δx_c⟩ = q_iᵀ(L_cᵀΔx_c): one product over the rows for every class.
    Eigen::MatrixXd& q = q_;
    q.resize(n, C_);
    Eigen::MatrixXd standard(m, C_);
    parallelFor(C_, [&](Index c) {  // each class its own blocks and column
      const auto cs = static_cast<std::size_t>(c);
      d.xV[cs] = matrixOf(pairs_, delta.segment(c * m, m), D_);
      Eigen::Map<Eigen::MatrixXd>(d.x.data() + c * D_ * D_, D_, D_) = V_[cs] * d.xV[cs] * V_[cs].transpose();
      standard.col(c).noalias() = L_[cs].transpose() * delta.segment(c * m, m);
      // ΔZ̃ = σμΛ⁻¹ − Z̃ − sym(Λ⁻¹ΔX̃Z̃) − corrZ.
      const Eigen::VectorXd inv = lambda_[cs].cwiseInverse();
      d.zV[cs] = target * Eigen::MatrixXd(inv.asDiagonal()) - ZV_[cs] - sym(inv.asDiagonal() * d.xV[cs] * ZV_[cs]) - corrZ[cs];
    });
    parallelFor(chunks.count(), [&](Index chunk) {
      q.middleRows(chunks.begin(chunk), chunks.size(chunk)).noalias() =
          outer_.middleRows(chunks.begin(chunk), chunks.size(chunk)) * standard;
    });
    for (Eigen::MatrixXd* pairs : {&d.u, &d.v, &d.y, &d.eta, &d.s, &d.margins}) pairs->resize(n, C_);
    forRowChunks([&](const RowSlice& rows) {
      // Δm_p = ⟨a_ic − a_iy, Δx⟩, 0 on column y_i.
      Eigen::ArrayXd own(rows.count);
      for (Index i = 0; i < rows.count; ++i) own[i] = q(rows.first + i, labels_[rows.first + i]);
      rows(d.margins) = rows(q).colwise() - own;
      const auto margin = rows(d.margins);
      rows(d.y) = rows(g) - rows(kappa_) * margin;
      rows(d.u) = (rows(d.y) - rows(ru_)).colwise() / rows.of(rowK_);
      rows(d.eta) = rows(rv_) - rows(d.y);
      rows(d.v) = (rows(rcV) - rows(v_) * rows(d.eta)) / rows(etaPad_);
      rows(d.s) = rows(d.u) + rows(d.v) + margin;
    });
    return true;
  }

  // The largest step keeping x, Z, y, η, s and v feasible.
  double maxStep(const Direction& d) const {
    double t = std::numeric_limits<double>::infinity();
    for (Index c = 0; c < C_; ++c) {
      const auto cs = static_cast<std::size_t>(c);
      const Eigen::VectorXd r = lambda_[cs].cwiseSqrt().cwiseInverse();
      const double lowest =
          symmetricEigenvalues(sym(r.asDiagonal() * d.xV[cs] * r.asDiagonal())).minCoeff();
      if (lowest < 0) t = std::min(t, -1 / lowest);
      const Eigen::LLT<Eigen::MatrixXd> z(ZV_[cs]);
      if (z.info() != Eigen::Success) return 0;
      t = std::min(t, coneStep(z.matrixL(), d.zV[cs]));
    }
    // The pairs' ratio tests: the largest −Δq/q over every pair variable, by row chunks.
    const std::vector<double> fastest = perRowChunk([&](const RowSlice& rows) {
      return std::max({(-rows(d.y) * rows(inverseY_)).maxCoeff(), (-rows(d.eta) * rows(inverseEta_)).maxCoeff(),
                       (-rows(d.s) * rows(inverseS_)).maxCoeff(), (-rows(d.v) * rows(inverseV_)).maxCoeff(), 0.0});
    });
    const double pairs = fastest.empty() ? 0.0 : *std::max_element(fastest.begin(), fastest.end());
    if (pairs > 0) t = std::min(t, 1 / pairs);
    return t;
  }

  const LmgcInteriorProblem& p_;
  Index C_, D_;
  Pairs pairs_;
  bool hasLinear_;
  Eigen::MatrixXd rows_;               // the problem's rows in class order
  Eigen::VectorXi labels_;             // their labels
  std::vector<Index> classStart_;      // class c's rows: [classStart_[c], classStart_[c + 1])
  Eigen::MatrixXd augmented_;  // x̃ = [x; 1]/√2 of rows_
  Eigen::MatrixXd outer_;      // row i: coords(x̃_ix̃_iᵀ), n × m
  std::optional<lmgc_detail::PairCurvature> pairCurvature_;  // over augmented_ and outer_
  Eigen::MatrixXd metric_;     // TTᵀ
  Eigen::MatrixXd mask_;       // n × C: 1 on the pairs (c ≠ y_i)
  Eigen::MatrixXd labelMask_;  // 1 − mask_
  // A row's weight w·count (lmgc_merged_rows.h: a merged row is count identical pairs, its
  // duals count times theirs) and w·count/(2h), the hinge's curvature on its quadratic part.
  Eigen::VectorXd rowWeight_, rowK_;
  // The duals and the pairs' variables.
  std::vector<Eigen::MatrixXd> Z_;
  Eigen::MatrixXd u_, v_, y_, eta_;
  // Per step.
  double mu_ = 0;
  std::vector<Eigen::MatrixXd> V_, ZV_;
  std::vector<Eigen::MatrixXd> L_;     // coords(x̃x̃ᵀ) → coords in V_c's basis (lmgc_sym_coordinates.h)
  std::vector<Eigen::VectorXd> lambda_;
  Eigen::MatrixXd s_, ru_, rv_, kappa_, H_, yPad_, etaPad_;
  Eigen::MatrixXd inverseY_, inverseEta_, inverseS_, inverseV_;  // 1/q on the pairs, 0 off them
  Eigen::VectorXd scaling_, regCoords_;
  BlockedCholesky cholesky_;
  Eigen::MatrixXd scaledSystem_;  // the storage of the factor before last, reused
  // Kept across steps so that their n × C storage is reused: fresh pages for them each step
  // cost shuttle (43 500 rows, 7 classes) about a third of its time.
  Direction affine_, direction_;
  Eigen::MatrixXd zeroPairs_, corrY_, corrV_, rcY_, rcV_, g_, W_, q_;
  mutable Eigen::VectorXd marginsAt_;  // the point margins_ are of
  mutable Eigen::MatrixXd margins_;
};

// Each x_c with its eigenvalues below kZeroShare·λ_max set to zero.
Eigen::VectorXd purified(const LmgcModel& model, const Eigen::VectorXd& x) {
  const Index D = model.augmentedDim();
  Eigen::VectorXd out(x.size());
  for (Index c = 0; c < model.classes(); ++c) {
    const SymmetricEigen eig = symmetricEigen(model.classMatrix(x, c));
    Eigen::VectorXd l = eig.values;
    const double floor = kZeroShare * std::max(l.maxCoeff(), 0.0);
    for (Index k = 0; k < l.size(); ++k)
      if (l[k] <= floor) l[k] = 0;
    Eigen::Map<Eigen::MatrixXd>(out.data() + c * D * D, D, D) =
        eig.vectors * l.asDiagonal() * eig.vectors.transpose();
  }
  model.project(out);  // exact symmetry; no eigenvalue is negative beyond rounding
  return out;
}

}  // namespace

Eigen::MatrixXd LmgcInteriorProblem::linearTerm(Index c) const {
  const Index D = model.augmentedDim();
  if (linear.size() != model.parameterCount()) return Eigen::MatrixXd::Zero(D, D);
  const Eigen::MatrixXd E = T * Eigen::Map<const Eigen::MatrixXd>(linear.data() + c * D * D, D, D) * T.transpose();
  return 0.5 * (E + E.transpose());
}

LmgcInteriorResult minimizeLmgcInterior(const LmgcInteriorProblem& problem, const SmoothFunction& objective,
                                        Eigen::VectorXd& x, const LmgcInteriorOptions& options) {
  const LmgcModel& model = problem.model;
  const Index C = model.classes(), D = model.augmentedDim();
  LmgcInteriorResult result;
  // Before any work: the solver's rows' outer products alone are n·m numbers (DNA: 315 MB).
  if (lmgcInteriorDimension(C, D) > options.maxDimension) {
    result.outcome = LmgcInteriorResult::Outcome::TooLarge;
    return result;
  }
  PrimalDual system(problem);

  // Strictly inside: x_c + shift·I.
  double largest = 0;
  for (Index c = 0; c < C; ++c)
    largest = std::max(largest, symmetricEigenvalues(model.classMatrix(x, c)).maxCoeff());
  const double shift = kStartShift * (largest > 0 ? largest : 1.0);
  for (Index c = 0; c < C; ++c)
    for (Index k = 0; k < D; ++k) x[c * D * D + k * D + k] += shift;
  if (!system.start(x)) return result;

  Eigen::VectorXd grad(x.size());
  double tolerance = 0;
  int evaluatedAt = -1;  // the step whose point result.objective and result.measure are of
  const auto evaluate = [&] {
    result.objective = objective(x, grad);
    ++result.evaluations;
    result.measure = options.measure(x, grad, tolerance);
    evaluatedAt = result.iterations;
  };
  const auto finish = [&](LmgcInteriorResult::Outcome outcome) {
    if (evaluatedAt != result.iterations) evaluate();
    result.outcome = outcome;
    return result;
  };
  while (result.iterations < options.maxIterations) {
    const Eigen::VectorXd before = x;
    const double t = system.step(x);
    if (!(t > kSmallestStep)) {
      x = before;
      return finish(LmgcInteriorResult::Outcome::Stalled);
    }
    ++result.iterations;
    // J and the stopping measure (a full evaluation, an eighth of a step on shuttle) every
    // kLmgcMeasureEvery steps while the gap is far from the tolerance; the callback sees the last.
    if (result.iterations % kLmgcMeasureEvery == 0 || result.iterations == 1) evaluate();
    if (options.callback && !options.callback({result.iterations, result.objective, result.measure}))
      return finish(LmgcInteriorResult::Outcome::Cancelled);
    if (system.gap(x) > kGapShare * std::abs(result.objective)) continue;
    if (evaluatedAt != result.iterations) {
      evaluate();  // the gap met the last J: again with this point's
      if (system.gap(x) > kGapShare * std::abs(result.objective)) continue;
    }
    // The iterates keep exact zeros at ~μ/Z: the purified point often meets the tolerance
    // first.
    const Eigen::VectorXd clean = purified(model, x);
    Eigen::VectorXd cleanGrad(x.size());
    const double value = objective(clean, cleanGrad);
    ++result.evaluations;
    double cleanTolerance = 0;
    const double measure = options.measure(clean, cleanGrad, cleanTolerance);
    if (measure <= cleanTolerance) {
      x = clean;
      result.objective = value;
      result.measure = measure;
      result.outcome = LmgcInteriorResult::Outcome::Converged;
      return result;
    }
    if (result.measure <= tolerance) {
      result.outcome = LmgcInteriorResult::Outcome::Converged;
      return result;
    }
  }
  return finish(LmgcInteriorResult::Outcome::MaxIterations);
}

}  // namespace dpstudio

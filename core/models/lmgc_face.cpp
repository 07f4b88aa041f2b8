#include "core/models/lmgc_face.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "core/linalg/blocked_cholesky.h"
#include "core/linalg/psd.h"
#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc_pairs.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// Faces beyond these sizes are left alone: the dense system (2 500 unknowns: ~5 GFLOP to
// factor, as the interior point's largest) and the rows' face features (200 MB).
constexpr Index kMaxFaceDimension = 2500;
constexpr Index kMaxFeatureEntries = 25'000'000;
constexpr double kRidge = 1e-8;  // on the unit diagonal of the scaled Newton system, when needed

// One class's face: x_c = U S Uᵀ. Coordinates of S in psd.h's orthonormal symmetric basis
// (column by column: the diagonal entry, then the off-diagonals below it, ·√2).
struct ClassFace {
  Eigen::MatrixXd U;         // D × k, orthonormal
  Eigen::MatrixXd features;  // n × k(k+1)/2: row i's score is features.row(i)·s
  Eigen::MatrixXd M;         // UᵀPU: the regularizer's metric on the face
  Eigen::MatrixXd E;         // UᵀE_cU: its linear term
  std::vector<std::pair<Index, Index>> basis;  // (i, j), i ≥ j, in coefficient order
  Index offset = 0;          // of this class's coordinates in the stacked vector
  Index k = 0, m = 0;
};

std::vector<std::pair<Index, Index>> symmetricBasis(Index k) {
  std::vector<std::pair<Index, Index>> basis;
  for (Index j = 0; j < k; ++j)
    for (Index i = j; i < k; ++i) basis.emplace_back(i, j);
  return basis;
}

class FaceProblem {
 public:
  FaceProblem(const LmgcInteriorProblem& p, const Eigen::VectorXd& x, double relative)
      : p_(p), C_(p.model.classes()), D_(p.model.augmentedDim()) {
    const Eigen::MatrixXd rows = LmgcModel::augmentedRows(p.rows);
    const Eigen::MatrixXd P = p.metric();
    std::vector<SymmetricEigen> eig(static_cast<std::size_t>(C_));
    double largest = 0;
    for (Index c = 0; c < C_; ++c) {
      eig[static_cast<std::size_t>(c)] = symmetricEigen(p.model.classMatrix(x, c));
      largest = std::max(largest, eig[static_cast<std::size_t>(c)].values.maxCoeff());
    }
    std::vector<Index> ranks;
    dimension_ = 0;
    for (const auto& e : eig) {
      ranks.push_back(std::max<Index>(1, (e.values.array() > relative * largest).count()));
      dimension_ += symmetricBasisDimension(ranks.back());
    }
    if (dimension_ > kMaxFaceDimension || dimension_ * p.rows.rows() > kMaxFeatureEntries) return;
    Index offset = 0;
    faces_.resize(static_cast<std::size_t>(C_));
    start_.resize(static_cast<std::size_t>(C_));
    for (Index c = 0; c < C_; ++c) {
      const auto& e = eig[static_cast<std::size_t>(c)];
      ClassFace& f = faces_[static_cast<std::size_t>(c)];
      f.k = ranks[static_cast<std::size_t>(c)];
      f.U = e.vectors.rightCols(f.k);
      f.basis = symmetricBasis(f.k);
      f.m = static_cast<Index>(f.basis.size());
      f.offset = offset;
      offset += f.m;
      const Eigen::MatrixXd Z = rows * f.U;
      f.features.resize(Z.rows(), f.m);
      for (Index a = 0; a < f.m; ++a) {
        const auto [i, j] = f.basis[static_cast<std::size_t>(a)];
        f.features.col(a) = Z.col(i).cwiseProduct(Z.col(j)) * (i == j ? 1.0 : std::numbers::sqrt2);
      }
      f.M = f.U.transpose() * P * f.U;
      f.E = f.U.transpose() * p.linearTerm(c) * f.U;
      start_[static_cast<std::size_t>(c)] = e.values.tail(f.k).cwiseMax(0.0);
    }
  }

  // False when the face is too large to be worth a dense Newton system (nothing was built).
  bool built() const { return !faces_.empty(); }

  // The start: each S_c = diag of x_c's kept eigenvalues, in coordinates.
  Eigen::VectorXd start() const {
    Eigen::VectorXd s(dimension_);
    for (const ClassFace& f : faces_)
      s.segment(f.offset, f.m) = coefficientsFromSymmetric(Eigen::MatrixXd(start_[&f - faces_.data()].asDiagonal()));
    return s;
  }

  Eigen::MatrixXd classMatrix(const Eigen::VectorXd& s, Index c) const {
    const ClassFace& f = faces_[static_cast<std::size_t>(c)];
    return symmetricFromCoefficients(s.segment(f.offset, f.m), f.k);
  }

  // J on the face; with grad, its gradient and the pairs' Huber curvatures (for hessian()).
  double value(const Eigen::VectorXd& s, Eigen::VectorXd* grad) {
    const Index n = p_.rows.rows();
    const double w = p_.weight;
    Eigen::MatrixXd scores(n, C_);
    for (const ClassFace& f : faces_) scores.col(&f - faces_.data()) = f.features * s.segment(f.offset, f.m);
    Eigen::MatrixXd W;
    const double loss = lmgc_detail::pairLoss(scores, p_.y, p_.model.huberWidth(), grad ? &W : nullptr,
                                              grad ? &curvature_ : nullptr, p_.counts ? p_.counts->data() : nullptr);
    double value = w * loss;
    if (grad) grad->resize(dimension_);
    for (const ClassFace& f : faces_) {
      const Index c = &f - faces_.data();
      const Eigen::MatrixXd S = symmetricFromCoefficients(s.segment(f.offset, f.m), f.k);
      const Eigen::MatrixXd pull = p_.quadratic * (f.M * S * f.M);
      value += (0.5 * pull + f.E).cwiseProduct(S).sum();
      if (grad)
        grad->segment(f.offset, f.m) = w * (f.features.transpose() * W.col(c)) + coefficientsFromSymmetric(pull + f.E);
    }
    return value;
  }

  // The Hessian at the point of the last value() with a gradient, in coordinates.
  Eigen::MatrixXd hessian() const {
    const Index n = p_.rows.rows();
    const double w = p_.weight, q = p_.quadratic;
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(dimension_, dimension_);
    std::vector<std::pair<Index, Index>> blocks;
    for (Index a = 0; a < C_; ++a)
      for (Index b = a; b < C_; ++b) blocks.emplace_back(a, b);
    parallelFor(static_cast<Index>(blocks.size()), [&](Index task) {
      const auto [a, b] = blocks[static_cast<std::size_t>(task)];
      const ClassFace& fa = faces_[static_cast<std::size_t>(a)];
      const ClassFace& fb = faces_[static_cast<std::size_t>(b)];
      // Σ_pairs w·H''·(f_c − f_y)(f_c − f_y)ᵀ, block (a, b): rows with a non-zero weight only.
      std::vector<Index> used;
      std::vector<double> omega;
      for (Index i = 0; i < n; ++i) {
        const Index y = p_.y[i];
        double o = 0;
        if (a == b) {
          o = a == y ? curvature_.row(i).sum() : curvature_(i, a);
        } else if (y == a) {
          o = -curvature_(i, b);
        } else if (y == b) {
          o = -curvature_(i, a);
        }
        if (o != 0) {
          used.push_back(i);
          omega.push_back(w * o);
        }
      }
      auto block = H.block(fa.offset, fb.offset, fa.m, fb.m);
      if (!used.empty()) {
        Eigen::MatrixXd left(static_cast<Index>(used.size()), fa.m), right(static_cast<Index>(used.size()), fb.m);
        for (std::size_t r = 0; r < used.size(); ++r) {
          left.row(static_cast<Index>(r)) = omega[r] * fa.features.row(used[r]);
          right.row(static_cast<Index>(r)) = fb.features.row(used[r]);
        }
        block.noalias() += left.transpose() * right;
      }
      if (a == b) {
        // q⟨B_α, M B_β M⟩ = 2q s_α s_β (M_ik M_jl + M_il M_jk), s = 1/2 on the diagonal, 1/√2 off it.
        const auto scale = [](Index i, Index j) { return i == j ? 0.5 : 1.0 / std::numbers::sqrt2; };
        for (Index beta = 0; beta < fa.m; ++beta) {
          const auto [k, l] = fa.basis[static_cast<std::size_t>(beta)];
          for (Index alpha = 0; alpha < fa.m; ++alpha) {
            const auto [i, j] = fa.basis[static_cast<std::size_t>(alpha)];
            block(alpha, beta) += 2 * q * scale(i, j) * scale(k, l) * (fa.M(i, k) * fa.M(j, l) + fa.M(i, l) * fa.M(j, k));
          }
        }
      }
    });
    for (Index a = 0; a < C_; ++a)
      for (Index b = a + 1; b < C_; ++b) {
        const ClassFace& fa = faces_[static_cast<std::size_t>(a)];
        const ClassFace& fb = faces_[static_cast<std::size_t>(b)];
        H.block(fb.offset, fa.offset, fb.m, fa.m) = H.block(fa.offset, fb.offset, fa.m, fb.m).transpose();
      }
    return H;
  }

  // Each S_c onto the PSD cone; true if an eigenvalue was clamped.
  bool projectInPlace(Eigen::VectorXd& s) const {
    bool clamped = false;
    for (const ClassFace& f : faces_) {
      Eigen::MatrixXd S = symmetricFromCoefficients(s.segment(f.offset, f.m), f.k);
      if (!projectPsdInPlace(S)) {
        clamped = true;
        s.segment(f.offset, f.m) = coefficientsFromSymmetric(S);
      }
    }
    return clamped;
  }

  // x with each x_c = U_c S_c U_cᵀ.
  void write(const Eigen::VectorXd& s, Eigen::VectorXd& x) const {
    for (const ClassFace& f : faces_) {
      const Index c = &f - faces_.data();
      Eigen::Map<Eigen::MatrixXd>(x.data() + c * D_ * D_, D_, D_) = f.U * classMatrix(s, c) * f.U.transpose();
    }
    p_.model.project(x);
  }

 private:
  const LmgcInteriorProblem& p_;
  Index C_, D_;
  std::vector<ClassFace> faces_;
  std::vector<Eigen::VectorXd> start_;
  Index dimension_ = 0;
  Eigen::MatrixXd curvature_;  // n × C: H''(margin) of each pair at the last gradient
};

}  // namespace

LmgcFaceResult minimizeLmgcOnFace(const LmgcInteriorProblem& problem, Eigen::VectorXd& x, double relative,
                                  double tolerance, int maxSteps) {
  LmgcFaceResult result;
  BlockedCholesky cholesky;
  bool rebuild = true;
  while (rebuild && result.steps < maxSteps) {
    rebuild = false;
    FaceProblem face(problem, x, relative);
    if (!face.built()) break;
    Eigen::VectorXd s = face.start(), grad;
    double value = face.value(s, &grad);
    for (; result.steps < maxSteps; ++result.steps) {
      if (grad.norm() <= tolerance) break;
      const Eigen::MatrixXd H = face.hessian();
      const Eigen::VectorXd scaling = H.diagonal().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt().cwiseInverse();
      // Without a quadratic term (q = 0) directions no pair on the Huber's quadratic part sees
      // have no curvature: a small ridge on the scaled system gives them gradient steps.
      Eigen::MatrixXd scaled = scaling.asDiagonal() * H * scaling.asDiagonal();
      if (!cholesky.compute(scaled)) {
        scaled.diagonal().array() += kRidge;
        if (!cholesky.compute(scaled)) break;
      }
      const Eigen::VectorXd delta = -scaling.cwiseProduct(cholesky.solve(scaling.cwiseProduct(grad)));
      if (!delta.allFinite()) break;
      // Projected Newton: along the arc P(s + tΔ), each S_c's eigenvalues clamped at 0.
      Eigen::VectorXd trial;
      double trialValue = value;
      bool accepted = false, clamped = false;
      double t = 1;
      for (int k = 0; k < 30; ++k, t *= 0.5) {
        trial = s + t * delta;
        clamped = face.projectInPlace(trial);
        trialValue = face.value(trial, nullptr);
        if (trialValue <= value + 1e-4 * grad.dot(trial - s)) {
          accepted = true;
          break;
        }
      }
      if (!accepted) break;
      s = trial;
      value = face.value(s, &grad);
      if (clamped) {
        ++result.steps;
        rebuild = true;
        break;
      }
    }
    result.objective = value;
    face.write(s, x);
  }
  return result;
}

}  // namespace dpstudio

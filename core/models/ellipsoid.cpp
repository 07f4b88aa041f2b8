#include "core/models/ellipsoid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc.h"

namespace dpstudio {
namespace {

Error invalidShadow(std::string message, std::string field) {
  return Error{ErrorKind::Usage, std::move(message), {}, 0, std::move(field)};
}

// Ψ⁺v through the (truncated) eigen-decomposition.
Eigen::VectorXd pseudoInverseTimes(const ClassEllipsoid& e, const Eigen::VectorXd& v) {
  Eigen::VectorXd coords = e.eigenvectors.transpose() * v;
  for (Eigen::Index k = 0; k < coords.size(); ++k)
    coords[k] = e.eigenvalues[k] > 0 ? coords[k] / e.eigenvalues[k] : 0.0;
  return e.eigenvectors * coords;
}

}  // namespace

Eigen::VectorXd ClassEllipsoid::levels(const Eigen::MatrixXd& X) const {
  const Eigen::MatrixXd centred = X.rowwise() - centre.transpose();
  return (centred * shape).cwiseProduct(centred).rowwise().sum();
}

Eigen::VectorXd ClassEllipsoid::scores(const Eigen::MatrixXd& X) const {
  return 0.5 * (levels(X).array() + offset).matrix();
}

ClassEllipsoid extractEllipsoid(const Eigen::MatrixXd& phi) {
  eigen_assert(phi.rows() == phi.cols() && phi.rows() >= 2);
  const Eigen::Index d = phi.rows() - 1;
  const Eigen::MatrixXd sym = 0.5 * (phi + phi.transpose());
  ClassEllipsoid e;
  e.shape = sym.topLeftCorner(d, d);
  const Eigen::VectorXd b = sym.topRightCorner(d, 1);

  SymmetricEigen eig = symmetricEigen(e.shape);
  e.eigenvalues = std::move(eig.values);
  e.eigenvectors = std::move(eig.vectors);
  const double largest = e.eigenvalues.size() > 0 ? e.eigenvalues.maxCoeff() : 0.0;
  const double cutoff = kEllipsoidRankTolerance * std::max(largest, 0.0);
  const double magnitude = e.eigenvalues.size() > 0 ? e.eigenvalues.cwiseAbs().maxCoeff() : 0.0;
  e.positiveSemidefinite = e.eigenvalues.size() == 0 || e.eigenvalues.minCoeff() >= -kEllipsoidRankTolerance * magnitude;
  e.bounded = largest > 0;
  for (Eigen::Index k = 0; k < e.eigenvalues.size(); ++k) {
    if (e.eigenvalues[k] <= cutoff) {
      e.eigenvalues[k] = 0;
      e.bounded = false;
    }
  }
  e.centre = -pseudoInverseTimes(e, b);
  // θ = Φ[d,d] − bᵀΨ⁺b, and bᵀΨ⁺b = −bᵀμ.
  e.offset = sym(d, d) + b.dot(e.centre);
  return e;
}

std::vector<ClassEllipsoid> extractEllipsoids(const LmgcModel& model, const Eigen::VectorXd& theta) {
  std::vector<ClassEllipsoid> result;
  result.reserve(static_cast<std::size_t>(model.blocks()));
  for (Eigen::Index b = 0; b < model.blocks(); ++b)
    result.push_back(extractEllipsoid(model.blockMatrix(theta, b)));
  return result;
}

Eigen::MatrixXd phiFromEllipsoid(const Eigen::MatrixXd& shape, const Eigen::VectorXd& centre,
                                 double offset) {
  const Eigen::Index d = shape.rows();
  eigen_assert(shape.cols() == d && centre.size() == d);
  const Eigen::VectorXd psiMu = shape * centre;
  Eigen::MatrixXd phi(d + 1, d + 1);
  phi.topLeftCorner(d, d) = shape;
  phi.topRightCorner(d, 1) = -psiMu;
  phi.bottomLeftCorner(1, d) = -psiMu.transpose();
  phi(d, d) = centre.dot(psiMu) + offset;
  return phi;
}

Result<ViewEllipse> shadowOnView(const ClassEllipsoid& ellipsoid, double level,
                                 const ViewProjection& view) {
  if (!std::isfinite(level) || level < 0)
    return invalidShadow("the ellipse level must be finite and >= 0", "level");
  const Eigen::Index d = ellipsoid.shape.rows();
  if (view.basis.rows() != d || view.basis.cols() != 2)
    return invalidShadow("the view does not match the model's input dimension", "view");

  ViewEllipse shadow;
  shadow.level = level;
  shadow.centre = view.basis.transpose() * ellipsoid.centre;
  // In Ψ's eigenbasis: W = QᵀV. The shadow is bounded iff V has no component along
  // null(Ψ); then VᵀΨ⁺V = Σ_k W_kᵀW_k / λ_k over the non-zero eigenvalues.
  const Eigen::MatrixXd W = ellipsoid.eigenvectors.transpose() * view.basis;
  double nullMass = 0;
  for (Eigen::Index k = 0; k < d; ++k) {
    const double lambda = ellipsoid.eigenvalues[k];
    if (lambda > 0)
      shadow.spread.noalias() += W.row(k).transpose() * W.row(k) / lambda;
    else
      nullMass += W.row(k).squaredNorm();
  }
  shadow.bounded = nullMass <= 1e-12;
  if (!shadow.bounded) shadow.spread.setZero();
  shadow.drawing = shadow.bounded ? EllipseDrawing::Shadow : EllipseDrawing::NotDrawn;
  shadow.problem = shadow.bounded ? EllipseProblem::None : EllipseProblem::UnboundedOnPlane;
  shadow.rank = static_cast<int>((ellipsoid.eigenvalues.array() > 0).count());
  return shadow;
}

namespace {

// The section when VᵀΨV = α·wwᵀ has rank 1: q(u) = α(wᵀu)² + 2γ wᵀu + constant, with the
// linear term VᵀΨ(a − μ) = γw because it lies in range(VᵀΨV) when Ψ ⪰ 0. Completing the
// square, q(u) = α(wᵀu + γ/α)² + r₀ with r₀ = constant − γ²/α ≥ 0.
ViewEllipse stripSection(ViewEllipse section, const SymmetricEigen2x2& eig,
                         const Eigen::Vector2d& linear, double constant, double level) {
  const double alpha = eig.values[1];
  const Eigen::Vector2d w = eig.vectors.col(1);
  const double gamma = w.dot(linear);
  const double lowest = std::max(constant - gamma * gamma / alpha, 0.0);
  if (!(lowest < level)) {
    section.problem = EllipseProblem::MissesPlane;
    return section;
  }
  section.drawing = EllipseDrawing::Strip;
  section.problem = EllipseProblem::None;
  section.stripNormal = w;
  section.stripOffset = -gamma / alpha;
  section.stripHalfWidth = std::sqrt((level - lowest) / alpha);
  section.level = level - lowest;
  return section;
}

}  // namespace

Result<ViewEllipse> sectionOnView(const ClassEllipsoid& ellipsoid, double level, const ViewProjection& view,
                                  bool throughCentre) {
  if (!std::isfinite(level) || level < 0)
    return invalidShadow("the ellipse level must be finite and >= 0", "level");
  const Eigen::Index d = ellipsoid.shape.rows();
  if (view.basis.rows() != d || view.basis.cols() != 2 || view.centre.size() != d)
    return invalidShadow("the view does not match the model's input dimension", "view");

  ViewEllipse section;
  section.rank = static_cast<int>((ellipsoid.eigenvalues.array() > 0).count());
  section.drawing = EllipseDrawing::NotDrawn;
  const Eigen::MatrixXd& V = view.basis;
  // The plane's points: x = a + Vu with a = centre − VVᵀcentre (view_projection.h's lift).
  const Eigen::VectorXd& through = throughCentre ? ellipsoid.centre : view.centre;
  const Eigen::VectorXd a = through - V * (V.transpose() * through);
  const Eigen::VectorXd offset = a - ellipsoid.centre;
  // Ψ with only its kept eigenvalues (those below the rank tolerance are 0), so that a
  // direction the ellipsoid does not bound counts as unbounded here too.
  const Eigen::MatrixXd psi =
      ellipsoid.eigenvectors * ellipsoid.eigenvalues.asDiagonal() * ellipsoid.eigenvectors.transpose();
  const Eigen::Matrix2d restricted = V.transpose() * psi * V;
  const Eigen::Vector2d linear = V.transpose() * psi * offset;
  const double constant = offset.dot(psi * offset);
  const SymmetricEigen2x2 eig = symmetricEigen2x2(restricted);
  const double largest = ellipsoid.eigenvalues.size() > 0 ? ellipsoid.eigenvalues.maxCoeff() : 0.0;
  const double kept = kEllipsoidRankTolerance * largest;
  if (!(largest > 0) || !(eig.values[1] > kept)) {
    section.problem = EllipseProblem::UnboundedOnPlane;
    return section;
  }
  if (!(eig.values[0] > kept)) return stripSection(section, eig, linear, constant, level);
  const Eigen::Matrix2d inverse = eig.vectors * eig.values.cwiseInverse().asDiagonal() *
                                  eig.vectors.transpose();
  // Centre of the section in view coordinates (u = Vᵀx), and the level r₀ it sits at.
  const Eigen::Vector2d u0 = -inverse * linear;
  const double lowest = std::max(constant + linear.dot(u0), 0.0);
  if (!(lowest < level)) {
    section.problem = EllipseProblem::MissesPlane;
    return section;
  }
  section.centre = u0;
  section.spread = inverse;
  section.level = level - lowest;
  section.bounded = true;
  section.drawing = throughCentre ? EllipseDrawing::CentreSection : EllipseDrawing::Section;
  return section;
}

Result<ViewEllipse> ellipseOnView(const ClassEllipsoid& ellipsoid, double level, const ViewProjection& view,
                                  double dataExtent, std::optional<double> sectionLevel, bool sectionFirst) {
  const auto tooLarge = [&](const ViewEllipse& e) {
    if (!(dataExtent > 0)) return false;
    const double axis = e.drawing == EllipseDrawing::Strip
                            ? e.stripHalfWidth
                            : std::sqrt(e.level * std::max(e.spread.eigenvalues().real().maxCoeff(), 0.0));
    return !(axis <= kMaxEllipseExtent * dataExtent);
  };
  const auto drawable = [&](const ViewEllipse& e) {
    return (e.bounded || e.drawing == EllipseDrawing::Strip) && !tooLarge(e);
  };
  auto shadow = shadowOnView(ellipsoid, level, view);
  if (!shadow) return shadow.error();
  ViewEllipse result = std::move(shadow).value();
  if (!ellipsoid.positiveSemidefinite) {
    result.bounded = false;
    result.drawing = EllipseDrawing::NotDrawn;
    result.problem = EllipseProblem::NotPositiveSemidefinite;
    return result;
  }
  if (!sectionFirst && result.bounded && !tooLarge(result)) return result;
  auto section = sectionOnView(ellipsoid, sectionLevel.value_or(level), view);
  if (!section) return section.error();
  if (drawable(section.value())) return section;
  if (sectionFirst && result.bounded && !tooLarge(result)) return result;
  if (section.value().problem == EllipseProblem::MissesPlane) {
    auto centred = sectionOnView(ellipsoid, level, view, true);
    if (!centred) return centred.error();
    if (drawable(centred.value())) return centred;
  }
  // Neither: the most telling reason. A too-large shadow or section beats "unbounded".
  ViewEllipse none = section.value();
  if (section.value().bounded || section.value().drawing == EllipseDrawing::Strip ||
      section.value().problem == EllipseProblem::MissesPlane || result.bounded)
    none.problem = EllipseProblem::FarBeyondData;
  none.bounded = false;
  none.drawing = EllipseDrawing::NotDrawn;
  none.spread.setZero();
  none.stripHalfWidth = 0;
  return none;
}

Eigen::MatrixXd ViewEllipse::polyline(int points) const {
  if (!bounded || points < 3) return Eigen::MatrixXd(0, 2);
  const SymmetricEigen2x2 eig = symmetricEigen2x2(spread);
  Eigen::Matrix2d axes = eig.vectors;
  if (axes.determinant() < 0) axes.col(1) *= -1;  // a rotation: keeps the order counter-clockwise
  const Eigen::Vector2d radii = (level * eig.values.cwiseMax(0.0)).cwiseSqrt();
  const Eigen::Matrix2d map = axes * radii.asDiagonal();
  Eigen::MatrixXd result(points, 2);
  for (int j = 0; j < points; ++j) {
    const double angle = 2 * std::numbers::pi * j / points;
    result.row(j) = (centre + map * Eigen::Vector2d(std::cos(angle), std::sin(angle))).transpose();
  }
  return result;
}

std::array<Eigen::MatrixXd, 2> ViewEllipse::stripEdges(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi) const {
  std::array<Eigen::MatrixXd, 2> edges{Eigen::MatrixXd(0, 2), Eigen::MatrixXd(0, 2)};
  if (drawing != EllipseDrawing::Strip) return edges;
  // Each edge {u : nᵀu = c} as p + s·t (p = c·n, t ⟂ n), clipped to the box slab by slab.
  const Eigen::Vector2d along(-stripNormal.y(), stripNormal.x());
  for (int side = 0; side < 2; ++side) {
    const Eigen::Vector2d p = (stripOffset + (side == 0 ? -stripHalfWidth : stripHalfWidth)) * stripNormal;
    double first = -std::numeric_limits<double>::infinity(), last = std::numeric_limits<double>::infinity();
    bool inside = true;
    for (int axis = 0; axis < 2 && inside; ++axis) {
      if (std::abs(along[axis]) < 1e-15) {
        inside = p[axis] >= lo[axis] && p[axis] <= hi[axis];
        continue;
      }
      double a = (lo[axis] - p[axis]) / along[axis], b = (hi[axis] - p[axis]) / along[axis];
      if (a > b) std::swap(a, b);
      first = std::max(first, a);
      last = std::min(last, b);
      inside = first <= last;
    }
    if (!inside) continue;
    Eigen::MatrixXd ends(2, 2);
    ends.row(0) = (p + first * along).transpose();
    ends.row(1) = (p + last * along).transpose();
    edges[static_cast<std::size_t>(side)] = ends;
  }
  return edges;
}

}  // namespace dpstudio

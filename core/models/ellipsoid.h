#pragma once
// LMGC's class ellipsoids in input coordinates, and their shadows on the 2-D view.
//
// Every PSD Φ ∈ R^{(d+1)×(d+1)} can be written (paper 000 eq. 2) as
//
//   Φ = [ Ψ       −Ψμ        ]       Ψ = the upper-left d×d block, b = the upper-right column,
//       [ −μᵀΨ    μᵀΨμ + θ   ]       μ = −Ψ⁺b,  θ = Φ[d,d] − μᵀΨμ = Φ[d,d] − bᵀΨ⁺b ≥ 0,
//
// and because LMGC augments x̃ = [x; 1]/√2 (lmgc.h), the class score is exactly
//
//   s(x) = x̃ᵀΦx̃ = ½ ((x − μ)ᵀΨ(x − μ) + θ).
//
// The factor ½ is the only trace of the 1/√2 scaling: Ψ, μ and θ are read off Φ as in the
// paper, with no further rescaling. The level set {x : (x − μ)ᵀΨ(x − μ) = t} is where the
// class's score exceeds its minimum θ/2 by t/2.
//
// Singular Ψ (PSD, not PD — the projection onto the PSD cone produces these routinely):
// the level sets are cylinders, unbounded along null(Ψ). Then bounded = false, μ is the
// minimum-norm point of the set of centres (Ψ⁺ uses the eigenvalues above 1e−9·λ_max), and
// the score identity above still holds because b ∈ range(Ψ) whenever Φ ⪰ 0. No NaN is
// ever produced. Expect these from training: the trace regularizer pushes Ψ_c towards low
// rank, and in tests only a class enclosed by others kept a bounded ellipsoid (a class
// between well-separated neighbours opened into a cylinder) — the view should say so
// rather than draw nothing silently.
//
// Every class has null directions at the optimum, in total (found while fixing issue 9):
// the loss gradients of one example sum to zero over the classes (∂ℓ/∂Φ_y = −Σ_{c≠y}
// ∂ℓ/∂Φ_c), so at a minimizer of Σℓ + λ(Σ tr Ψ_c + ½‖Φ‖²) the stationarity conditions
// λ(E + Φ_c) + ∇_c L = Z_c (Z_c ⪰ 0 the PSD multiplier, Z_cΦ_c = 0, E = diag(1..1, 0)) sum
// to λ(C·E + Σ_c Φ_c) = Σ_c Z_c, whose left side has rank d + 1. Hence
// Σ_c dim null(Φ_c) ≥ d + 1 for every λ > 0: with two classes in 2-D (moons, xor) one class's
// Ψ has rank ≤ 1, and on iris the trained Ψ_c have ranks 1, 3 and 2 of 4. Unbounded
// ellipsoids are the rule, not an accident of the optimizer.
//
// Shadow: for d > 2 an ellipsoid is drawn as its orthogonal projection onto the view plane
// (docs/algorithms.md §2.3). In view coordinates u = Vᵀx (V = view.basis, d×2 orthonormal) the shadow
// of {(x−μ)ᵀΨ(x−μ) ≤ t} is the ellipse {(u − Vᵀμ)ᵀ(VᵀΨ⁻¹V)⁻¹(u − Vᵀμ) ≤ t}: its support
// function along every in-plane direction equals the ellipsoid's. With d = 2 and the
// identity feature view it is the exact level set.
//
// Section: an unbounded ellipsoid (a cylinder along null(Ψ)) has no bounded shadow, but its
// intersection with the view plane (through the data mean, view_projection.h) is an ellipse
// when Ψ restricted to the plane, VᵀΨV, is positive definite: with the plane's points
// x = a + Vu (a = the plane's point over the origin), (x − μ)ᵀΨ(x − μ) ≤ t becomes
// (u − u₀)ᵀ(VᵀΨV)(u − u₀) ≤ t − r₀, where r₀ ≥ 0 is the level at the plane's point nearest
// the centre in Ψ's metric. It is empty when r₀ ≥ t (the plane misses the ellipsoid).
// The parallel plane through μ always meets it: that section is centred at Vᵀμ with the same
// VᵀΨV, drawn as a fallback (CentreSection) when the plane through the mean misses.
// Strip: when Ψ restricted to the plane has rank 1 (unit eigenvector w, eigenvalue α), the
// same section is the strip {u : |wᵀu − c| ≤ √((t − r₀)/α)}: the class's score is flat along
// the strip and rises across it. Ψ ⪰ 0 makes the linear term lie along w, so this is exact.
// Low rank is the rule at LMGC's minimizer (below), and a strip is how that ellipsoid meets
// the plane: it is drawn as its two edge lines and named a strip, never passed off as an
// ellipse.
// ellipseOnView() draws the shadow when it is bounded, else a section (an ellipse, or a strip
// when the plane sees one flat direction), and otherwise says why nothing can be drawn
// (EllipseProblem): hyperbolas, a plane along which the score is flat, or a curve so wide it
// would cross the data as two near-parallel lines while claiming to be an ellipse.
//
// Pure functions on values; safe from any thread.

#include <array>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include "core/data/view_projection.h"
#include "core/util/result.h"

namespace dpstudio {

class LmgcModel;

// The level drawn by default: t = 2, where the class's own score has risen by exactly one
// target margin (s − s_min = t/2 = 1) above its value at the centre. It is read off the
// model alone, so a drawing of a private model releases nothing more than the model; it
// is also a scale the optimization itself sets (training points must win by margin 1);
// in the enclosed-class test every training point of the class lies inside it.
// A data-dependent level (e.g. the median of levels() over the class's own points) draws a
// "half of the class" contour but is a statistic of the training data: mark it not private.
inline constexpr double kDefaultEllipseLevel = 2.0;

// Relative eigenvalue threshold below which Ψ's eigenvalues count as zero.
inline constexpr double kEllipsoidRankTolerance = 1e-9;

struct ClassEllipsoid {
  Eigen::MatrixXd shape;         // Ψ, d×d, symmetric PSD
  Eigen::VectorXd centre;        // μ
  double offset = 0;             // θ (≥ 0 up to rounding when Φ ⪰ 0)
  bool bounded = false;          // Ψ ≻ 0 (all eigenvalues above the rank tolerance)
  bool positiveSemidefinite = true;  // no eigenvalue of Ψ below −(rank tolerance)·max|λ|
  Eigen::VectorXd eigenvalues;   // of Ψ, ascending; those below the tolerance set to 0
  Eigen::MatrixXd eigenvectors;  // matching orthonormal columns

  // (x − μ)ᵀΨ(x − μ) for each row of X (n × d).
  Eigen::VectorXd levels(const Eigen::MatrixXd& X) const;
  // ½((x − μ)ᵀΨ(x − μ) + θ) for each row: equal to the LMGC score s(x) of this class.
  Eigen::VectorXd scores(const Eigen::MatrixXd& X) const;
};

// From one (d+1)×(d+1) Φ (its symmetric part is used).
ClassEllipsoid extractEllipsoid(const Eigen::MatrixXd& phi);

// Every block of an LMGC parameter vector: one per class, or class c's M components at
// c·M … c·M + M − 1 for a mixture.
std::vector<ClassEllipsoid> extractEllipsoids(const LmgcModel& model, const Eigen::VectorXd& theta);

// The inverse map, eq. 2: Φ from (Ψ, μ, θ). PSD when Ψ ⪰ 0 and θ ≥ 0.
Eigen::MatrixXd phiFromEllipsoid(const Eigen::MatrixXd& shape, const Eigen::VectorXd& centre,
                                 double offset);

// How a class's ellipsoid appears on the view plane (ellipseOnView).
enum class EllipseDrawing {
  Shadow,    // the ellipsoid is bounded: its orthogonal projection onto the plane
  Section,   // its shadow is not bounded: its intersection with the plane (through the data mean)
  CentreSection,  // that misses the ellipsoid: its intersection with the parallel plane
                  // through its centre μ, drawn where that plane projects
  Strip,     // the section (through the data mean, or else through μ) is a strip: Ψ is flat
             // along one direction of the plane; drawn as the strip's two edges
  NotDrawn,  // neither is drawable: see EllipseProblem
};

// Why a class's ellipse is not drawn.
enum class EllipseProblem {
  None,
  NotPositiveSemidefinite,  // Ψ has a negative eigenvalue: the level sets are hyperboloids
  UnboundedOnPlane,         // Ψ vanishes along both directions of the plane: the score is
                            // flat on it (the section is the whole plane or empty)
  MissesPlane,              // bounded section, but the plane does not meet the ellipsoid
  FarBeyondData,            // an axis longer than kMaxEllipseExtent × the data's extent: Ψ is
                            // nearly singular on the plane, and the curve would cross the
                            // data as two near-parallel lines
};

// Longest semi-axis allowed, in units of the extent (bounding-box diagonal) of the training
// points on the plane.
inline constexpr double kMaxEllipseExtent = 10.0;

// An ellipse in view coordinates: {centre + √level · spread^{1/2} z : ‖z‖ = 1}.
struct ViewEllipse {
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();  // Vᵀμ, the shadow of the centre
  Eigen::Matrix2d spread = Eigen::Matrix2d::Zero();  // VᵀΨ⁺V (PSD; singular for d = 1)
  double level = kDefaultEllipseLevel;               // t
  bool bounded = false;  // false: nothing to draw. shadowOnView: the ellipsoid is unbounded
                         // along a direction that the view plane sees (null(Ψ) not ⟂ plane);
                         // the shadow is then a strip or the whole plane. ellipseOnView: see
                         // drawing and problem.
  EllipseDrawing drawing = EllipseDrawing::NotDrawn;
  EllipseProblem problem = EllipseProblem::None;
  int rank = 0;  // of Ψ (eigenvalues above the rank tolerance), for the reason shown
  // drawing == Strip: {u : |stripNormalᵀu − stripOffset| ≤ stripHalfWidth}, ‖stripNormal‖ = 1.
  Eigen::Vector2d stripNormal = Eigen::Vector2d::Zero();
  double stripOffset = 0;
  double stripHalfWidth = 0;

  // `points` (≥ 3) distinct points in view coordinates, counter-clockwise, evenly spaced in
  // the ellipse's parameter angle; the polyline closes from the last point to the first.
  // Empty when !bounded.
  Eigen::MatrixXd polyline(int points) const;
  // A strip's two edges (stripOffset ∓ stripHalfWidth), each clipped to the box [lo, hi] as
  // its two end points (2×2, one per row), or 0×2 where that edge misses the box. Both empty
  // unless drawing == Strip.
  std::array<Eigen::MatrixXd, 2> stripEdges(const Eigen::Vector2d& lo, const Eigen::Vector2d& hi) const;
};

// The shadow of {x : (x−μ)ᵀΨ(x−μ) ≤ level} on the view. Errors: level not finite or < 0
// ("level"), view basis not d×2 ("view").
Result<ViewEllipse> shadowOnView(const ClassEllipsoid& ellipsoid, double level,
                                 const ViewProjection& view);

// The section of the same set by the view plane (see "Section" above); bounded == false when
// VᵀΨV is singular or the section is empty — drawing == Strip when VᵀΨV has rank 1 and the
// strip is not empty. Same errors.
// throughCentre: the parallel plane through μ instead (drawing CentreSection).
Result<ViewEllipse> sectionOnView(const ClassEllipsoid& ellipsoid, double level,
                                  const ViewProjection& view, bool throughCentre = false);

// What the decision view draws for one class: the shadow if it is bounded, else the section
// through the data mean (an ellipse or a strip), else the one through the centre,
// each only when its longest semi-axis (a strip's half width) is at most
// kMaxEllipseExtent·dataExtent (dataExtent:
// the training points' extent on the plane; ≤ 0 skips that test); otherwise drawing ==
// NotDrawn with the first reason that applies. Same errors.
// sectionLevel: the level for the section through the data mean, when it is not `level`
// (model_view.h: a half-of-class contour counts the class's points where they are drawn).
Result<ViewEllipse> ellipseOnView(const ClassEllipsoid& ellipsoid, double level, const ViewProjection& view,
                                  double dataExtent, std::optional<double> sectionLevel = std::nullopt,
                                  bool sectionFirst = false);

}  // namespace dpstudio

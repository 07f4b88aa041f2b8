#pragma once
// Closed ellipsoids for LMGC's picture, with every decision unchanged (docs/algorithms.md
// §2.3, "Closing the ellipsoids for the picture").
//
// LMGC predicts the class of smallest score s_c(x), so adding one function of x to every
// class's score changes no prediction. At the minimizer the trace regularizer leaves
// Σ_c dim null(Ψ_c) ≥ d + 1 (ellipsoid.h): most classes' level sets are unbounded cylinders,
// and on iris, wine and digits the view drew strips and lines where a teacher expects three
// (or ten) ellipses. Adding ½κ‖x − a‖² to every score (κ > 0, a an anchor point) gives each
// class the shape Ψ_c + κI — positive definite, so every class has a bounded ellipsoid — and
// the same decision regions. κ says how much of the picture is this common term rather than
// the trained model, so the view prints it. The price: along a class's untrained directions
// its centre is the anchor's, so closed ellipses sit nearer the data's mean than their
// classes' points (digits' PCA plane: each still holds half of its class; as trained the
// same plane showed near-straight curves across the picture).
//
// κ is fitted to the data, so only a non-private model's picture (itself a statistic of the
// data) is closed; a private model is drawn as released. κ makes the classes' ellipsoids the
// best Gaussian description of their own training rows: class c as N(μ'_c, (αΨ'_c)⁻¹) with
// one common scale α, the likelihood maximized over α in closed form and over κ by a grid on
// log κ, then Brent's method; the anchor a is the rows' mean.
//
// Pure functions on values; safe from any thread.

#include <vector>

#include <Eigen/Core>

#include "core/models/ellipsoid.h"

namespace dpstudio {

// ½κ‖x − anchor‖² added to every class's score.
struct ClosingTerm {
  double kappa = 0;        // 0: nothing added (the ellipsoids as trained)
  Eigen::VectorXd anchor;  // a, in the model's input space
};

// The closing term fitted to the rows X (n × d) with labels y in 0..C−1 (see above). Rows
// of a label beyond the ellipsoids are ignored; kappa = 0 when there is nothing to fit (no
// rows, or every Ψ_c is 0).
ClosingTerm closingTermFromData(const std::vector<ClassEllipsoid>& ellipsoids, const Eigen::MatrixXd& X,
                                const Eigen::VectorXi& y);

// The class's ellipsoid with ½κ‖x − a‖² added to its score: shape Ψ + κI, the centre and
// offset that keep ½((x − μ')ᵀ(Ψ + κI)(x − μ') + θ') = s(x) + ½κ‖x − a‖² for every x.
ClassEllipsoid closedEllipsoid(const ClassEllipsoid& ellipsoid, const ClosingTerm& term);

}  // namespace dpstudio

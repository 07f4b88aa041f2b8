#pragma once
// The decision view's geometry: the data as a trained model sees them (the preprocessed
// training and test rows) on a 2-D view plane, and, for LMGC, each class's ellipse on that
// plane. The GUI draws it; computeDecisionRegions() (decision_map.h) fills the plane with
// the model's decisions using the same projection.
//
// The plane is made on the preprocessed training data with the same ViewSpec the dataset
// view uses, so "two features" and "random projection (seed s)" mean the same axes before
// and after training (the preprocessing keeps the features unless it projects them).
//
// Intercept (preprocess.h step 6): the model's last input is the constant 1/√2. A view plane
// made on all d+1 columns would tilt out of {x_last = 1/√2} (a random plane does), and
// lifted grid points would then be inputs no row can have. So the plane is made on the other
// d columns and extended by a zero basis row: every lifted point keeps the constant.
//
// Random Fourier features (preprocess.h step 6): a plane in φ-space means nothing (φ's image
// is a curved 2-D sheet in it), so the plane is made on the rows before the map
// (PreparedData::trainBeforeMap, which must have been kept), the points are those rows'
// coordinates, and the projection carries the map (ViewProjection::featureMap): regions
// lift grid points, apply φ (and the intercept), then the model. No LMGC ellipses then.
//
// Pure functions on values; safe from any thread.

#include <vector>

#include <Eigen/Core>

#include "core/sources/prepare.h"
#include "core/data/view_projection.h"
#include "core/models/ellipsoid.h"
#include "core/models/ellipsoid_closing.h"
#include "core/models/model.h"

namespace dpstudio {

// The view plane in the model's input space. `intercept`: the last column of
// `preprocessedTrain` is the constant intercept feature (see above).
Result<ViewProjection> makeModelInputProjection(const Dataset& preprocessedTrain,
                                                const ViewSpec& spec, bool intercept);

// Which level set of each LMGC class is drawn.
enum class EllipseLevelRule {
  // t = kDefaultEllipseLevel for every class: one margin above the class's lowest score, read
  // off the model alone — what a private model's picture may show (ellipsoid.h).
  OneMargin,
  // t_c such that the drawn contour holds half of class c's training points as they are
  // drawn: for a shadow, the median of the projected rows in the shadow's own metric (the
  // shadow of a level set is the class's Gaussian's marginal on the plane); for a section,
  // the median of levels() over the rows projected onto the plane (the section is the score
  // on the plane); with two inputs, the median of levels() over the rows. A statistic of
  // the training data, for a non-private model's picture only. With a small λ or rows scaled
  // by a norm bound the model's scores vary by less than a margin across the data, and the
  // one-margin contours lie far outside it; this one always meets the data.
  HalfOfClass,
};

// Whether LMGC's ellipsoids are drawn as trained or closed by a term common to every class's
// score (ellipsoid_closing.h: the same decisions, every class a bounded ellipsoid), which is
// then drawn by its section with the plane — the contour of the score whose smallest value
// decides the regions drawn there — where one is bounded. The term is fitted to the training
// rows: closing requires HalfOfClass (a non-private picture; an error otherwise).
enum class EllipseClosing { AsTrained, Closed };

struct ModelViewGeometry {
  ViewProjection projection;    // in the model's input space (preprocessed coordinates), or
                                // before the feature map, which it then carries
  Eigen::MatrixXd trainCoords;  // n_train × 2
  Eigen::MatrixXd testCoords;   // n_test × 2 (0 rows without a test part)
  // LMGC only (empty otherwise): one per class, the level set {(x−μ)ᵀΨ(x−μ) = t} (t: see
  // EllipseLevelRule; ViewEllipse::level is what remains of it on the plane)
  // on the plane as ellipseOnView() (ellipsoid.h) finds it: its shadow when bounded, else its
  // section through the data mean; bounded == false: not drawable, `problem` says why.
  // With a mixture of M Gaussians per class, M per class: ellipses[c·M + m] is class c's
  // component m (ellipsesPerClass = M).
  std::vector<ViewEllipse> ellipses;
  Index ellipsesPerClass = 1;
  bool ellipsesAreShadows = false;  // the model has more than two inputs (with two, shadow
                                    // and section are both the exact level set)
  EllipseLevelRule levelRule = EllipseLevelRule::OneMargin;  // the level each class is drawn at
  ClosingTerm closing;  // the term added to every class's score before drawing (kappa 0: none)
};

// theta: the model's parameters. Errors: the view cannot be made (e.g. a feature index
// beyond the preprocessed data's columns).
Result<ModelViewGeometry> makeModelViewGeometry(const PreparedData& data, const ViewSpec& spec,
                                                const Model& model, const Eigen::VectorXd& theta,
                                                EllipseLevelRule levels = EllipseLevelRule::OneMargin,
                                                EllipseClosing closing = EllipseClosing::AsTrained);

}  // namespace dpstudio

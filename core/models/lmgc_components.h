#pragma once
// The components of LMGC's mixtures (docs/algorithms.md §2.3, "Mixtures"; Sha & Saul 2006):
// where each training row's own component comes from.
//
// With M Gaussians per class, the convex problem of Sha & Saul needs every row's component
// in its own class fixed in advance (its proxy label): the margin "every other class's
// nearest component is farther than mine" is convex only when "mine" does not move with the
// parameters. dpstudio fixes it as the component whose centre is nearest to the row. Which
// centres:
//   · a non-private model: k-means on each class's rows (k-means++ start, deterministic);
//   · a private model: centres that do not depend on the data — M seeded directions per
//     class, scaled to half the unit ball, so a row's proxy label is a function of that row
//     alone and its loss a fixed function of one example (what every sensitivity proof needs;
//     k-means centres would let one row move every other row's label).

#include <Eigen/Core>

namespace dpstudio {

using Index = Eigen::Index;

// (C·M) × d: row c·M + m is class c's m-th centre. Depends on (d, C, M) only.
Eigen::MatrixXd publicComponentCentres(Index inputDim, Index classes, Index components);

// (C·M) × d: k-means with M centres on each class's rows of X (labels y in [0, C)), from a
// k-means++ start drawn with a fixed seed; a class with fewer distinct rows than M repeats
// its centres (the repeats then receive no rows). Deterministic.
Eigen::MatrixXd kMeansComponentCentres(const Eigen::MatrixXd& X, const Eigen::VectorXi& y, Index classes,
                                       Index components);

// The row's own component in class c: the m minimizing ‖x − centre_{c,m}‖ (the first on a tie).
Index nearestComponent(const Eigen::Ref<const Eigen::RowVectorXd>& x, const Eigen::MatrixXd& centres, Index c,
                       Index components);

// Every row's own component: nearestComponent of row i in its class y[i] (labels in [0, C)).
Eigen::VectorXi ownComponents(const Eigen::MatrixXd& X, const Eigen::VectorXi& y, const Eigen::MatrixXd& centres,
                              Index components);

}  // namespace dpstudio

#pragma once
// Principal axes. Anything computed here is fitted on the data it is given: callers that
// apply it to private data must mark their result "not private" (docs/algorithms.md §0.2).

#include <Eigen/Core>

namespace dpstudio {

// The top-k eigenvectors of centredᵀ·centred (columns, largest eigenvalue first), each with
// its largest-magnitude entry positive so that the same data always give the same axes.
Eigen::MatrixXd principalAxes(const Eigen::MatrixXd& centred, Eigen::Index k);

}  // namespace dpstudio

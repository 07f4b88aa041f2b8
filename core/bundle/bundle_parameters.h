#pragma once
// A model's parameter vector θ (core/models) as the array a bundle stores, in the layout a
// NumPy user expects (docs/formats/bundle-format.md), and back.
//
//   binary logreg / Huber SVM   "weights" (d,)             label = 1 if x·w > 0 else 0
//   one-vs-rest, softmax        "weights" (d, C)           label = argmax(x @ W)
//   LMGC                        "phi"     (C·(d+1), d+1)   rows c(d+1) … c(d+1)+d are Φ_c;
//                               x̃ = [x, 1]/√2, label = argmin_c x̃ᵀΦ_c x̃
//
// (d: the model's input dimension, after the preprocessing.) θ of the W models is vec(W)
// column-major, so W is θ viewed as d × C; Φ_c are symmetric, so their storage order is moot.
// An ensemble (subsample-and-aggregate's teachers) is stored flat, one θ per row (T, p).

#include <QString>

#include <memory>
#include <string>

#include "core/bundle/npy.h"
#include "core/models/model.h"

namespace dpstudio::bundle {

// "binary", "one-vs-rest", "multiclass" (softmax) or "lmgc".
QString modelStructure(const Model& model);
// The array name of modelStructure's layout: "weights" or "phi".
std::string parameterArrayName(const Model& model);
// How the scores are computed from the array, for the manifest and the model card.
QString scoreRule(const Model& model);

NpyArray parametersToArray(const Model& model, const Eigen::VectorXd& theta);
// BadBundle naming `member` when the shape is not the model's.
Result<Eigen::VectorXd> parametersFromArray(const Model& model, const NpyArray& array, const std::string& member);

}  // namespace dpstudio::bundle

#pragma once
// The fitted preprocessing (core/data/preprocess.h) in a bundle: its settings in the
// manifest's "preprocessing" object, its drawn or fitted matrices as arrays, so that a
// bundle read back transforms raw rows bit for bit as the training run did.
//
// Arrays: "projection" (d × D, data-independent), "rff_omega" (d' × D) and "rff_offsets"
// (D, row vector as a 1-D array; both data-independent), "pca_mean" (k') and "pca_basis"
// (k' × k) — PCA is fitted on the private rows, so its arrays and the whole preprocessing
// are marked "private": false.

#include <QJsonObject>

#include <map>
#include <string>

#include "core/bundle/npy.h"
#include "core/data/preprocess.h"

namespace dpstudio::bundle {

// Writes the arrays into `arrays` and their descriptions into `arrayInfo` (name → {private,
// meaning}), and returns the "preprocessing" object.
QJsonObject preprocessingToManifest(const Preprocessor& preprocessor, std::map<std::string, NpyArray>& arrays,
                                    QJsonObject& arrayInfo);

// The fitted pipeline back; BadBundle naming the field or array when settings and arrays
// disagree (a projection of the wrong shape, a missing RFF array, …).
Result<Preprocessor> preprocessingFromManifest(const QJsonObject& preprocessing,
                                               const std::map<std::string, NpyArray>& arrays);

}  // namespace dpstudio::bundle

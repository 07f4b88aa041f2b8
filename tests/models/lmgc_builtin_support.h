#pragma once
// LMGC on a built-in dataset as the GUI trains and views it: shared by the tests of its
// convergence and of its ellipses (test_lmgc_builtin, test_ellipsoid_closing).

#include <QtGlobal>

#include <string>

#include "core/data/view_projection.h"
#include "core/learn/learner.h"
#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/sources/public_bounds.h"

namespace dpstudio::test {

// What the GUI trains on when a built-in dataset is opened and Train pressed with LMGC:
// test fraction 0.25, split seed 1, the dataset's public norm bound if it has one
// (ui/training/model_settings_form.cpp), λ = defaultLambda(LMGC), tolerance 1e-8, 3000
// iterations. unitRows: --unit-rows on top (every row scaled to norm 1). scaled: as the GUI's
// non-private LMGC, the rows divided by their RMS norm where nothing above scales them
// (PrivacyPlan::scalesRowsToData); without it the raw units, the solver's hard case.
inline PreparedData prepareAsTheGuiDoes(const std::string& name, bool unitRows = false, bool scaled = false) {
  auto data = loadBuiltin(name);
  if (!data) qFatal("%s", data.error().toString().c_str());
  SplitAndPreprocess split;
  if (auto bound = publicNormBound("builtin:" + name)) split.preprocess.normBound = bound->bound;
  split.preprocess.unitRows = unitRows;
  split.preprocess.scaleToData = scaled;
  auto prepared = prepareLoaded(std::move(data).value(), std::nullopt, split);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

// Non-private LMGC with the GUI's λ; a test that cannot train stops there.
inline TrainedModel trainDefaultLmgc(const PreparedData& data) {
  LearnerSpec spec;
  spec.kind = ModelKind::Lmgc;
  spec.lambda = defaultLambda(ModelKind::Lmgc);
  auto trained = trainModel(spec, data.train.X, data.train.y, data.train.classes(), TrainControl{});
  if (!trained) qFatal("%s", trained.error().toString().c_str());
  return std::move(trained).value();
}

// The default view of ui/dataset/dataset_controller.cpp: two features, or a random plane past 10.
inline ViewSpec defaultView(const Dataset& data) {
  ViewSpec spec;
  if (data.features() > 10) spec.kind = ViewKind::RandomProjection;
  return spec;
}

// `kind` (a ViewKind) on `name`, or with kind < 0 the dataset's default view on the two
// features it opens with (iris: the petal plane).
inline ViewSpec viewOn(const std::string& name, const Dataset& data, int kind) {
  ViewSpec view = defaultView(data);
  if (kind >= 0) view.kind = static_cast<ViewKind>(kind);
  if (const auto suggested = suggestedViewFeatures("builtin:" + name); suggested && kind < 0) {
    view.featureA = suggested->first;
    view.featureB = suggested->second;
  }
  return view;
}

}  // namespace dpstudio::test

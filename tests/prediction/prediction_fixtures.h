#pragma once
// Small problems and option builders shared by the private-prediction and multiparty tests.

#include <QTest>

#include <string>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/prediction/multiparty.h"
#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"
#include "tests/common/test_support.h"

namespace dpstudio::test {

// Gaussian blobs with a public norm bound of 10 and the intercept feature; seeded split.
inline PreparedData predictionBlobs(int classes, int perClass = 200) {
  auto loaded = loadBuiltin("blobs:classes=" + std::to_string(classes) + ",per_class=" + std::to_string(perClass));
  if (!loaded) qFatal("%s", loaded.error().toString().c_str());
  SplitAndPreprocess settings;
  settings.testFraction = 0.25;
  settings.preprocess.normBound = 10.0;
  settings.preprocess.intercept = true;
  auto prepared = prepareLoaded(std::move(loaded).value(), std::nullopt, settings);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

inline predict::PredictionOptions sensitivityOptions(ModelKind model, double epsilon, long long budget,
                                                     double lambda = 1e-2) {
  predict::PredictionOptions o;
  o.kind = predict::PredictionKind::Sensitivity;
  o.learner.kind = model;
  o.learner.lambda = lambda;
  o.epsilon = epsilon;
  o.budget = budget;
  return o;
}

inline predict::PredictionOptions subsampleOptions(ModelKind model, double epsilon, long long budget, Index teachers,
                                                   double lambda = 1e-2) {
  predict::PredictionOptions o = sensitivityOptions(model, epsilon, budget, lambda);
  o.kind = predict::PredictionKind::Subsample;
  o.teachers = teachers;
  return o;
}

}  // namespace dpstudio::test

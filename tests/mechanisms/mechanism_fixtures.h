#pragma once
// Small, fast problems and option builders shared by the mechanism tests.

#include <QTest>

#include <string>

#include "core/sources/builtin.h"
#include "core/sources/prepare.h"
#include "core/learn/learner.h"
#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise_source.h"

namespace dpstudio::test {

// Gaussian blobs with a public norm bound of 10 (the generator's scale) and, for the
// linear models, the intercept feature of docs/algorithms.md §2.1; a seeded stratified split.
inline PreparedData blobs(int classes, bool intercept, int perClass = 200) {
  auto loaded = loadBuiltin("blobs:classes=" + std::to_string(classes) + ",per_class=" + std::to_string(perClass));
  if (!loaded) qFatal("%s", loaded.error().toString().c_str());
  SplitAndPreprocess settings;
  settings.testFraction = 0.25;
  settings.preprocess.normBound = 10.0;
  settings.preprocess.intercept = intercept;
  auto prepared = prepareLoaded(std::move(loaded).value(), std::nullopt, settings);
  if (!prepared) qFatal("%s", prepared.error().toString().c_str());
  return std::move(prepared).value();
}

inline mech::MechanismOptions options(mech::MechanismKind kind, ModelKind model, double epsilon,
                                      double lambda = 1e-3) {
  mech::MechanismOptions o;
  o.kind = kind;
  o.learner.kind = model;
  o.learner.lambda = lambda;
  o.epsilon = epsilon;
  if (kind == mech::MechanismKind::DpSgd) {
    o.delta = 1e-5;
    o.sgd.batchSize = 32;
    o.sgd.epochs = 20;
  }
  return o;
}

inline mech::PrivateModel trainOrDie(const mech::MechanismOptions& o, const Dataset& train, privacy::NoiseSource& noise) {
  auto result = mech::trainPrivately(o, train, noise);
  if (!result) qFatal("%s", result.error().toString().c_str());
  return std::move(result).value();
}

inline mech::PrivateModel trainWithSeed(const mech::MechanismOptions& o, const Dataset& train, std::uint64_t seed) {
  privacy::ExperimentNoise noise(seed);
  return trainOrDie(o, train, noise);
}

inline double testAccuracy(const mech::PrivateModel& m, const Dataset& test) {
  return accuracy(*m.trained.model, m.trained.theta, test.X, test.y);
}

// Bit-for-bit equality of two parameter vectors.
inline bool identical(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && (a.array() == b.array()).all();
}

}  // namespace dpstudio::test

#pragma once
// Shared set-up of the bundle tests: a plan trained on built-in data (the raw test rows
// kept, so that a bundle read back can be fed what a data file holds), exported and written.

#include <QDir>
#include <QTemporaryDir>

#include "core/bundle/bundle_export.h"
#include "core/bundle/bundle_reader.h"
#include "core/data/split.h"
#include "core/sources/source.h"
#include "tests/common/test_support.h"

namespace dpstudio::test {

struct TrainedRun {
  experiment::PrivacyPlan plan;
  experiment::PlanRun run;
  PreparedData data;
  Eigen::MatrixXd rawTest;  // the test rows before preprocessing
  privacy::NoiseProvenance noise;
};

inline PreprocessSpec unitRows() {
  PreprocessSpec spec;
  spec.unitRows = true;
  return spec;
}

inline TrainedRun trainRun(const experiment::PrivacyPlan& plan, const std::string& builtin,
                           const PreprocessSpec& preprocess = unitRows(),
                           privacy::NoiseKind noiseKind = privacy::NoiseKind::Experiment) {
  const Dataset all = orDie(openDataset(builtin));
  TrainTest split = orDie(splitDataset(all, 0.3, 11));
  TrainedRun out{plan, {}, {}, split.test.X, {}};
  SplitAndPreprocess settings;
  settings.preprocess = preprocess;
  settings.keepRowsBeforeMap = false;
  out.data = orDie(prepareLoaded(split.train, split.test, settings));
  auto noise = orDie(privacy::makeNoiseSource(noiseKind, 4242));
  out.noise = noise->provenance();
  experiment::RunControl control;
  control.trainBaseline = false;
  out.run = orDie(experiment::runPlan(plan, out.data, *noise, control));
  return out;
}

inline bundle::BundleContents exported(const TrainedRun& t) {
  return orDie(bundle::bundleFromPlanRun(t.plan, t.run, t.data, t.noise));
}

inline experiment::PrivacyPlan mechanismPlan(mech::MechanismKind kind, ModelKind model, double lambda = 1e-2,
                                             double delta = 0.0) {
  mech::MechanismOptions o;
  o.kind = kind;
  o.learner = {model, lambda, 0.5};
  o.epsilon = 2.0;
  o.delta = delta;
  if (delta > 0) o.family = mech::NoiseFamily::Gaussian;
  o.sgd.epochs = 2;
  o.sgd.batchSize = 32;
  return experiment::PrivacyPlan::training(o);
}

// Bundles in a fresh temporary folder.
class BundleFolder {
 public:
  QString path(const QString& name) const { return dir_.filePath(name); }
  QStringList entries() const { return QDir(dir_.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden); }

 private:
  QTemporaryDir dir_;
};

}  // namespace dpstudio::test

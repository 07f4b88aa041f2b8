#pragma once
// A .dpmodel bundle read back as something that predicts: its preprocessing and its model,
// or its private predictor with the budget it had left. The API front ends use:
//
//   auto loaded = bundle::readBundle(path);            // every check of bundle_archive.h,
//                                                       // then the meaning of the manifest
//   auto out = bundle::predict(loaded.value(), rawX, noise);   // raw rows, as the data file has them
//   if (loaded.value().stateful()) bundle::writeBundle(bundle::currentContents(loaded.value()), path);
//
// A released (or non-private) model predicts deterministically, exactly as the model did in
// memory: the arrays read back bit for bit and the same code runs. A private predictor's
// answers draw noise from `noise` and spend its budget, all rows or none.

#include <QString>

#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "core/bundle/bundle_archive.h"
#include "core/data/data_schema.h"
#include "core/data/preprocess.h"
#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"

namespace dpstudio::bundle {

struct BundleModel {
  std::shared_ptr<const Model> model;
  Eigen::VectorXd theta;
};

struct LoadedBundle {
  BundleContents contents;  // as read (the manifest without its checksums)
  Preprocessor preprocessor;
  std::vector<std::string> classNames;
  // The schema the training rows were read by (manifest "data_schema"), if any: new rows are
  // read by it too.
  std::optional<DataSchema> schema;
  std::variant<BundleModel, predict::PrivatePredictor, predict::SubsampleAggregate> predictor;

  bool stateful() const { return predictor.index() != 0; }
  // Stateful predictors only: the manifest's inference.budget_id, the budget's name in the
  // ledger, which the restored predictor's budget carries (its budgetId()). A bundle written
  // before budget ids gets a new one here, which the next rewrite (currentContents) stores.
  std::optional<std::uint64_t> budgetId;
  // Stateful predictors only.
  std::optional<long long> budget() const;
  std::optional<long long> budgetRemaining() const;
  QString kind() const { return contents.manifest["kind"].toString(); }
  Index inputDim() const { return preprocessor.inputDim; }
};

Result<LoadedBundle> readBundle(const QString& path, const ZipLimits& limits = {});

// The contents to write back: for a stateful predictor, the manifest's answer count and the
// model card updated to the predictor's current count; otherwise as read.
BundleContents currentContents(const LoadedBundle& loaded);

// Writes the bundle atomically (bundle_archive.h); the GUI's and the CLI's one writer.
Status writeBundle(const BundleContents& contents, const QString& path, const BeforeCommit& beforeCommit = {});

struct BundlePredictions {
  Eigen::VectorXi labels;  // class indices into LoadedBundle::classNames
  // A released model: its scores (larger = more likely); prediction sensitivity: the noisy
  // scores it released (binary: one column); subsample-and-aggregate: none (0 columns).
  Eigen::MatrixXd scores;
  long long answersSpent = 0;  // stateful predictors: rows answered from the budget
};

// Preprocesses raw rows (the bundle's input_dim columns) and predicts. A stateful predictor
// answers every row or none: more rows than remain is ErrorKind::InvalidPrivacy with nothing
// spent and no noise drawn. Its answers are recorded in `ledger` before they are drawn (as
// the predictors record, budget_ledger.h), under the bundle's budget id; a ledger that
// refuses them (its count of the budget would pass B) refuses the whole batch, nothing drawn.
Result<BundlePredictions> predict(LoadedBundle& loaded, const Eigen::MatrixXd& rawX, privacy::NoiseSource& noise,
                                  privacy::PrivacyLedger* ledger = nullptr);

}  // namespace dpstudio::bundle

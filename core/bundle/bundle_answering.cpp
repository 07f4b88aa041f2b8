#include "core/bundle/bundle_answering.h"

#include <QDir>
#include <QFileInfo>

#include "core/sources/prepare.h"

namespace dpstudio::bundle {

Result<DatasetAnswers> answerDataset(LoadedBundle& loaded, const QString& path, const Dataset& data,
                                     privacy::NoiseSource& noise, const AnswerLedger& ledger) {
  // The bundle's classes by name, so that accuracy compares like with like.
  Dataset reference;
  reference.X.resize(0, loaded.inputDim());
  reference.classNames = loaded.classNames;
  auto aligned = alignToTraining(data, reference);
  if (!aligned) return aligned.error();
  DatasetAnswers out;
  out.data = std::move(aligned).value();
  // The predictor writes its entry here, under its in-process budget id; the ledger must
  // know the budget by the id the bundle keeps across processes.
  privacy::PrivacyLedger scratch;
  const bool counted = ledger.ledger && loaded.stateful() && loaded.budgetId;
  auto predictions = predict(loaded, out.data.X, noise, counted ? &scratch : nullptr);
  if (!predictions) return predictions.error();
  if (loaded.stateful())
    if (auto written = writeBundle(currentContents(loaded), path); !written) return written.error();
  if (counted && scratch.size() == 1) {
    privacy::LedgerEntry entry = scratch.entries().front();
    entry.inferenceBudget->id = *loaded.budgetId;
    entry.datasetName = ledger.trainingDataName;
    // Only used when this ledger opens the budget now: its count includes whatever the
    // bundle answered before, wherever that was.
    entry.note += "; opened in this ledger by answers of the bundle " +
                  QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()).toStdString();
    entry.id.clear();  // the scratch ledger's; the real one gives its own
    entry.index = 0;
    entry.time = {};
    entry.session.clear();
    auto recorded = ledger.ledger->record(std::move(entry));
    if (!recorded) return recorded.error();
    out.recorded = recorded.value();
  }
  out.predictions = std::move(predictions).value();
  const Index rows = out.predictions.labels.size();
  if (rows > 0)
    out.accuracy = static_cast<double>((out.predictions.labels.array() == out.data.y.array()).count()) /
                   static_cast<double>(rows);
  return out;
}

}  // namespace dpstudio::bundle

#include "core/bundle/bundle_answering.h"

#include <QDir>
#include <QFileInfo>

#include "core/sources/prepare.h"
#include "core/sources/source.h"

namespace dpstudio::bundle {

Result<DatasetAnswers> answerDataset(LoadedBundle& loaded, const QString& path, const Dataset& data,
                                     privacy::NoiseSource& noise, privacy::PrivacyLedger* ledger) {
  DatasetAnswers out;
  if (data.labelled) {
    // The bundle's classes by name, so that accuracy compares like with like.
    Dataset reference;
    reference.X.resize(0, loaded.inputDim());
    reference.classNames = loaded.classNames;
    auto aligned = alignToTraining(data, reference);
    if (!aligned) return aligned.error();
    out.data = std::move(aligned).value();
  } else if (data.features() != loaded.inputDim()) {
    return Error::badData("the rows have " + std::to_string(data.features()) + " features but the bundle's model takes " +
                              std::to_string(loaded.inputDim()),
                          data.provenance.source);
  } else {
    out.data = data;
  }
  privacy::PrivacyLedger* counting = loaded.stateful() ? ledger : nullptr;
  if (counting) {
    // The ledger entry says which bundle answered which rows (a bundle never names its data:
    // the entry takes its dataset from the budget's opening when the ledger holds it).
    std::string note = "answers of the bundle " + QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()).toStdString();
    if (!data.provenance.source.empty()) note += " to the rows of " + datasetIdentity(data.provenance.source);
    std::visit(
        [&note](auto& predictor) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(predictor)>, BundleModel>) predictor.setLedgerNote(note);
        },
        loaded.predictor);
  }
  // The predictor records the answers in the ledger (under the bundle's budget id) before it
  // draws them: a ledger whose count of this budget would pass B refuses the batch here, with
  // nothing drawn and the bundle not rewritten.
  auto predictions = predict(loaded, out.data.X, noise, counting);
  if (!predictions) return predictions.error();
  if (loaded.stateful())
    if (auto written = writeBundle(currentContents(loaded), path); !written) return written.error();
  if (counting && loaded.budgetId)
    for (const privacy::LedgerEntry& entry : counting->entries())
      if (entry.inferenceBudget && entry.inferenceBudget->id == *loaded.budgetId) out.recorded = entry;
  out.predictions = std::move(predictions).value();
  const Index rows = out.predictions.labels.size();
  if (rows > 0 && out.data.labelled)
    out.accuracy = static_cast<double>((out.predictions.labels.array() == out.data.y.array()).count()) /
                   static_cast<double>(rows);
  return out;
}

}  // namespace dpstudio::bundle

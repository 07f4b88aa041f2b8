#include "core/bundle/bundle_answering.h"

#include "core/sources/prepare.h"

namespace dpstudio::bundle {

Result<DatasetAnswers> answerDataset(LoadedBundle& loaded, const QString& path, const Dataset& data,
                                     privacy::NoiseSource& noise) {
  // The bundle's classes by name, so that accuracy compares like with like.
  Dataset reference;
  reference.X.resize(0, loaded.inputDim());
  reference.classNames = loaded.classNames;
  auto aligned = alignToTraining(data, reference);
  if (!aligned) return aligned.error();
  DatasetAnswers out;
  out.data = std::move(aligned).value();
  auto predictions = predict(loaded, out.data.X, noise);
  if (!predictions) return predictions.error();
  if (loaded.stateful())
    if (auto written = writeBundle(currentContents(loaded), path); !written) return written.error();
  out.predictions = std::move(predictions).value();
  const Index rows = out.predictions.labels.size();
  if (rows > 0)
    out.accuracy = static_cast<double>((out.predictions.labels.array() == out.data.y.array()).count()) /
                   static_cast<double>(rows);
  return out;
}

}  // namespace dpstudio::bundle

#include "ui/dataset/dataset_document.h"

#include <QFileInfo>

#include "core/sources/source.h"

namespace dpstudio::ui {

DatasetDocument::DatasetDocument(QObject* parent) : QObject(parent) {}

QString DatasetDocument::displayName() const {
  if (!dataset_) return {};
  const std::string spec = source_.spec.toStdString();
  if (isBuiltinSpec(spec)) return source_.spec.section(QLatin1Char(':'), 1);
  return QFileInfo(source_.spec).fileName();
}

void DatasetDocument::setDataset(DatasetSource source, std::shared_ptr<const Dataset> dataset,
                                 ViewSpec spec, std::optional<DatasetView> view) {
  source_ = std::move(source);
  dataset_ = std::move(dataset);
  testSource_ = {};
  testDataset_.reset();
  viewSpec_ = spec;
  view_ = std::move(view);
  emit datasetChanged();
}

void DatasetDocument::setTestDataset(DatasetSource source, std::shared_ptr<const Dataset> test) {
  testSource_ = std::move(source);
  testDataset_ = std::move(test);
  emit testDatasetChanged();
}

void DatasetDocument::clearTestDataset() {
  if (!testDataset_) return;
  testSource_ = {};
  testDataset_.reset();
  emit testDatasetChanged();
}

void DatasetDocument::setView(ViewSpec spec, std::optional<DatasetView> view) {
  viewSpec_ = spec;
  view_ = std::move(view);
  emit viewChanged();
}

}  // namespace dpstudio::ui

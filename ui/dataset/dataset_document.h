#pragma once
// The dataset the window is showing and its 2-D view: the document every dataset panel and
// view subscribes to (Tiled's document pattern). It owns no threads and computes nothing;
// DatasetController fills it with values computed off the GUI thread.
//
// Signals are past tense: datasetChanged() after a new dataset (with its view) replaced the
// old one, viewChanged() after only the 2-D view of the same dataset changed.

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

#include <Eigen/Core>

#include "core/data/dataset.h"
#include "core/data/view_projection.h"
#include "core/io/loader.h"

namespace dpstudio::ui {

// One 2-D view of one dataset, computed by a worker.
struct DatasetView {
  ViewSpec spec;
  ViewProjection projection;
  Eigen::MatrixXd coords;  // rows × 2: the dataset's rows in view coordinates
};

// What a dataset was opened from: enough to open it again.
struct DatasetSource {
  QString spec;         // a file path or "builtin:NAME"
  LoadOptions options;  // as passed to openDataset()
};

class DatasetDocument : public QObject {
  Q_OBJECT

 public:
  explicit DatasetDocument(QObject* parent = nullptr);

  bool hasDataset() const { return static_cast<bool>(dataset_); }
  // Immutable once published: workers may hold this pointer while the GUI moves on.
  const std::shared_ptr<const Dataset>& dataset() const { return dataset_; }
  const DatasetSource& source() const { return source_; }
  // A short name for titles: the file name, or the built-in's name.
  QString displayName() const;

  // The view requested for this dataset, and the view computed for it (empty while none
  // could be computed, e.g. when the projection failed).
  const ViewSpec& viewSpec() const { return viewSpec_; }
  const std::optional<DatasetView>& view() const { return view_; }

  // A separate test file for the dataset (a9a.t for a9a), its classes already expressed in
  // the dataset's (alignToTraining); empty while the dataset is split instead. Opening
  // another dataset drops it.
  const std::shared_ptr<const Dataset>& testDataset() const { return testDataset_; }
  const DatasetSource& testSource() const { return testSource_; }

  void setDataset(DatasetSource source, std::shared_ptr<const Dataset> dataset,
                  ViewSpec spec, std::optional<DatasetView> view);
  void setView(ViewSpec spec, std::optional<DatasetView> view);
  void setTestDataset(DatasetSource source, std::shared_ptr<const Dataset> test);
  void clearTestDataset();

 signals:
  void datasetChanged();
  void viewChanged();
  void testDatasetChanged();  // a test file was set or removed (not when the dataset changed)

 private:
  DatasetSource source_;
  std::shared_ptr<const Dataset> dataset_;
  ViewSpec viewSpec_;
  std::optional<DatasetView> view_;
  DatasetSource testSource_;
  std::shared_ptr<const Dataset> testDataset_;
};

}  // namespace dpstudio::ui

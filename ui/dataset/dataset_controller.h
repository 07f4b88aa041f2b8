#pragma once
// Opens datasets and computes their 2-D views off the GUI thread, and publishes the results
// to a DatasetDocument. Opening replaces the document's dataset only when the new one has
// loaded and validated: a failed or cancelled open leaves the current dataset in place.
//
// At most one open and one view job run at a time; starting another cancels the previous
// one of the same kind (its late result is dropped). jobStarted() hands each job to whoever
// shows progress and offers Cancel.

#include <QObject>
#include <QPointer>
#include <QString>

#include <optional>

#include "core/io/loader.h"
#include "ui/dataset/dataset_document.h"
#include "ui/jobs/job.h"

namespace dpstudio::ui {

class DatasetController : public QObject {
  Q_OBJECT

 public:
  explicit DatasetController(DatasetDocument* document, QObject* parent = nullptr);
  ~DatasetController() override;

  // Starts opening spec (a path or "builtin:NAME"). The view kind the user last chose and the
  // seed carry over (before any choice: two features for d <= 10, else a random projection);
  // the two features reset to the first two of the new dataset.
  void open(const QString& spec, const LoadOptions& options = {});
  // Recomputes the 2-D view of the current dataset (no-op without one); its kind becomes the
  // user's choice for datasets opened later.
  void setViewSpec(const ViewSpec& spec);
  // The view kind datasets open in from now on, as if the user had chosen it.
  void setPreferredViewKind(ViewKind kind) { chosenKind_ = kind; }
  // The kind the user chose last, if any: kept in the settings for the next start.
  std::optional<ViewKind> preferredViewKind() const { return chosenKind_; }
  // Starts opening a separate test file for the current dataset, read with `options` (a
  // LIBSVM file with the dataset's feature count unless options say otherwise); its classes
  // must occur in the dataset. Success replaces the document's test set; failure leaves it.
  void openTest(const QString& path, const LoadOptions& options = {});
  // Cancels whatever is running.
  void cancel();

  bool isOpening() const { return !openJob_.isNull(); }
  bool isBusy() const { return isOpening() || !viewJob_.isNull() || !testJob_.isNull(); }

 signals:
  void jobStarted(dpstudio::ui::JobHandle* job);
  void opened(const QString& spec);
  void openFailed(const QString& spec, const QString& message);
  void openCancelled(const QString& spec);
  void viewFailed(const QString& message);
  void testOpened(const QString& path);
  void testOpenFailed(const QString& path, const QString& message);

 private:
  DatasetDocument* document_;
  QPointer<JobHandle> openJob_;
  QPointer<JobHandle> viewJob_;
  QPointer<JobHandle> testJob_;
  std::optional<ViewKind> chosenKind_;
};

}  // namespace dpstudio::ui

#include "ui/dataset/dataset_controller.h"

#include "core/sources/builtin.h"

#include <QFileInfo>

#include <algorithm>

#include "core/sources/prepare.h"
#include "core/sources/source.h"

namespace dpstudio::ui {
namespace {

struct OpenedDataset {
  std::shared_ptr<const Dataset> dataset;
  ViewSpec viewSpec;
  std::optional<DatasetView> view;
  std::string viewError;  // why view is empty, if it is
};

// Past this many features, two raw features rarely show anything (digits' first two pixels
// are blank), so a dataset opens in a random projection unless the user chose a kind.
constexpr Index kMaxFeaturesForFeatureView = 10;

// The view a freshly opened dataset starts with: the kind the user last chose (or the default
// for its dimension), the same seed, the two features its description suggests (iris: the
// petals), else the first two (or the only one).
ViewSpec initialViewSpec(ViewSpec previous, std::optional<ViewKind> chosenKind, const Dataset& data) {
  if (chosenKind)
    previous.kind = *chosenKind;
  else
    previous.kind = data.features() > kMaxFeaturesForFeatureView ? ViewKind::RandomProjection
                                                                  : ViewKind::Features;
  previous.featureA = 0;
  previous.featureB = std::min<Index>(1, data.features() - 1);
  if (const auto suggested = suggestedViewFeatures(data.provenance.source);
      suggested && suggested->first < data.features() && suggested->second < data.features()) {
    previous.featureA = suggested->first;
    previous.featureB = suggested->second;
  }
  return previous;
}

Result<DatasetView> computeView(const Dataset& data, const ViewSpec& spec) {
  Result<ViewProjection> projection = makeViewProjection(data, spec);
  if (!projection) return projection.error();
  DatasetView view;
  view.spec = spec;
  view.coords = projection.value().project(data.X);
  view.projection = std::move(projection).value();
  return view;
}

Result<OpenedDataset> openWithView(const std::string& spec, const LoadOptions& options,
                                   ViewSpec viewSpec, std::optional<ViewKind> chosenKind,
                                   const Progress& progress) {
  // Reading is most of the work; the projection gets the last few percent.
  const Progress reading([&progress](double f) { progress.report(0.95 * f); },
                         progress.stopToken());
  Result<Dataset> loaded = openDataset(spec, options, reading);
  if (!loaded) return loaded.error();
  if (progress.cancelled()) return Error::cancelled();

  OpenedDataset out;
  out.dataset = std::make_shared<const Dataset>(std::move(loaded).value());
  out.viewSpec = initialViewSpec(viewSpec, chosenKind, *out.dataset);
  Result<DatasetView> view = computeView(*out.dataset, out.viewSpec);
  if (view) out.view = std::move(view).value();
  else out.viewError = view.error().toString();
  progress.report(1.0);
  return out;
}

}  // namespace

DatasetController::DatasetController(DatasetDocument* document, QObject* parent)
    : QObject(parent), document_(document) {}

DatasetController::~DatasetController() { cancel(); }

void DatasetController::open(const QString& spec, const LoadOptions& options) {
  if (openJob_) {
    openJob_->cancel();
    openJob_->disconnect(this);
    openJob_->deleteLater();
  }
  const std::string specText = spec.toStdString();
  const ViewSpec viewSpec = document_->viewSpec();
  auto* job = startJob<OpenedDataset>(
      tr("Opening %1").arg(isBuiltinSpec(specText) ? spec : QFileInfo(spec).fileName()),
      [specText, options, viewSpec, chosenKind = chosenKind_](const Progress& progress) {
        return openWithView(specText, options, viewSpec, chosenKind, progress);
      },
      this);
  openJob_ = job;

  connect(job, &JobHandle::finished, this, [this, job, spec, options](JobHandle::State state) {
    job->deleteLater();
    if (openJob_ == job) openJob_.clear();
    switch (state) {
      case JobHandle::State::Succeeded: {
        OpenedDataset result = job->takeValue();
        // A view job for the old dataset is moot now.
        if (viewJob_) viewJob_->cancel();
        document_->setDataset(DatasetSource{spec, options}, std::move(result.dataset),
                              result.viewSpec, std::move(result.view));
        emit opened(spec);
        if (!result.viewError.empty()) emit viewFailed(QString::fromStdString(result.viewError));
        break;
      }
      case JobHandle::State::Failed:
        emit openFailed(spec, job->errorText());
        break;
      case JobHandle::State::Cancelled:
        emit openCancelled(spec);
        break;
      case JobHandle::State::Running:
        break;
    }
  });
  emit jobStarted(job);
}

void DatasetController::setViewSpec(const ViewSpec& spec) {
  if (!document_->hasDataset()) return;
  chosenKind_ = spec.kind;
  if (viewJob_) {
    viewJob_->cancel();
    viewJob_->disconnect(this);
    viewJob_->deleteLater();
  }
  std::shared_ptr<const Dataset> data = document_->dataset();
  auto* job = startJob<DatasetView>(
      tr("Projecting to 2-D"),
      [data, spec](const Progress&) { return computeView(*data, spec); }, this);
  viewJob_ = job;

  connect(job, &JobHandle::finished, this, [this, job, data, spec](JobHandle::State state) {
    job->deleteLater();
    if (viewJob_ == job) viewJob_.clear();
    // The dataset may have been replaced while the view was being computed.
    if (document_->dataset() != data) return;
    if (state == JobHandle::State::Succeeded) {
      document_->setView(spec, job->takeValue());
    } else if (state == JobHandle::State::Failed) {
      emit viewFailed(job->errorText());
    }
  });
  emit jobStarted(job);
}

void DatasetController::openTest(const QString& path, const LoadOptions& options) {
  if (!document_->hasDataset()) return;
  if (testJob_) {
    testJob_->cancel();
    testJob_->disconnect(this);
    testJob_->deleteLater();
  }
  std::shared_ptr<const Dataset> train = document_->dataset();
  LoadOptions testOptions = options;
  testOptions.labelUse = LabelUse::Evaluation;  // scored only: one class will do
  // A LIBSVM test file never uses some of the training file's features (a9a.t lacks 123).
  if (testOptions.libsvmFeatures == 0 && train->provenance.format == "libsvm")
    testOptions.libsvmFeatures = train->features();
  const std::string pathText = path.toStdString();
  auto* job = startJob<std::shared_ptr<const Dataset>>(
      tr("Opening the test file %1").arg(QFileInfo(path).fileName()),
      [pathText, testOptions, train](const Progress& progress) -> Result<std::shared_ptr<const Dataset>> {
        Result<Dataset> loaded = openDataset(pathText, testOptions, progress);
        if (!loaded) return loaded.error();
        Result<Dataset> aligned = alignToTraining(loaded.value(), *train);
        if (!aligned) return aligned.error();
        return std::make_shared<const Dataset>(std::move(aligned).value());
      },
      this);
  testJob_ = job;
  connect(job, &JobHandle::finished, this, [this, job, path, testOptions, train](JobHandle::State state) {
    job->deleteLater();
    if (testJob_ == job) testJob_.clear();
    // A test file for a dataset that has been replaced meanwhile is moot.
    if (document_->dataset() != train) return;
    if (state == JobHandle::State::Succeeded) {
      document_->setTestDataset(DatasetSource{path, testOptions}, job->takeValue());
      emit testOpened(path);
    } else if (state == JobHandle::State::Failed) {
      emit testOpenFailed(path, job->errorText());
    }
  });
  emit jobStarted(job);
}

void DatasetController::cancel() {
  if (openJob_) openJob_->cancel();
  if (viewJob_) viewJob_->cancel();
  if (testJob_) testJob_->cancel();
}

}  // namespace dpstudio::ui

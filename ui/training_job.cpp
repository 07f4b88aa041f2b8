#include "ui/training_job.h"

#include <chrono>

#include "core/data/source.h"
#include "core/mechanisms/tuning.h"
#include "ui/prediction_job.h"

namespace dpstudio::ui {
namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The split and the preprocessing.
Status prepare(TrainingResult& result, const Dataset& dataset, const Progress& progress) {
  std::optional<Dataset> test;
  if (result.testSource) test = *result.testSource;
  auto prepared = prepareLoaded(dataset, std::move(test), result.settings.data);
  if (!prepared) return prepared.error();
  if (progress.cancelled()) return Error::cancelled();
  progress.report(0.03);
  result.data = std::make_shared<const PreparedData>(std::move(prepared).value());
  return Ok{};
}

// The non-private model on the prepared training part.
Status trainBaseline(TrainingResult& result, const Progress& progress, double from, double to) {
  const Dataset& train = result.data->train;
  const Dataset& test = result.data->test;

  TrainControl control;
  control.tolerance = result.settings.tolerance;
  control.maxIterations = result.settings.maxIterations;
  control.progress = progressSegment(progress, from, to);
  const auto start = std::chrono::steady_clock::now();
  auto trained = trainModel(result.settings.learner, train.X, train.y, train.classes(), control);
  result.seconds = secondsSince(start);
  if (!trained) return trained.error();
  result.model = std::move(trained).value();
  const Model& model = *result.model.model;
  result.trainAccuracy = accuracy(model, result.model.theta, train.X, train.y);
  if (test.rows() > 0) result.testAccuracy = accuracy(model, result.model.theta, test.X, test.y);
  return Ok{};
}

// The mechanism on the same training part, with noise from the settings' source.
Status trainRelease(TrainingResult& result, const Progress& progress, double from) {
  const PrivacySettings& privacy = result.settings.privacy;
  auto noise = privacy::makeNoiseSource(privacy.noise, privacy.seed);
  if (!noise) return noise.error();
  const Dataset& train = result.data->train;
  const Dataset& test = result.data->test;
  const mech::MechanismOptions options = result.settings.mechanismOptions();

  TrainControl control;
  control.tolerance = result.settings.tolerance;
  control.maxIterations = result.settings.maxIterations;
  control.progress = progressSegment(progress, from, 0.97);
  // Output perturbation releases the exact minimizer whatever the start; starting at the
  // non-private solution only gets there sooner. The other mechanisms ignore it (their
  // start must not depend on the data).
  if (options.kind == mech::MechanismKind::Output && privacy.tuneLambdas.empty())
    control.warmStart = result.model.theta;
  const auto start = std::chrono::steady_clock::now();
  auto trained = privacy.tuneLambdas.empty()
                     ? mech::trainPrivately(options, train, *noise.value(), control)
                     : mech::tunePrivately({options, privacy.tuneLambdas}, train, *noise.value(), control);
  if (!trained) return trained.error();
  PrivateRelease release;
  release.seconds = secondsSince(start);
  release.model = std::move(trained.value().trained);
  release.report = std::move(trained.value().report);
  release.noise = noise.value()->provenance();
  const Model& model = *release.model.model;
  release.trainAccuracy = accuracy(model, release.model.theta, train.X, train.y);
  if (test.rows() > 0) release.testAccuracy = accuracy(model, release.model.theta, test.X, test.y);
  result.release = std::move(release);
  return Ok{};
}

QString number(double value) { return QString::number(value, 'g', 4); }

}  // namespace

Progress progressSegment(const Progress& progress, double from, double to) {
  return Progress([progress, from, to](double f) { progress.report(from + (to - from) * f); }, progress.stopToken());
}

Result<TrainingOutcome> trainWithView(const std::shared_ptr<const Dataset>& dataset,
                                      const std::shared_ptr<const Dataset>& test, const QString& name,
                                      const TrainingSettings& settings, const ViewSpec& viewSpec,
                                      const std::shared_ptr<const TrainingResult>& reuse, const Progress& progress) {
  auto result = std::make_shared<TrainingResult>();
  result->source = dataset;
  result->testSource = test;
  result->datasetName = name;
  result->settings = settings;
  const PrivacySettings& privacy = settings.privacy;
  const bool isPrivate = privacy.isPrivate();
  // Same data, same baseline: the prepared data (and a baseline trained as a baseline run
  // trains it) are taken over; only the mechanism runs again (Redraw noise, another ε, …).
  const bool sameData = isPrivate && reuse && reuse->source == dataset && reuse->testSource == test &&
                        sameBaseline(reuse->settings, settings);
  if (sameData) result->data = reuse->data;
  else if (auto status = prepare(*result, *dataset, progress); !status) return status.error();
  const bool reuseModel = sameData && reuse->hasStandardBaseline();
  if (reuseModel) {
    result->model = reuse->model;
    result->trainAccuracy = reuse->trainAccuracy;
    result->testAccuracy = reuse->testAccuracy;
    result->seconds = reuse->seconds;
  }
  if (privacy.prediction && privacy.prediction->kind == predict::PredictionKind::Sensitivity) {
    // θ* is the baseline: no other model to train.
    if (auto status = trainPredictor(*result, progress, 0.03, 0.97); !status) return status.error();
  } else if (privacy.prediction) {
    // The teachers first, so that Cancel stops them; the all-rows baseline after.
    const double teachersTo = reuseModel ? 0.97 : 0.8;
    if (auto status = trainPredictor(*result, progress, 0.03, teachersTo); !status) return status.error();
    if (progress.cancelled()) return Error::cancelled();
    if (!reuseModel)
      if (auto status = trainBaseline(*result, progress, teachersTo, 0.97); !status) return status.error();
  } else if (privacy.multiparty) {
    if (auto status = trainMultipartyRelease(*result, progress, 0.03, 0.97); !status) return status.error();
  } else {
    const double from = reuseModel ? 0.03 : isPrivate ? 0.5 : 0.97;
    if (!reuseModel)
      if (auto status = trainBaseline(*result, progress, 0.03, from); !status) return status.error();
    if (isPrivate) {
      if (progress.cancelled()) return Error::cancelled();
      if (auto status = trainRelease(*result, progress, from); !status) return status.error();
    }
  }

  TrainingOutcome outcome;
  auto view = computeModelView(*result, viewSpec);
  if (view) outcome.view = std::make_shared<const ModelView>(std::move(view).value());
  else outcome.viewError = view.error().toString();
  outcome.result = std::move(result);
  progress.report(1.0);
  return outcome;
}

Result<ModelView> computeModelView(const TrainingResult& result, const ViewSpec& spec) {
  const TrainedModel& shown = result.shownModel();
  auto geometry = makeModelViewGeometry(*result.data, spec, *shown.model, shown.theta);
  if (!geometry) return geometry.error();
  ModelView view{spec, std::move(geometry).value(), {}};
  if (result.release && !view.geometry.ellipses.empty()) {
    auto reference = makeModelViewGeometry(*result.data, spec, *result.model.model, result.model.theta);
    if (!reference) return reference.error();
    view.referenceEllipses = std::move(reference.value().ellipses);
  }
  return view;
}

privacy::LedgerEntry ledgerEntryFor(const TrainingResult& result) {
  const PrivateRelease& release = *result.release;
  const mech::MechanismReport& report = release.report;
  const TrainingSettings& settings = result.settings;
  privacy::LedgerEntry entry;
  QString mechanism = QObject::tr("%1 (%2)").arg(privacyDisplayName(settings.privacy),
                                                 modelDisplayName(settings.learner.kind));
  if (!settings.privacy.tuneLambdas.empty()) mechanism += QObject::tr(", \u03bb tuned privately");
  entry.mechanism = mechanism.toStdString();
  entry.epsilon = report.epsilon;
  // Multiparty as published: the ε that can be proven for the paper's noise (as core's
  // predictors record epsilon_actual), not the claim.
  if (const auto provable = report.value("epsilon_provable")) entry.epsilon = *provable;
  entry.delta = report.delta;
  entry.dataset = datasetIdentity(result.source->provenance.source);
  QStringList note;
  note << QObject::tr("calibration %1").arg(QString::fromStdString(report.calibration));
  note << QObject::tr("noise %1").arg(QString::fromStdString(report.noise));
  note << QString::fromStdString(release.noise.describe());
  // Not ‖b‖: the ledger is the record a user shares about releases, and beside a released
  // model the noise norm says how far the exact one is.
  if (result.multiparty) {
    QStringList sizes;
    for (Index size : result.multiparty->partySizes) sizes << QString::number(size);
    note << QObject::tr("K = %1 parties of %2 rows").arg(sizes.size()).arg(sizes.join(QStringLiteral("/")));
  }
  if (const auto lambda = report.value("chosen_lambda")) note << QObject::tr("chosen \u03bb = %1").arg(number(*lambda));
  else note << QObject::tr("\u03bb = %1").arg(number(settings.learner.lambda));
  if (const auto provable = report.value("epsilon_provable"))
    note << QObject::tr("\u03b5 recorded: the provable %1, not the claimed %2").arg(number(*provable), number(report.epsilon));
  if (!report.warning.empty() && report.calibration == "published")
    note << QObject::tr("as published: NOT differentially private as stated");
  entry.note = note.join(QStringLiteral("; ")).toStdString();
  return entry;
}

std::vector<privacy::LedgerEntry> ledgerEntriesFor(const TrainingResult& result) {
  std::vector<privacy::LedgerEntry> entries{ledgerEntryFor(result)};
  if (!result.multiparty || !result.multiparty->allDataPrivate) return entries;
  // Multiparty's all-data DP baseline: a second release from the same rows.
  const mech::MechanismReport& report = result.multiparty->allDataPrivate->report;
  privacy::LedgerEntry baseline;
  baseline.mechanism = QObject::tr("Multiparty all-data DP baseline (%1)")
                           .arg(modelDisplayName(result.settings.learner.kind))
                           .toStdString();
  baseline.epsilon = report.value("epsilon_provable").value_or(report.epsilon);
  baseline.delta = report.delta;
  baseline.dataset = result.datasetName.toStdString();
  QStringList note;
  note << QObject::tr("a second release of the multiparty run (one party holding every training row)");
  note << QObject::tr("calibration %1").arg(QString::fromStdString(report.calibration));
  note << QObject::tr("noise %1").arg(QString::fromStdString(report.noise));
  note << QString::fromStdString(result.release->noise.describe());
  if (const auto provable = report.value("epsilon_provable"))
    note << QObject::tr("\u03b5 recorded: the provable %1, not the claimed %2").arg(number(*provable), number(report.epsilon));
  baseline.note = note.join(QStringLiteral("; ")).toStdString();
  entries.push_back(std::move(baseline));
  return entries;
}

}  // namespace dpstudio::ui

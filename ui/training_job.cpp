#include "ui/training_job.h"

#include "core/sources/source.h"

namespace dpstudio::ui {
namespace {

QString number(double value) { return QString::number(value, 'g', 4); }

}  // namespace

Result<TrainingOutcome> trainWithView(const std::shared_ptr<const Dataset>& dataset,
                                      const std::shared_ptr<const Dataset>& test, const QString& name,
                                      const TrainingSettings& settings, const ViewSpec& viewSpec,
                                      const std::shared_ptr<const TrainingResult>& reuse, const Progress& progress) {
  auto result = std::make_shared<TrainingResult>();
  result->source = dataset;
  result->testSource = test;
  result->datasetName = name;
  result->settings = settings;
  const experiment::PrivacyPlan plan = settings.plan();
  // Same data, same baseline: the prepared data (and a baseline trained as a baseline run
  // trains it) are taken over; only the mechanism runs again (Redraw noise, another ε, …).
  const bool sameData = plan.isPrivate() && reuse && reuse->source == dataset && reuse->testSource == test &&
                        sameBaseline(reuse->settings, settings);
  if (sameData) {
    result->data = reuse->data;
  } else {
    std::optional<Dataset> separateTest;
    if (test) separateTest = *test;
    auto prepared = prepareLoaded(*dataset, std::move(separateTest), settings.data);
    if (!prepared) return prepared.error();
    if (progress.cancelled()) return Error::cancelled();
    result->data = std::make_shared<const PreparedData>(std::move(prepared).value());
  }
  progress.report(0.03);

  auto noise = privacy::makeNoiseSource(settings.privacy.noise, settings.privacy.seed);
  if (!noise) return noise.error();
  experiment::FittedModel reusable;
  experiment::RunControl control;
  control.progress = experiment::progressSegment(progress, 0.03, 1.0);
  if (sameData && reuse->hasStandardBaseline()) {
    reusable = {reuse->model, reuse->trainAccuracy, reuse->testAccuracy, reuse->seconds};
    control.reuseBaseline = &reusable;
  }
  auto run = experiment::runPlan(plan, *result->data, *noise.value(), control);
  if (!run) return run.error();
  experiment::PlanRun& r = run.value();
  result->model = std::move(r.baseline.model);
  result->trainAccuracy = r.baseline.trainAccuracy;
  result->testAccuracy = r.baseline.testAccuracy;
  result->seconds = r.baseline.seconds;
  result->release = std::move(r.release);
  result->prediction = std::move(r.prediction);
  result->multiparty = std::move(r.multiparty);

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
  // As published: the ε that can be proven (multiparty) or that holds (the predictors), not
  // the claim; δ only where the noise law has one.
  entry.epsilon = report.chargedEpsilon();
  entry.delta = report.chargedDelta();
  entry.dataset = datasetIdentity(result.source->provenance.source);
  QStringList note;
  note << QObject::tr("calibration %1").arg(QString::fromStdString(report.calibrationWord()));
  note << QObject::tr("noise %1").arg(QString::fromStdString(report.noiseWord()));
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
  if (const auto& holds = report.epsilonThatHolds())
    note << QObject::tr("\u03b5 recorded: the provable %1, not the claimed %2").arg(number(holds->value), number(report.epsilon));
  if (!report.warning.empty() && report.calibration == mech::Calibration::Published)
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
  baseline.epsilon = report.chargedEpsilon();
  baseline.delta = report.chargedDelta();
  baseline.dataset = datasetIdentity(result.source->provenance.source);
  QStringList note;
  note << QObject::tr("a second release of the multiparty run (one party holding every training row)");
  note << QObject::tr("calibration %1").arg(QString::fromStdString(report.calibrationWord()));
  note << QObject::tr("noise %1").arg(QString::fromStdString(report.noiseWord()));
  note << QString::fromStdString(result.release->noise.describe());
  if (const auto& holds = report.epsilonThatHolds())
    note << QObject::tr("\u03b5 recorded: the provable %1, not the claimed %2").arg(number(holds->value), number(report.epsilon));
  baseline.note = note.join(QStringLiteral("; ")).toStdString();
  entries.push_back(std::move(baseline));
  return entries;
}

}  // namespace dpstudio::ui

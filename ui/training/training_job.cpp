#include "ui/training/training_job.h"

#include "core/experiment/release_entries.h"
#include "core/experiment/sgd_convergence.h"

#include "core/sources/source.h"

namespace dpstudio::ui {

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
    SplitAndPreprocess split = settings.data;
    split.preprocess.scaleToData = plan.scalesRowsToData();  // non-private LMGC (privacy_plan.h)
    auto prepared = prepareLoaded(*dataset, std::move(separateTest), split);
    if (!prepared) return prepared.error();
    if (progress.cancelled()) return Error::cancelled();
    result->data = std::make_shared<const PreparedData>(std::move(prepared).value());
  }
  progress.report(0.03);

  auto noise = privacy::makeNoiseSource(settings.privacy.noise, settings.privacy.seed);
  if (!noise) return noise.error();
  experiment::FittedModel reusable;
  experiment::RunControl control;
  // DP-SGD also runs its settings without noise afterwards: as long again.
  const bool diagnoseSgd = experiment::hasNoiseFreeSgdDiagnostic(plan) && result->data->test.rows() > 0;
  const double runEnd = diagnoseSgd ? 0.5 : 1.0;
  control.progress = experiment::progressSegment(progress, 0.03, runEnd);
  if (sameData && reuse->hasStandardBaseline()) {
    reusable = {reuse->model, reuse->trainAccuracy, reuse->testAccuracy, reuse->seconds};
    control.reuse.baseline = experiment::lentBaseline(reusable);
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
  if (diagnoseSgd) {
    result->noiseFreeSgdAccuracy = experiment::noiseFreeSgdAccuracy(
        plan, result->data->train, result->data->test, experiment::progressSegment(progress, runEnd, 1.0));
    if (progress.cancelled()) return Error::cancelled();
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
  // A non-private model is drawn at the contours holding half of each class (a statistic of the
  // data, as the model itself is); a private one, and the reference beside it, at one margin,
  // which the model alone fixes (model_view.h).
  // The non-private picture's ellipsoids are closed by a term common to every class, fitted to
  // the data (the same decisions, a bounded ellipsoid for every class: ellipsoid_closing.h); a
  // private model, and the reference beside it, are drawn as released and trained.
  const bool nonPrivate = !result.isPrivate();
  const EllipseLevelRule levels = nonPrivate ? EllipseLevelRule::HalfOfClass : EllipseLevelRule::OneMargin;
  auto geometry = makeModelViewGeometry(*result.data, spec, *shown.model, shown.theta, levels,
                                        nonPrivate ? EllipseClosing::Closed : EllipseClosing::AsTrained);
  if (!geometry) return geometry.error();
  ModelView view{spec, std::move(geometry).value(), {}};
  if (result.release && !view.geometry.ellipses.empty()) {
    auto reference = makeModelViewGeometry(*result.data, spec, *result.model.model, result.model.theta);
    if (!reference) return reference.error();
    view.referenceEllipses = std::move(reference.value().ellipses);
  }
  return view;
}

std::vector<privacy::LedgerEntry> ledgerEntriesFor(const TrainingResult& result) {
  // Core's entries, as the CLI records them: the ledger file is shared between the two.
  return experiment::releaseLedgerEntries(result.settings.plan(), result.release, result.multiparty,
                                          datasetIdentity(result.source->provenance.source));
}

}  // namespace dpstudio::ui

#include "core/experiment/release_entries.h"

#include "core/util/number_text.h"

namespace dpstudio::experiment {
namespace {

void appendPart(std::string& note, const std::string& part) {
  if (!note.empty()) note += "; ";
  note += part;
}

std::string calibrationNote(const mech::MechanismReport& report, const privacy::NoiseProvenance& noise) {
  std::string note = "calibration " + report.calibrationWord();
  appendPart(note, "noise " + report.noiseWord());
  appendPart(note, noise.describe());
  // The budget is charged all the same (the data were used), but the output is replayable.
  if (noise.kind == privacy::NoiseKind::Experiment)
    appendPart(note, "NOT private: experiment noise, replayable by whoever knows the seed");
  if (const auto& holds = report.epsilonThatHolds())
    appendPart(note, "epsilon recorded: the provable " + significantDigits(holds->value, 6) + ", not the claimed " +
                         significantDigits(report.epsilon, 6));
  return note;
}

}  // namespace

std::vector<privacy::LedgerEntry> releaseLedgerEntries(const PrivacyPlan& plan, const PlanRun& run,
                                                       const std::string& dataset) {
  return releaseLedgerEntries(plan, run.release, run.multiparty, dataset);
}

std::vector<privacy::LedgerEntry> releaseLedgerEntries(const PrivacyPlan& plan,
                                                       const std::optional<ModelRelease>& released,
                                                       const std::optional<MultipartyDiagnostics>& multiparty,
                                                       const std::string& dataset) {
  std::vector<privacy::LedgerEntry> entries;
  if (!released) return entries;
  const ModelRelease& release = *released;
  const mech::MechanismReport& report = release.report;
  const std::string model = modelLongName(plan.learner().kind);

  privacy::LedgerEntry entry;
  entry.mechanism = plan.title() + " (" + model + ")";
  entry.epsilon = report.chargedEpsilon();
  entry.delta = report.chargedDelta();
  entry.dataset = dataset;
  entry.note = calibrationNote(report, release.noise);
  if (multiparty) {
    std::string sizes;
    for (Index size : multiparty->partySizes) sizes += (sizes.empty() ? "" : "/") + std::to_string(size);
    appendPart(entry.note, "K = " + std::to_string(multiparty->partySizes.size()) + " parties of " + sizes +
                               " rows");
  }
  if (plan.isSelection())
    appendPart(entry.note, report.find(mech::Calibrated::SelectionRuns)
                               ? "private selection: released " + report.mechanism + " after " +
                                     significantDigits(*report.find(mech::Calibrated::SelectionRuns), 6) + " runs among " +
                                     significantDigits(report.find(mech::Calibrated::Candidates).value_or(0), 6) + " candidates"
                               : "auto: " + report.mechanism + ", the public rule's choice");
  if (const auto lambda = report.find(mech::Calibrated::ChosenLambda))
    appendPart(entry.note, "chosen lambda = " + significantDigits(*lambda, 6));
  else appendPart(entry.note, "lambda = " + significantDigits(plan.learner().lambda, 6));
  if (!report.warning.empty() && report.calibration == mech::Calibration::Published)
    appendPart(entry.note, "as published: NOT differentially private as stated");
  entries.push_back(entry);

  if (multiparty && multiparty->allDataPrivate) {
    const mech::MechanismReport& baseline = multiparty->allDataPrivate->report;
    privacy::LedgerEntry second;
    second.mechanism = "Multiparty all-data DP baseline (" + model + ")";
    second.epsilon = baseline.chargedEpsilon();
    second.delta = baseline.chargedDelta();
    second.dataset = dataset;
    second.note = "a second release of the multiparty run (one party holding every training row); " +
                  calibrationNote(baseline, release.noise);
    entries.push_back(second);
  }
  return entries;
}

}  // namespace dpstudio::experiment

#include "core/experiment/release_entries.h"

#include <sstream>

namespace dpstudio::experiment {
namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(6);
  out << value;
  return out.str();
}

void appendPart(std::string& note, const std::string& part) {
  if (!note.empty()) note += "; ";
  note += part;
}

// The ε that holds: as published, multiparty's provable ε rather than its claim.
double epsilonThatHolds(const mech::MechanismReport& report) {
  return report.value("epsilon_provable").value_or(report.epsilon);
}

std::string calibrationNote(const mech::MechanismReport& report, const privacy::NoiseProvenance& noise) {
  std::string note = "calibration " + report.calibration;
  appendPart(note, "noise " + report.noise);
  appendPart(note, noise.describe());
  if (const auto provable = report.value("epsilon_provable"))
    appendPart(note, "epsilon recorded: the provable " + number(*provable) + ", not the claimed " +
                         number(report.epsilon));
  return note;
}

}  // namespace

std::vector<privacy::LedgerEntry> releaseLedgerEntries(const PrivacyPlan& plan, const PlanRun& run,
                                                       const std::string& dataset) {
  std::vector<privacy::LedgerEntry> entries;
  if (!run.release) return entries;
  const ModelRelease& release = *run.release;
  const mech::MechanismReport& report = release.report;
  const std::string model = modelLongName(plan.learner().kind);

  privacy::LedgerEntry entry;
  entry.mechanism = plan.title() + " (" + model + ")";
  entry.epsilon = epsilonThatHolds(report);
  entry.delta = report.delta;
  entry.dataset = dataset;
  entry.note = calibrationNote(report, release.noise);
  if (run.multiparty) {
    std::string sizes;
    for (Index size : run.multiparty->partySizes) sizes += (sizes.empty() ? "" : "/") + std::to_string(size);
    appendPart(entry.note, "K = " + std::to_string(run.multiparty->partySizes.size()) + " parties of " + sizes +
                               " rows");
  }
  if (const auto lambda = report.value("chosen_lambda")) appendPart(entry.note, "chosen lambda = " + number(*lambda));
  else appendPart(entry.note, "lambda = " + number(plan.learner().lambda));
  if (!report.warning.empty() && report.calibration == "published")
    appendPart(entry.note, "as published: NOT differentially private as stated");
  entries.push_back(entry);

  if (run.multiparty && run.multiparty->allDataPrivate) {
    const mech::MechanismReport& baseline = run.multiparty->allDataPrivate->report;
    privacy::LedgerEntry second;
    second.mechanism = "Multiparty all-data DP baseline (" + model + ")";
    second.epsilon = epsilonThatHolds(baseline);
    second.delta = baseline.delta;
    second.dataset = dataset;
    second.note = "a second release of the multiparty run (one party holding every training row); " +
                  calibrationNote(baseline, release.noise);
    entries.push_back(second);
  }
  return entries;
}

}  // namespace dpstudio::experiment

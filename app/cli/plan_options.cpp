#include "app/cli/plan_options.h"

#include "app/cli/mechanism_options.h"
#include "app/cli/private_prediction_options.h"
#include "core/experiment/mechanism_catalog.h"
#include "core/experiment/mechanism_item.h"
#include "core/experiment/plan_choice.h"

namespace dpstudio::cli {
namespace {

Error usage(const std::string& message) { return Error{ErrorKind::Usage, message, {}, 0, "mechanisms"}; }

}  // namespace

Result<experiment::PrivacyPlan> privacyPlan(const Command& command, const QString& item, PlanOptions read) {
  const bool full = read == PlanOptions::WithSolverAndTuning;
  auto parsed = experiment::parseMechanismItem(item.toStdString());
  if (!parsed) return parsed.error();
  const QString name = QString::fromStdString(parsed.value().name);
  const std::optional<mech::Calibration> calibration = parsed.value().calibration;
  const std::optional<mech::NoiseFamily> family = parsed.value().family;
  const std::optional<Index> parties = parsed.value().parties;
  const std::vector<double>& split = parsed.value().split;
  auto solverOf = [&]() -> Result<experiment::SolverSettings> {
    experiment::SolverSettings solver;
    if (!full) return solver;
    auto tolerance = command.number("tolerance", solver.tolerance);
    if (!tolerance) return tolerance.error();
    auto iterations = command.integer("max-iterations", solver.maxIterations, 1);
    if (!iterations) return iterations.error();
    solver.tolerance = tolerance.value();
    solver.maxIterations = static_cast<int>(iterations.value());
    return solver;
  };
  auto solver = solverOf();
  if (!solver) return solver.error();

  // Only the chosen kind's options are read (another kind's may not even parse: a
  // predictor's --budget is refused for a training mechanism).
  const experiment::MechanismEntry* entry = experiment::findMechanism(name.toStdString());
  experiment::PlanChoice choice;
  choice.mechanism = name.toStdString();
  choice.family = family;
  choice.calibration = calibration;
  choice.solver = solver.value();
  if (entry && entry->plan == experiment::PlanKind::Multiparty) {
    auto options = multipartyOptions(command);
    if (!options) return options.error();
    choice.multiparty = options.value();
    if (parties) {
      choice.multiparty.parties = *parties;
      choice.multiparty.fractions.clear();
    }
    if (!split.empty()) choice.multiparty.fractions = split;
    choice.learner = LearnerSpec{options.value().model, options.value().lambda, options.value().huber};
    choice.epsilon = options.value().epsilon;
  } else if (entry && entry->plan == experiment::PlanKind::Prediction) {
    auto options = predictionOptions(command, name);
    if (!options) return options.error();
    choice.prediction = options.value();
    choice.learner = options.value().learner;
    choice.epsilon = options.value().epsilon;
    choice.delta = options.value().delta;
  } else {
    auto options = mechanismOptions(command, name);
    if (!options) return options.error();
    choice.training = options.value();
    choice.learner = options.value().learner;
    choice.epsilon = options.value().epsilon;
    choice.delta = options.value().delta;
    if (full) {
      mech::MechanismOptions tuned = options.value();
      if (family) tuned.family = *family;
      if (calibration) tuned.calibration = *calibration;
      const bool selects = entry && entry->selectsMechanism;
      auto lambdas = tuneLambdas(command, tuned, selects);
      if (!lambdas) return lambdas.error();
      choice.tuneLambdas = std::move(lambdas).value();
      auto selection = selectionSettings(command);
      if (!selection) return selection.error();
      choice.selection = selection.value();
      for (const char* option : {"tune", "selection-runs", "selection-law"})
        if (!selects && command.parser().isSet(option))
          return Error{ErrorKind::Usage, std::string("--") + option + " goes with --mechanism auto", {}, 0, option};
    }
  }
  auto plan = experiment::buildPlan(choice);
  if (!plan) {
    Error error = plan.error();
    if (error.field == "distribution" && entry && entry->plan == experiment::PlanKind::Multiparty)
      return usage("'" + item.toStdString() + "': multiparty has one noise family");
    error.message = "'" + item.toStdString() + "': " + error.message;
    return error;
  }
  return plan;
}

}  // namespace dpstudio::cli

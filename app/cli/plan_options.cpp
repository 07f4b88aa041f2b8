#include "app/cli/plan_options.h"

#include "app/cli/mechanism_options.h"
#include "app/cli/private_prediction_options.h"
#include "core/experiment/mechanism_item.h"

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

  experiment::PrivacyPlan plan;
  if (name == "multiparty") {
    auto options = multipartyOptions(command);
    if (!options) return options.error();
    if (calibration) options.value().calibration = *calibration;
    if (family) return usage("'" + item.toStdString() + "': multiparty has one noise family");
    if (parties) {
      options.value().parties = *parties;
      options.value().fractions.clear();
    }
    if (!split.empty()) options.value().fractions = split;
    plan = experiment::PrivacyPlan::multiparty(options.value());
  } else if (predict::parsePredictionKind(name.toStdString())) {
    auto options = predictionOptions(command, name);
    if (!options) return options.error();
    if (calibration) options.value().calibration = *calibration;
    if (family) options.value().family = *family;
    plan = experiment::PrivacyPlan::prediction(options.value());
  } else {
    auto options = mechanismOptions(command, name);
    if (!options) return options.error();
    if (calibration) options.value().calibration = *calibration;
    if (family) options.value().family = *family;
    std::vector<double> candidates;
    if (full) {
      auto lambdas = tuneLambdas(command, options.value());
      if (!lambdas) return lambdas.error();
      candidates = std::move(lambdas).value();
    }
    plan = experiment::PrivacyPlan::training(options.value(), candidates);
  }
  plan.solver = solver.value();
  if (auto status = plan.validate(); !status) {
    Error error = status.error();
    error.message = "'" + item.toStdString() + "': " + error.message;
    return error;
  }
  return plan;
}

}  // namespace dpstudio::cli

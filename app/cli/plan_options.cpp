#include "app/cli/plan_options.h"

#include "app/cli/mechanism_options.h"
#include "app/cli/private_prediction_options.h"

namespace dpstudio::cli {
namespace {

Error usage(const std::string& message) { return Error{ErrorKind::Usage, message, {}, 0, "mechanisms"}; }

}  // namespace

Result<experiment::PrivacyPlan> privacyPlan(const Command& command, const QString& item, PlanOptions read) {
  const bool full = read == PlanOptions::WithSolverAndTuning;
  QStringList parts = item.split(':');
  const QString name = parts.takeFirst().trimmed();
  std::optional<mech::Calibration> calibration;
  std::optional<mech::NoiseFamily> family;
  std::optional<Index> parties;
  std::vector<double> split;
  for (const QString& part : parts) {
    if (part.startsWith("parties=") || part.startsWith("split=")) {
      if (name != "multiparty")
        return usage("'" + item.toStdString() + "': parties= and split= apply to multiparty only");
      bool ok = false;
      if (part.startsWith("parties=")) {
        parties = part.mid(8).toLongLong(&ok);
        if (!ok) return usage("'" + item.toStdString() + "': parties=K needs an integer");
      } else {
        for (const QString& f : part.mid(6).split('/')) {
          split.push_back(f.toDouble(&ok));
          if (!ok) return usage("'" + item.toStdString() + "': split= needs fractions like 0.2/0.3/0.5");
        }
      }
      continue;
    }
    if (auto c = mech::parseCalibration(part.toStdString())) calibration = *c;
    else if (auto f = mech::parseNoiseFamily(part.toStdString())) family = *f;
    else
      return usage("'" + item.toStdString() + "': unknown modifier '" + part.toStdString() +
                   "' (use corrected, published, l2-laplace, gaussian, parties=K or split=f1/f2/..)");
  }
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

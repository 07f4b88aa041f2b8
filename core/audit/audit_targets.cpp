#include "core/audit/audit_targets.h"

#include <memory>

#include "core/audit/perturbed_likelihood.h"
#include "core/audit/statistic.h"
#include "core/prediction/multiparty.h"
#include "core/prediction/private_predictor.h"
#include "core/prediction/subsample_aggregate.h"

namespace dpstudio::audit::detail {
namespace {

// Every run trains quietly: no progress callback, no stop token of its own (the audit loop
// checks cancellation between runs).
TrainControl runControl(std::optional<Eigen::VectorXd> warmStart) {
  TrainControl control;
  control.warmStart = std::move(warmStart);
  return control;
}

}  // namespace

Result<PreparedAudit> prepareTraining(const AuditOptions& options, const AuditProblem& problem) {
  mech::MechanismOptions o = options.training;
  auto report = mech::calibrate(o, {problem.D.rows(), problem.D.features(), problem.D.classes()});
  if (!report) return report.error();
  // DP-SGD calibrates σ by a search over the RDP accountant: do it once, not once per run
  // (the runs then draw exactly the noise the calibration asked for).
  if (o.kind == mech::MechanismKind::DpSgd && !o.sgd.noiseMultiplier)
    o.sgd.noiseMultiplier = report.value().find(mech::Calibrated::NoiseMultiplier);
  auto onD = trainModel(o.learner, problem.D.X, problem.D.y, problem.D.classes());
  auto onDprime = trainModel(o.learner, problem.Dprime.X, problem.Dprime.y, problem.Dprime.classes());
  if (!onD) return onD.error();
  if (!onDprime) return onDprime.error();
  // Output perturbation releases θ* + b: the likelihood ratio of b's law is computable.
  // Loss perturbation without a constraint releases the minimizer of a perturbed objective
  // whose noise is a bijective function of the output: its exact likelihood ratio
  // (perturbed_likelihood.h), where affordable. Objective perturbation (its Δ term and
  // ε'-dependent noise), DP-LMGC (the PSD cone) and DP-SGD: projection.
  const bool outputPlusNoise = o.kind == mech::MechanismKind::Output && o.learner.kind != ModelKind::Lmgc;
  const bool perturbedMinimizer =
      o.kind == mech::MechanismKind::Loss && o.learner.kind != ModelKind::Lmgc &&
      exactLikelihoodAffordable(problem.D.rows(), report.value().noiseDimension);
  Result<Statistic> statistic = Error{};
  if (outputPlusNoise) {
    statistic = likelihoodStatistic(onD.value().theta, onDprime.value().theta, report.value().noise,
                                    report.value().noiseDimension, "parameters");
  } else if (perturbedMinimizer) {
    auto model = makeModel(o.learner, problem.D.features(), problem.D.classes());
    if (!model) return model.error();
    const double quadratic = static_cast<double>(problem.D.rows()) * o.learner.lambda + report.value().calibrated(mech::Calibrated::Rho);
    statistic = perturbedMinimizerStatistic(model.value(), problem, quadratic, report.value().noise,
                                            report.value().noiseScale());
  } else {
    statistic = projectionStatistic(onD.value().theta, onDprime.value().theta, "parameters");
  }
  if (!statistic) return statistic.error();

  auto makeRun = [o, v = statistic.value().of](std::shared_ptr<const Dataset> data, Eigen::VectorXd start) -> Run {
    return [o, v, data, start](privacy::NoiseSource& noise) -> Result<double> {
      // Mechanisms whose output could depend on the start ignore the warm start; for output
      // perturbation (exact minimizer) it only saves the optimization.
      auto released = mech::trainPrivately(o, *data, noise, runControl(start));
      if (!released) return released.error();
      return v(released.value().trained.theta);
    };
  };
  PreparedAudit prepared;
  prepared.onD = makeRun(std::make_shared<const Dataset>(problem.D), onD.value().theta);
  prepared.onDprime = makeRun(std::make_shared<const Dataset>(problem.Dprime), onDprime.value().theta);
  prepared.statistic = statistic.value().description;
  prepared.epsilon = report.value().epsilon;
  prepared.delta = report.value().chargedDelta();
  prepared.calibration = report.value().calibration;
  prepared.warning = report.value().warning;
  return prepared;
}

Result<PreparedAudit> preparePrediction(const AuditOptions& options, const AuditProblem& problem) {
  const predict::PredictionOptions& o = options.prediction;
  const long long B = o.budget;
  const Eigen::MatrixXd queries = problem.query.transpose().replicate(B, 1);
  PreparedAudit prepared;
  if (o.kind == predict::PredictionKind::Sensitivity) {
    auto onD = predict::PrivatePredictor::train(o, problem.D);
    auto onDprime = predict::PrivatePredictor::train(o, problem.Dprime);
    if (!onD) return onD.error();
    if (!onDprime) return onDprime.error();
    const mech::MechanismReport& calibration = onD.value().report();
    auto statistic = likelihoodStatistic(onD.value().noiseFreeScores(problem.query),
                                         onDprime.value().noiseFreeScores(problem.query), calibration.noise,
                                         calibration.noiseDimension, "scores at the query");
    if (!statistic) return statistic.error();
    auto makeRun = [queries, u = statistic.value().of](predict::PrivatePredictor trained) -> Run {
      return [queries, u, trained](privacy::NoiseSource& noise) -> Result<double> {
        predict::PrivatePredictor fresh = trained.freshRepetition();  // each run: the whole budget
        auto answers = fresh.answerRows(queries, noise);
        if (!answers) return answers.error();
        double sum = 0;
        for (const auto& answer : answers.value()) sum += u(answer.scores);  // independent answers: LRs add
        return sum;
      };
    };
    prepared.onD = makeRun(onD.value());
    prepared.onDprime = makeRun(onDprime.value());
    prepared.statistic = "summed over the " + std::to_string(B) + " answers to the query: " +
                         statistic.value().description;
    const mech::MechanismReport& report = onD.value().report();
    prepared.epsilon = report.epsilon;
    prepared.delta = report.chargedDelta();
    prepared.calibration = report.calibration;
    prepared.warning = report.warning;
    return prepared;
  }
  auto onD = predict::SubsampleAggregate::train(o, problem.D);
  auto onDprime = predict::SubsampleAggregate::train(o, problem.Dprime);
  if (!onD) return onD.error();
  if (!onDprime) return onDprime.error();
  const Eigen::MatrixXi votesD = onD.value().teachers().votes(problem.query.transpose());
  const Eigen::MatrixXi votesDprime = onDprime.value().teachers().votes(problem.query.transpose());
  const Eigen::RowVectorXi change = votesDprime.row(0) - votesD.row(0);
  if (change.isZero())
    return Error{ErrorKind::BadData,
                 "the canary changes no teacher's vote on the query: the audit would see nothing", {}, 0, "canary"};
  Index target = 0;
  change.maxCoeff(&target);
  auto makeRun = [queries, target](predict::SubsampleAggregate trained) -> Run {
    return [queries, target, trained](privacy::NoiseSource& noise) -> Result<double> {
      predict::SubsampleAggregate fresh = trained.freshRepetition();
      auto answers = fresh.answerRows(queries, noise);
      if (!answers) return answers.error();
      double count = 0;
      for (const auto& answer : answers.value()) count += answer.label == target ? 1.0 : 0.0;
      return count;
    };
  };
  prepared.onD = makeRun(onD.value());
  prepared.onDprime = makeRun(onDprime.value());
  prepared.statistic = "how many of the " + std::to_string(B) + " answers to the query are label " +
                       std::to_string(target) + " (votes on D " + std::to_string(votesD(0, target)) + ", on D' " +
                       std::to_string(votesDprime(0, target)) + ")";
  const mech::MechanismReport& report = onD.value().report();
  prepared.epsilon = report.epsilon;
  prepared.delta = report.chargedDelta();
  prepared.calibration = report.calibration;
  prepared.warning = report.warning;
  return prepared;
}

Result<PreparedAudit> prepareMultiparty(const AuditOptions& options, const AuditProblem& problem) {
  const multiparty::MultipartyOptions& o = options.multiparty;
  auto parties = multiparty::partyRows(problem.D.rows(), o);
  if (!parties) return parties.error();
  auto onD = multiparty::trainLocalModels(o, problem.D, parties.value());
  auto onDprime = multiparty::trainLocalModels(o, problem.Dprime, parties.value());
  if (!onD) return onD.error();
  if (!onDprime) return onDprime.error();
  auto calibration = multiparty::calibrateMultiparty(o, [&] {
    Index smallest = problem.D.rows();
    for (const auto& rows : parties.value()) smallest = std::min(smallest, static_cast<Index>(rows.size()));
    return smallest;
  }(), problem.D.features());
  if (!calibration) return calibration.error();
  auto statistic = likelihoodStatistic(multiparty::plainAverage(onD.value()), multiparty::plainAverage(onDprime.value()),
                                       calibration.value().noise, calibration.value().noiseDimension,
                                       "average of the local models");
  if (!statistic) return statistic.error();
  auto makeRun = [o, v = statistic.value().of](std::vector<multiparty::LocalModel> locals) -> Run {
    return [o, v, locals](privacy::NoiseSource& noise) -> Result<double> {
      auto released = multiparty::aggregate(locals, o, multiparty::TrustedCurator{}, noise);
      if (!released) return released.error();
      return v(released.value().released);
    };
  };
  PreparedAudit prepared;
  prepared.onD = makeRun(std::move(onD).value());
  prepared.onDprime = makeRun(std::move(onDprime).value());
  prepared.statistic = statistic.value().description;
  prepared.epsilon = o.epsilon;
  prepared.delta = 0.0;
  prepared.calibration = calibration.value().calibration;
  prepared.warning = calibration.value().warning;
  return prepared;
}

}  // namespace dpstudio::audit::detail

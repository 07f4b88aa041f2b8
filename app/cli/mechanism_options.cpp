#include "app/cli/mechanism_options.h"

#include <algorithm>

#include "core/experiment/mechanism_catalog.h"
#include "core/mechanisms/sgd_step.h"
#include "core/mechanisms/tuning.h"

namespace dpstudio::cli {

void addMechanismOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"model", "Model: logreg, huber (the Huber-hinge SVM; also huber-svm or svm), softmax or lmgc.", "M"},
      {"mechanism", QString::fromStdString(experiment::mechanismKeyList() + " (default none)."), "X", "none"},
      {"epsilon", "Total privacy budget epsilon (default 1).", "E"},
      {"delta", "Total delta (default 0; Gaussian noise and DP-SGD need delta > 0).", "D"},
      {"lambda",
       "Regularization strength. Linear models: J = (1/n) sum loss + (lambda/2)||theta||^2 (default 1e-4; "
       "scikit-learn's C is 1/(n lambda)). LMGC: lambda (sum tr Psi_c + ||Phi||_F^2 / 2) on the sum scale "
       "(default 1e-2). Multiparty: paper 004's (1/n_j) sum loss + lambda ||w||^2 (default 1e-4).",
       "L"},
      {"huber", "Huber hinge width h for huber and lmgc (default 0.5).", "H"},
      {"components", "LMGC: Gaussians per class, a mixture (default 1; non-private: centres by k-means on each "
                     "class, private: data-independent centres).", "M"},
      {"lambda2", "Output perturbation of LMGC: strong-convexity weight (default 0.01).", "L2"},
      {"distribution", "Noise family where a mechanism offers both: l2-laplace or gaussian.", "F", "l2-laplace"},
      {"calibration", "corrected (default) or published (dplmgc: the paper's formula, NOT private).", "MODE",
       "corrected"},
      {"batch-size", "DP-SGD: expected batch size (default 256).", "B"},
      {"clip-norm", "DP-SGD: per-example gradient clip norm; without --learning-rate at most K*sqrt(m), m the "
                    "rows' mean squared norm estimated privately (default 1).", "NU"},
      {"epochs", "DP-SGD: epochs; steps T = epochs*n/B (default 20).", "N"},
      {"learning-rate", "DP-SGD: step size (default 1/(L*m + lambda), L the loss's curvature bound on the unit ball, "
                        "1/2 for softmax, and m the rows' mean squared norm estimated privately).", "ETA"},
      {"step-estimate-share", "DP-SGD without --learning-rate: the share of epsilon spent estimating the rows' "
                              "mean squared norm, which sets the step and the clip norm (default 0.05; 0: the "
                              "unit ball's step 1/(L + lambda), nothing spent).", "S"},
      {"averaged-tail", "DP-SGD: the release is the mean of the iterates of this last share of the steps "
                        "(default 0.25; 0: the last iterate).", "S"},
      {"momentum", "DP-SGD: heavy-ball momentum beta in [0, 1) (default 0; 0.9 with --noise-multiplier 0 and the "
                   "schedule from the problem, where no noise is moved along).", "BETA"},
      {"noise-multiplier", "DP-SGD: sigma; default: calibrated for (epsilon, delta).", "SIGMA"},
  });
}

void addNoiseOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"noise",
       "Randomness: release (the OS CSPRNG; the default, since this command's output is a release) or "
       "experiment (seeded and replayable: anyone who knows the seed can subtract the noise, so the output is "
       "marked NOT private).",
       "SRC", "release"},
      {"seed", "Seed of --noise experiment (default 1); refused without it.", "S"},
  });
}

Result<mech::MechanismOptions> mechanismOptions(const Command& command) {
  return mechanismOptions(command, command.parser().value("mechanism"));
}

Result<mech::MechanismOptions> mechanismOptions(const Command& command, const QString& mechanismName) {
  const auto& parser = command.parser();
  mech::MechanismOptions o;
  const auto kind = parseModelKind(parser.value("model").toStdString());
  if (!kind) return Error{ErrorKind::Usage, "choose --model logreg, huber, softmax or lmgc", {}, 0, "model"};
  o.learner.kind = *kind;
  o.learner.lambda = defaultLambda(*kind);
  // Private selection chooses the kind itself (PrivacyPlan::selection); its options are the shared ones.
  const experiment::MechanismEntry* entry = experiment::findMechanism(mechanismName.toStdString());
  const bool selects = entry && entry->selectsMechanism;
  const auto mechanism =
      selects ? std::optional(mech::MechanismKind::None) : experiment::trainingMechanism(mechanismName.toStdString());
  if (!mechanism)
    return Error{ErrorKind::Usage, "unknown mechanism '" + mechanismName.toStdString() + "' (" +
                                       experiment::mechanismKeyList({experiment::PlanKind::NonPrivate,
                                                                     experiment::PlanKind::Training}) + ")",
                 {}, 0, "mechanism"};
  o.kind = *mechanism;
  const auto family = mech::parseNoiseFamily(parser.value("distribution").toStdString());
  if (!family) return Error{ErrorKind::Usage, "use l2-laplace or gaussian", {}, 0, "distribution"};
  o.family = *family;
  const auto calibration = mech::parseCalibration(parser.value("calibration").toStdString());
  if (!calibration) return Error{ErrorKind::Usage, "use corrected or published", {}, 0, "calibration"};
  o.calibration = *calibration;

  struct NumberOption {
    const char* name;
    double* target;
  };
  double batch = static_cast<double>(o.sgd.batchSize);
  for (const NumberOption& option : {NumberOption{"epsilon", &o.epsilon}, {"delta", &o.delta},
                                     {"lambda", &o.learner.lambda}, {"huber", &o.learner.huber},
                                     {"lambda2", &o.lmgcStrongConvexity}, {"batch-size", &batch},
                                     {"clip-norm", &o.sgd.clipNorm}, {"epochs", &o.sgd.epochs},
                                     {"step-estimate-share", &o.sgd.stepEstimateShare},
                                     {"averaged-tail", &o.sgd.averagedTail}}) {
    auto value = command.number(option.name, *option.target);
    if (!value) return value.error();
    *option.target = value.value();
  }
  o.sgd.batchSize = static_cast<Index>(batch);
  // None of the schedule given: DP-SGD's schedule from the problem (algorithms.md §3 E).
  o.sgd.scheduleFromProblem = mech::takesScheduleFromProblem(
      o.learner.kind, parser.isSet("batch-size") || parser.isSet("epochs") || parser.isSet("averaged-tail") ||
                          parser.isSet("learning-rate"));
  // The upper bound is LearnerSpec::validate's (kMaxComponents), with the rest of the learner.
  auto components = command.integer("components", 1, 1);
  if (!components) return components.error();
  o.learner.components = static_cast<int>(std::min<long long>(components.value(), LearnerSpec::kMaxComponents + 1));
  if (parser.isSet("learning-rate")) {
    auto eta = command.number("learning-rate", 0);
    if (!eta) return eta.error();
    o.sgd.learningRate = eta.value();
  }
  if (parser.isSet("momentum")) {
    auto beta = command.number("momentum", 0);
    if (!beta) return beta.error();
    o.sgd.momentum = beta.value();
  }
  if (parser.isSet("noise-multiplier")) {
    auto sigma = command.number("noise-multiplier", 0);
    if (!sigma) return sigma.error();
    o.sgd.noiseMultiplier = sigma.value();
  }
  if (selects) {
    if (parser.isSet("lambda"))
      return Error{ErrorKind::Usage, "auto chooses lambda itself among its candidates: give them with --tune-lambdas",
                   {}, 0, "lambda"};
    if (parser.isSet("distribution"))
      return Error{ErrorKind::Usage, "auto chooses each candidate's noise family itself", {}, 0, "distribution"};
    return o;
  }
  if (auto status = o.validate(); !status) return status.error();
  return o;
}

void addTuningOption(QCommandLineParser& parser) {
  parser.addOptions({
      {"tune-lambdas",
       "Choose lambda privately among these candidates (comma-separated). With a mechanism: Chaudhuri et al. "
       "Alg. 3, the data split into m+1 parts, one model per candidate, one released. With --mechanism auto: "
       "the lambda grid of every candidate mechanism (default: each mechanism's own).",
       "L1,L2,.."},
      {"tune", "--mechanism auto: choose privately among every mechanism that fits the model, each with a few "
               "lambda (costs part of epsilon; default: the public rule's one mechanism at the whole epsilon)."},
      {"selection-runs", "--mechanism auto: the mean number of training runs (default twice the candidates, at "
                         "least 10).", "N"},
      {"selection-law", "--mechanism auto: the law of the number of runs, geometric (default) or logarithmic "
                        "(cheaper in epsilon, more often a single run).", "LAW"},
  });
}

Result<mech::SelectionSettings> selectionSettings(const Command& command) {
  mech::SelectionSettings settings;
  settings.tune = command.parser().isSet("tune");
  auto runs = command.number("selection-runs", 0);
  if (!runs) return runs.error();
  settings.meanRuns = runs.value();
  const QString law = command.parser().value("selection-law");
  if (law == "logarithmic") settings.law = mech::RunLaw::Logarithmic;
  else if (!law.isEmpty() && law != "geometric")
    return Error{ErrorKind::Usage, "use geometric or logarithmic", {}, 0, "selection-law"};
  return settings;
}

Result<std::vector<double>> tuneLambdas(const Command& command, const mech::MechanismOptions& base, bool forSelection) {
  std::vector<double> lambdas;
  if (!command.parser().isSet("tune-lambdas")) return lambdas;
  const QString text = command.parser().value("tune-lambdas");
  for (const QString& item : text.split(',')) {
    bool ok = false;
    const double value = item.trimmed().toDouble(&ok);
    if (!ok)
      return Error{ErrorKind::Usage, "must be a comma-separated list of numbers, found '" + text.toStdString() + "'",
                   {}, 0, "tune-lambdas"};
    lambdas.push_back(value);
  }
  if (forSelection) return lambdas;  // private selection checks its grid itself (SelectionOptions::validate)
  if (auto status = mech::TuningOptions{base, lambdas}.validate(); !status) return status.error();
  return lambdas;
}

Result<NoiseChoice> noiseChoice(const Command& command) {
  NoiseChoice choice;
  const auto kind = privacy::parseNoiseKind(command.parser().value("noise").toStdString());
  if (!kind) return Error{ErrorKind::Usage, "use experiment or release", {}, 0, "noise"};
  choice.kind = *kind;
  // A seed is meaningless for the CSPRNG; accepting it silently would let a user believe a
  // seeded, replayable run was made, or that a release can be replayed.
  if (choice.kind == privacy::NoiseKind::Release && command.parser().isSet("seed"))
    return Error{ErrorKind::Usage,
                 "--seed seeds experiment noise only: add --noise experiment for a replayable run (its output is "
                 "NOT private), or drop --seed for a release",
                 {}, 0, "seed"};
  auto seed = command.integer("seed", 1, 0);
  if (!seed) return seed.error();
  choice.seed = static_cast<std::uint64_t>(seed.value());
  return choice;
}

void printMechanismReport(const mech::MechanismReport& report, const QString& noiseSymbol) {
  printText(QString("mechanism       %1 (%2 calibration), noise %3")
                .arg(QString::fromStdString(report.mechanism), QString::fromStdString(report.calibrationWord()),
                     QString::fromStdString(report.noiseWord())));
  if (!report.noiseSource.empty()) printText("noise source    " + QString::fromStdString(report.noiseSource));
  for (const auto& d : report.rows())
    printText(QString("  %1 = %2   [%3]").arg(QString::fromStdString(d.key), -20).arg(d.value, 0, 'g', 8)
                  .arg(QString::fromStdString(d.formula)));
  for (double norm : report.noiseNorms)
    printText(QString("noise drawn     ||%1|| = %2  (NOT private: a diagnostic, not part of the release)")
                  .arg(noiseSymbol)
                  .arg(norm, 0, 'g', 6));
  if (!report.converged())
    printText("NOT CONVERGED   the optimizer stopped with " +
              QString::fromStdString(terminationName(*report.termination)) +
              ": the release is an approximate minimizer, which the privacy proof does not cover");
  if (!report.warning.empty()) printText("WARNING         " + QString::fromStdString(report.warning));
}

}  // namespace dpstudio::cli

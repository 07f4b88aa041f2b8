// `audit --mechanism X ... --trials N`: the empirical privacy audit (docs/algorithms.md §3 J). On a
// built-in small problem by default, or on --train DATA (its training part is D; the canary
// is searched among its test part's points too, and for prediction the query; an
// experiment, never a release: nothing goes to a ledger). JSON keys:
// mechanism, epsilon, delta, epsilon_lower, violation, trials (docs/cli.md), plus calibration,
// confidence, epsilon_lower_uncorrected, detectable_epsilon, statistic, problem, decision,
// curve, seconds, warning. Exit code 6 (kAuditViolation) when the audit finds a violation,
// after printing the result as usual, so that scripts and CI can act on it; 0 when it finds
// none. Every verdict states the audit's power: the largest ε_lower its trials can certify
// (core/audit/rates.h, detectableEpsilon).


#include "app/cli/cli_common.h"
#include "app/cli/progress_line.h"
#include "app/cli/mechanism_options.h"
#include "app/cli/plan_options.h"
#include "core/experiment/audit_plan.h"
#include "app/cli/private_prediction_options.h"
#include "core/audit/audit_json.h"
#include "core/audit/audit_problem.h"
#include "core/util/parallel.h"

namespace dpstudio::cli {
namespace {

Result<audit::AuditOptions> auditOptions(const Command& command) {
  // The audit runs each mechanism with its own fixed solver settings and one λ.
  auto plan = privacyPlan(command, command.parser().value("mechanism"), PlanOptions::MechanismOnly);
  if (!plan) return plan.error();
  auto trials = command.integer("trials", audit::AuditOptions{}.trials, 1);
  auto seed = command.integer("seed", 1, 0);
  if (!trials) return trials.error();
  if (!seed) return seed.error();
  return experiment::auditOptionsFor(plan.value(), trials.value(), static_cast<std::uint64_t>(seed.value()));
}

void printResult(const audit::AuditResult& r) {
  printText(QString("mechanism       %1 (%2 calibration)")
                .arg(QString::fromStdString(r.mechanism), QString::fromStdString(mech::calibrationWord(r.calibration))));
  printText("problem         " + QString::fromStdString(r.problem));
  printText("statistic       " + QString::fromStdString(r.statistic));
  printText(QString("trials          %1 on D and %1 on D' (half select the test, half certify it)").arg(r.trials));
  const auto& c = r.certificate;
  printText(QString("test            guess D' when s %1 %2: held-out FPR %3 (<= %4), FNR %5 (<= %6)")
                .arg(c.decision.above ? ">" : "<").arg(c.decision.threshold, 0, 'g', 6)
                .arg(c.heldOut.fpr, 0, 'g', 4).arg(c.heldOut.fprUpper, 0, 'g', 4)
                .arg(c.heldOut.fnr, 0, 'g', 4).arg(c.heldOut.fnrUpper, 0, 'g', 4));
  printText(QString("claimed         epsilon %1, delta %2").arg(r.epsilon).arg(r.delta));
  printText(QString("epsilon_lower   %1 (95% confidence, Clopper-Pearson)").arg(r.epsilonLower, 0, 'f', 4));
  printText(QString("verdict         %1").arg(r.violation ? "VIOLATION: the claimed epsilon does not hold"
                                                          : "no violation found (a lower bound, not a proof)"));
  const QString most = QString::number(r.detectableEpsilon, 'f', 4);
  if (r.violation)
    printText(QString("power           with %1 trials the audit certifies at most epsilon_lower %2").arg(r.trials).arg(most));
  else if (r.epsilon >= r.detectableEpsilon)
    printText(QString("power           with %1 trials the audit certifies at most epsilon_lower %2 (no held-out "
                      "error): it could not have detected a violation of the claimed epsilon %3; more trials raise it")
                  .arg(r.trials).arg(most).arg(r.epsilon));
  else
    printText(QString("power           with %1 trials the audit certifies at most epsilon_lower %2 (no held-out "
                      "error): it detects a violation of the claimed epsilon %3 only if its statistic tells D from "
                      "D' well enough to certify more; an epsilon_lower far below the claim says this canary and "
                      "statistic saw little, not that the mechanism is private")
                  .arg(r.trials).arg(most).arg(r.epsilon));
  if (!r.warning.empty()) printText("WARNING         " + QString::fromStdString(r.warning));
  printText(QString("seconds         %1").arg(r.seconds, 0, 'f', 2));
}

}  // namespace

int runAudit(const QStringList& args) {
  Command command("audit", "Empirical privacy audit: run a mechanism on adjacent datasets and bound epsilon "
                           "from below (docs/algorithms.md §3 J), with the largest bound its trials could certify. Exit code 6 "
                           "when it finds a violation (epsilon_lower > the claimed epsilon), 0 when it finds none.",
                  "");
  command.addTrainingDataOptions();
  addMechanismOptions(command.parser());
  addPrivatePredictionOptions(command.parser());
  command.parser().addOptions({
      {"trials", "Runs of the mechanism on each of D and D' (default 20000, at least 100).", "N"},
      {"seed", "Master seed of the runs' noise streams (default 1).", "S"},
      {"threads", "Worker threads (default: all cores).", "N"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  if (!command.parser().positionalArguments().isEmpty())
    return command.usageError("audit takes no positional arguments (use --train DATA)");
  auto options = auditOptions(command);
  if (!options) return command.fail(options.error());
  auto threads = command.integer("threads", 0, 0);
  if (!threads) return command.fail(threads.error());
  if (threads.value() > 0) setWorkerThreads(static_cast<int>(threads.value()));

  Result<audit::AuditProblem> problem = Error{};
  if (command.parser().isSet("train")) {
    auto request = command.dataRequest();
    if (!request) return command.fail(request.error());
    auto prepared = prepareData(request.value());
    if (!prepared) return command.fail(prepared.error());
    problem = audit::auditProblemFromData(options.value(), prepared.value().train, prepared.value().test);
  } else if (command.parser().isSet("rff-dim")) {
    // The built-in problem is fixed rows in d = 2; the map would silently not apply.
    return command.fail({ErrorKind::Usage, "--rff-dim applies to --train DATA (the built-in audit problem has no "
                                           "preprocessing)", {}, 0, "rff-dim"});
  } else {
    problem = audit::builtinAuditProblem(options.value());
  }
  if (!problem) return command.fail(problem.error());
  // D and D' each run `trials` times: a DP-LMGC audit on a few thousand rows can take
  // hours at the default count, so say how far it is.
  ProgressLine progressLine("audit", "runs", 2 * options.value().trials);
  auto result = audit::runAudit(options.value(), problem.value(),
                                Progress([&progressLine](double done) { progressLine.setFraction(done); }));
  if (!result) return command.fail(result.error());
  const audit::AuditResult& r = result.value();
  // A violation is the audit's finding, reported in full; its exit code lets scripts act on it.
  const int code = r.violation ? kAuditViolation : kOk;
  if (!command.json()) {
    printResult(r);
    return code;
  }
  const QJsonObject out = audit::auditResultJson(r, options.value().seed);
  command.printJson(out);
  return code;
}

}  // namespace dpstudio::cli

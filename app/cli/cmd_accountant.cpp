// dpstudio-cli accountant: ε of composed DP-SGD events (Poisson-subsampled Gaussian) by the
// PLD accountant (the default) or the RDP accountant, for add/remove or substitution
// adjacency, or the σ that reaches a target ε (docs/cli.md; docs/algorithms.md §1.4–1.5).

#include <QJsonArray>

#include <optional>
#include <vector>

#include "app/cli/cli_common.h"
#include "app/cli/meaning_output.h"
#include "core/mechanisms/substitution_rdp.h"
#include "core/privacy/pld_accountant.h"
#include "core/privacy/rdp_accountant.h"

namespace dpstudio::cli {
namespace {

using privacy::AccountantKind;
using privacy::Adjacency;
using privacy::SgmEvent;

// Core errors name the parameter ("q must be ..."); on the command line, name the option
// ("--q must be ...") and leave `field` empty so the message reads as one sentence.
Error asOptionError(Error error) {
  std::string option = error.field;
  for (char& c : option)
    if (c == '_') c = '-';
  if (error.field.empty()) return error;
  if (error.message.rfind(error.field, 0) == 0)
    error.message = "--" + option + error.message.substr(error.field.size());
  else
    error.message = "--" + option + " " + error.message;
  error.field.clear();
  return error;
}

Error invalid(const std::string& message) {
  return Error{ErrorKind::InvalidPrivacy, message, {}, 0, {}};
}

// The values of a repeated option, in order, as numbers. Not-a-number is a usage error.
Result<std::vector<double>> numbers(const QCommandLineParser& parser, const QString& name) {
  std::vector<double> out;
  for (const QString& text : parser.values(name)) {
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok)
      return Error{ErrorKind::Usage, "--" + name.toStdString() + " must be a number, found '" +
                                         text.toStdString() + "'", {}, 0, {}};
    out.push_back(value);
  }
  return out;
}

QJsonArray toJson(const std::vector<double>& values) {
  QJsonArray out;
  for (double value : values) out.append(value);
  return out;
}

// The RDP side of an account: the add/remove accountant (its orders, both conversions) or,
// for substitution, its weak-triangle bound (substitution_rdp.h: improved and classic ε,
// the improved order; no per-order list).
struct RdpSide {
  double epsilon = 0, order = 0, epsilonClassic = 0, orderClassic = 0;
  std::optional<privacy::RdpReport> addRemove;  // add/remove only
};

Result<RdpSide> rdpAccount(const std::vector<SgmEvent>& events, double delta, Adjacency adjacency) {
  RdpSide side;
  if (adjacency == Adjacency::AddRemove) {
    auto report = privacy::accountSampledGaussian(events, delta);
    if (!report) return report.error();
    side.epsilon = report.value().improved.epsilon;
    side.order = report.value().improved.order;
    side.epsilonClassic = report.value().classic.epsilon;
    side.orderClassic = report.value().classic.order;
    side.addRemove = report.value();
    return side;
  }
  auto account = mech::accountSubstitution(events, delta);
  if (!account) return account.error();
  side.epsilon = account.value().epsilon;
  side.order = account.value().order;
  side.epsilonClassic = account.value().epsilonClassic;
  return side;
}

// The σ shared by all events for which the chosen accountant's ε is at most the target.
Result<double> calibrateRdp(const std::vector<SgmEvent>& events, double delta, double target,
                            Adjacency adjacency) {
  if (adjacency == Adjacency::AddRemove) {
    auto calibration = privacy::calibrateSgmSigma(events, delta, target);
    if (!calibration) return calibration.error();
    return calibration.value().sigma;
  }
  auto calibration = mech::calibrateSubstitution(events, delta, target);
  if (!calibration) return calibration.error();
  return calibration.value().sigma;
}

struct Account {
  AccountantKind accountant = AccountantKind::Pld;
  Adjacency adjacency = Adjacency::AddRemove;
  double delta = 0;
  std::optional<privacy::PldReport> pld;  // when accountant == Pld
  RdpSide rdp;                            // always: the headline or the comparison
  double epsilon() const { return pld ? pld->epsilon : rdp.epsilon; }
};

QString adjacencyText(Adjacency adjacency) {
  return adjacency == Adjacency::AddRemove ? QStringLiteral("add/remove one example")
                                           : QStringLiteral("substitution (replace one example)");
}

// What the ε and δ mean for one person; with the PLD accountant, the exact trade-off of the
// composed events too (meaning_output.h).
Guarantee guaranteeOf(const std::vector<SgmEvent>& events, const Account& a) {
  Guarantee g{a.epsilon(), a.delta, std::isfinite(a.epsilon()), std::nullopt};
  if (a.accountant == AccountantKind::Pld)
    g.exact = privacy::ExactPrivacy{.sampledGaussian = events, .adjacency = a.adjacency};
  return g;
}

void printReport(const Command& command, const std::vector<SgmEvent>& events, const Account& a,
                 const double* calibratedSigma, double targetEpsilon) {
  const bool pld = a.accountant == AccountantKind::Pld;
  if (command.json()) {
    QJsonArray eventList;
    for (const SgmEvent& event : events)
      eventList.append(QJsonObject{{"q", event.q}, {"sigma", event.sigma},
                                   {"steps", static_cast<qint64>(event.steps)}});
    // docs/cli.md's keys: `epsilon` (the chosen accountant's), `epsilon_classic` and `order` (the
    // RDP accountant's, also beside PLD); the rest are extra.
    QJsonObject out{
        {"accountant", QString::fromStdString(privacy::accountantName(a.accountant))},
        {"adjacency", QString::fromStdString(privacy::adjacencyName(a.adjacency))},
        {"epsilon", a.epsilon()},
        {"epsilon_rdp", a.rdp.epsilon},
        {"epsilon_classic", a.rdp.epsilonClassic},
        {"order", a.rdp.order},
        {"delta", a.delta},
        {"events", eventList},
    };
    if (a.adjacency == Adjacency::AddRemove)
      out["conversion"] = "RDP: improved (Canonne, Kamath & Steinke 2020); epsilon_classic: Mironov 2017";
    else
      out["conversion"] = "RDP: weak triangle inequality through the add/remove neighbour (Mironov 2017, Prop. 11); "
                          "improved conversion; epsilon_classic: Mironov 2017";
    if (a.rdp.addRemove) {
      out["order_classic"] = a.rdp.orderClassic;
      out["orders"] = toJson(a.rdp.addRemove->orders);
      out["orders_skipped"] = toJson(a.rdp.addRemove->skippedOrders);
      if (!a.rdp.addRemove->note.empty()) out["note"] = QString::fromStdString(a.rdp.addRemove->note);
    }
    if (pld) {
      const privacy::PldReport& r = *a.pld;
      out["epsilon_lower"] = r.epsilonLower;
      out["epsilon_error"] = r.errorBound;
      out["epsilon_charge_error"] = r.epsilonChargeError;
      out["discretization_error"] = r.discretizationError;
      out["delta_charged"] = r.deltaCharged;
      out["discretization"] = r.discretization;
      if (a.adjacency == Adjacency::AddRemove) {
        out["epsilon_remove"] = r.epsilonRemove;
        out["epsilon_add"] = r.epsilonAdd;
      }
    }
    if (calibratedSigma) {
      out["sigma"] = *calibratedSigma;
      out["target_epsilon"] = targetEpsilon;
    }
    if (auto meaning = meaningJson(guaranteeOf(events, a))) out["meaning"] = meaning.value();
    command.printJson(out);
    return;
  }
  for (std::size_t i = 0; i < events.size(); ++i)
    printText(QString("event %1       q = %2, sigma = %3, steps = %4")
                  .arg(i + 1)
                  .arg(events[i].q, 0, 'g', 6)
                  .arg(events[i].sigma, 0, 'g', 8)
                  .arg(events[i].steps));
  if (calibratedSigma)
    printText(QString("sigma         %1  (calibrated: epsilon <= %2)")
                  .arg(*calibratedSigma, 0, 'g', 10)
                  .arg(targetEpsilon, 0, 'g', 6));
  printText(QString("delta         %1").arg(a.delta, 0, 'g', 6));
  printText(QString("adjacency     %1").arg(adjacencyText(a.adjacency)));
  const QString rdpWhat = a.adjacency == Adjacency::AddRemove
                              ? QStringLiteral("improved conversion, Canonne-Kamath-Steinke")
                              : QStringLiteral("weak triangle inequality, improved conversion");
  if (pld) {
    const privacy::PldReport& r = *a.pld;
    printText(QString("epsilon       %1  (PLD accountant, interval %2; an upper bound: the exact value lies "
                      "in [%3, %1])")
                  .arg(r.epsilon, 0, 'g', 6)
                  .arg(r.discretization, 0, 'g', 3)
                  .arg(r.epsilonLower, 0, 'g', 6));
    if (a.adjacency == Adjacency::AddRemove)
      printText(QString("              remove %1, add %2 (the larger is the guarantee)")
                    .arg(r.epsilonRemove, 0, 'g', 6)
                    .arg(r.epsilonAdd, 0, 'g', 6));
    printText(QString("RDP epsilon   %1  (order %2; %3)").arg(a.rdp.epsilon, 0, 'g', 6).arg(a.rdp.order).arg(rdpWhat));
  } else {
    printText(QString("epsilon       %1  (RDP accountant, order %2; %3)")
                  .arg(a.rdp.epsilon, 0, 'g', 6)
                  .arg(a.rdp.order)
                  .arg(rdpWhat));
  }
  if (a.rdp.addRemove)
    printText(QString("              %1  (order %2; classic conversion, Mironov)")
                  .arg(a.rdp.epsilonClassic, 0, 'g', 6)
                  .arg(a.rdp.orderClassic));
  else
    printText(QString("              %1  (classic conversion, Mironov)").arg(a.rdp.epsilonClassic, 0, 'g', 6));
  if (a.rdp.addRemove && !a.rdp.addRemove->note.empty())
    printText("note          " + QString::fromStdString(a.rdp.addRemove->note));
  if (auto lines = meaningLines(guaranteeOf(events, a)))
    for (const QString& line : lines.value()) printText(line);
}

Result<Account> accountFor(const std::vector<SgmEvent>& events, double delta, AccountantKind accountant,
                           Adjacency adjacency) {
  Account a;
  a.accountant = accountant;
  a.adjacency = adjacency;
  a.delta = delta;
  if (accountant == AccountantKind::Pld) {
    auto pld = privacy::accountSampledGaussianPld(events, delta, adjacency);
    if (!pld) return pld.error();
    a.pld = pld.value();
  }
  auto rdp = rdpAccount(events, delta, adjacency);
  if (!rdp) return rdp.error();
  a.rdp = rdp.value();
  return a;
}

// What the command line asks for: the events (σ = 1 placeholders when calibrating), δ, and
// either an account of those events or the σ that reaches `targetEpsilon`.
struct AccountantRequest {
  std::vector<SgmEvent> events;
  double delta = 0;
  std::optional<double> targetEpsilon;
  AccountantKind accountant = AccountantKind::Pld;
  Adjacency adjacency = Adjacency::AddRemove;
};

Error usage(const std::string& message) {
  return Error{ErrorKind::Usage, message + " (see --help)", {}, 0, {}};
}

Result<AccountantRequest> readRequest(const Command& command) {
  const QCommandLineParser& parser = command.parser();
  if (!parser.positionalArguments().isEmpty()) return usage("accountant takes no positional arguments");
  AccountantRequest request;
  const auto accountant = privacy::parseAccountant(parser.value("accountant").toStdString());
  if (!accountant) return usage("--accountant must be pld or rdp");
  const auto adjacency = privacy::parseAdjacency(parser.value("adjacency").toStdString());
  if (!adjacency) return usage("--adjacency must be add-remove or substitution");
  request.accountant = *accountant;
  request.adjacency = *adjacency;
  if (!parser.isSet("q")) return usage("--q, --steps and --sigma (or --target-epsilon) are required");
  if (!parser.isSet("delta")) return usage("--delta is required");
  const bool calibrate = parser.isSet("target-epsilon");
  if (calibrate && parser.isSet("sigma")) return usage("give --sigma or --target-epsilon, not both");

  auto qs = numbers(parser, "q");
  auto sigmas = numbers(parser, "sigma");
  auto delta = command.number("delta", 0);
  auto target = command.number("target-epsilon", 0);
  for (const auto* r : {&qs, &sigmas}) if (!*r) return r->error();
  for (const auto* r : {&delta, &target}) if (!*r) return asOptionError(r->error());
  request.delta = delta.value();
  if (calibrate) request.targetEpsilon = target.value();
  std::vector<long long> steps;
  for (const QString& text : parser.values("steps")) {
    bool ok = false;
    const long long value = text.toLongLong(&ok);
    if (!ok)
      return Error{ErrorKind::Usage, "--steps must be a whole number, found '" + text.toStdString() + "'", {}, 0, {}};
    steps.push_back(value);
  }

  const std::size_t count = qs.value().size();
  if (steps.size() != count || (!calibrate && sigmas.value().size() != count))
    return invalid("each event needs one --q, one --steps and " +
                   std::string(calibrate ? "no --sigma" : "one --sigma") + "; found " +
                   std::to_string(count) + " --q, " + std::to_string(sigmas.value().size()) +
                   " --sigma, " + std::to_string(steps.size()) + " --steps");
  request.events.resize(count);
  for (std::size_t i = 0; i < count; ++i)
    request.events[i] = {qs.value()[i], calibrate ? 1.0 : sigmas.value()[i], steps[i]};
  return request;
}

// The answer: the events as accounted (with the calibrated σ when one was asked for).
struct AccountantAnswer {
  std::vector<SgmEvent> events;
  Account account;
  std::optional<double> calibratedSigma;
};

Result<AccountantAnswer> answer(const AccountantRequest& request) {
  AccountantAnswer out{request.events, {}, std::nullopt};
  if (!request.targetEpsilon) {
    auto account = accountFor(out.events, request.delta, request.accountant, request.adjacency);
    if (!account) return account.error();
    out.account = account.value();
    return out;
  }
  // RDP's σ; for PLD also the search's starting point (PLD's ε there is normally below the
  // target). RDP may not reach a target PLD reaches: then PLD starts from σ = 1.
  const double target = *request.targetEpsilon;
  auto rdpSigma = calibrateRdp(out.events, request.delta, target, request.adjacency);
  double sigma = 0;
  std::optional<privacy::PldReport> pld;  // PLD's report at that σ
  if (request.accountant == AccountantKind::Rdp) {
    if (!rdpSigma) return rdpSigma.error();
    sigma = rdpSigma.value();
  } else {
    if (!rdpSigma && rdpSigma.error().field != "target_epsilon") return rdpSigma.error();
    auto calibration = privacy::calibrateSgmSigmaPld(out.events, request.delta, target, request.adjacency,
                                                     {}, rdpSigma ? rdpSigma.value() : 0.0);
    if (!calibration) return calibration.error();
    sigma = calibration.value().sigma;
    pld = calibration.value().report;
  }
  for (SgmEvent& event : out.events) event.sigma = sigma;
  auto rdp = rdpAccount(out.events, request.delta, request.adjacency);
  if (!rdp) return rdp.error();
  out.account = Account{request.accountant, request.adjacency, request.delta, pld, rdp.value()};
  out.calibratedSigma = sigma;
  return out;
}

}  // namespace

int runAccountant(const QStringList& args) {
  Command command("accountant",
                  "Privacy of composed DP-SGD runs (Poisson-subsampled Gaussian). Repeat --q, "
                  "--sigma and --steps once per event, in order; --target-epsilon instead of "
                  "--sigma calibrates one sigma shared by all events. The PLD accountant (the "
                  "default; privacy loss distributions, near-exact, an upper bound) reports the "
                  "RDP accountant's epsilon beside its own. Add/remove-one adjacency is the "
                  "default (the accountants' usual setting); `train --mechanism dpsgd` reports "
                  "the substitution (replace-one) epsilon the rest of dpstudio uses, which is "
                  "larger: --adjacency substitution gives it.",
                  "");
  command.parser().addOptions({
      {"q", "Sampling rate of an event (--q or -q), in (0, 1]: batch size / n. Repeatable.",
       "Q"},
      {"sigma", "Noise multiplier of an event (noise std / clipping norm), > 0. Repeatable.",
       "S"},
      {"steps", "Number of steps of an event, >= 1. Repeatable.", "T"},
      {"delta", "Target delta, in (0, 1).", "D"},
      {"target-epsilon", "Calibrate sigma so that epsilon <= E (instead of --sigma).", "E"},
      {"accountant",
       "pld (privacy loss distributions, the default) or rdp (Renyi DP, Mironov, Talwar & "
       "Zhang 2019).",
       "A", "pld"},
      {"adjacency",
       "add-remove (one example added or removed, the default) or substitution (one example "
       "replaced).",
       "R", "add-remove"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  auto request = readRequest(command);
  if (!request) return command.fail(request.error());
  auto result = answer(request.value());
  if (!result) return command.fail(asOptionError(result.error()));
  const AccountantAnswer& a = result.value();
  printReport(command, a.events, a.account, a.calibratedSigma ? &*a.calibratedSigma : nullptr,
              request.value().targetEpsilon.value_or(0.0));
  return kOk;
}

}  // namespace dpstudio::cli

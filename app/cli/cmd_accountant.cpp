// dpstudio-cli accountant: ε of composed DP-SGD events by the RDP accountant, or the σ
// that reaches a target ε (SPEC "CLI"; ALGORITHMS §1).

#include <QJsonArray>

#include <vector>

#include "app/cli/cli_common.h"
#include "core/privacy/rdp_accountant.h"

namespace dpstudio::cli {
namespace {

// The RDP bound of the Poisson-subsampled Gaussian is for adding or removing one example;
// a substitution changes two, which core/mechanisms/substitution_rdp.h accounts for.
constexpr const char* kAdjacency = "add/remove one example (not substitution)";

using privacy::RdpReport;
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

void printReport(const Command& command, const std::vector<SgmEvent>& events,
                 const RdpReport& report, const double* calibratedSigma, double targetEpsilon) {
  if (command.json()) {
    QJsonArray eventList;
    for (const SgmEvent& event : events)
      eventList.append(QJsonObject{{"q", event.q}, {"sigma", event.sigma},
                                   {"steps", static_cast<qint64>(event.steps)}});
    QJsonObject out{
        {"epsilon", report.improved.epsilon},
        {"epsilon_classic", report.classic.epsilon},
        {"order", report.improved.order},
        {"order_classic", report.classic.order},
        {"delta", report.delta},
        {"conversion", "improved (Canonne, Kamath & Steinke 2020); epsilon_classic: Mironov 2017"},
        {"adjacency", kAdjacency},
        {"events", eventList},
        {"orders", toJson(report.orders)},
        {"orders_skipped", toJson(report.skippedOrders)},
    };
    if (calibratedSigma) {
      out["sigma"] = *calibratedSigma;
      out["target_epsilon"] = targetEpsilon;
    }
    if (!report.note.empty()) out["note"] = QString::fromStdString(report.note);
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
  printText(QString("delta         %1").arg(report.delta, 0, 'g', 6));
  printText(QString("adjacency     %1").arg(kAdjacency));
  printText(QString("epsilon       %1  (order %2; improved conversion, Canonne-Kamath-Steinke)")
                .arg(report.improved.epsilon, 0, 'g', 6)
                .arg(report.improved.order));
  printText(QString("              %1  (order %2; classic conversion, Mironov)")
                .arg(report.classic.epsilon, 0, 'g', 6)
                .arg(report.classic.order));
  if (!report.note.empty()) printText("note          " + QString::fromStdString(report.note));
}

}  // namespace

int runAccountant(const QStringList& args) {
  Command command("accountant",
                  "Privacy of composed DP-SGD runs (Poisson-subsampled Gaussian) by the RDP "
                  "accountant. Repeat --q, --sigma and --steps once per event, in order; "
                  "--target-epsilon instead of --sigma calibrates one sigma shared by all "
                  "events. The epsilon is for add/remove-one adjacency (the accountant's "
                  "usual setting); `train --mechanism dpsgd` reports the substitution "
                  "(replace-one) epsilon the rest of dpstudio uses, which is larger.",
                  "");
  command.parser().addOptions({
      {"q", "Sampling rate of an event (--q or -q), in (0, 1]: batch size / n. Repeatable.",
       "Q"},
      {"sigma", "Noise multiplier of an event (noise std / clipping norm), > 0. Repeatable.",
       "S"},
      {"steps", "Number of steps of an event, >= 1. Repeatable.", "T"},
      {"delta", "Target delta, in (0, 1).", "D"},
      {"target-epsilon", "Calibrate sigma so that epsilon <= E (instead of --sigma).", "E"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  const QCommandLineParser& parser = command.parser();
  if (!parser.positionalArguments().isEmpty())
    return command.usageError("accountant takes no positional arguments");
  if (!parser.isSet("q")) return command.usageError("--q, --steps and --sigma (or --target-epsilon) are required");
  if (!parser.isSet("delta")) return command.usageError("--delta is required");
  const bool calibrate = parser.isSet("target-epsilon");
  if (calibrate && parser.isSet("sigma"))
    return command.usageError("give --sigma or --target-epsilon, not both");

  auto qs = numbers(parser, "q");
  auto sigmas = numbers(parser, "sigma");
  auto delta = command.number("delta", 0);
  auto target = command.number("target-epsilon", 0);
  for (const auto* r : {&qs, &sigmas}) if (!*r) return command.fail(r->error());
  for (const auto* r : {&delta, &target}) if (!*r) return command.fail(asOptionError(r->error()));
  std::vector<long long> steps;
  for (const QString& text : parser.values("steps")) {
    bool ok = false;
    const long long value = text.toLongLong(&ok);
    if (!ok)
      return command.fail({ErrorKind::Usage, "--steps must be a whole number, found '" +
                                                 text.toStdString() + "'", {}, 0, {}});
    steps.push_back(value);
  }

  const std::size_t count = qs.value().size();
  if (steps.size() != count || (!calibrate && sigmas.value().size() != count))
    return command.fail(invalid(
        "each event needs one --q, one --steps and " +
        std::string(calibrate ? "no --sigma" : "one --sigma") + "; found " +
        std::to_string(count) + " --q, " + std::to_string(sigmas.value().size()) + " --sigma, " +
        std::to_string(steps.size()) + " --steps"));
  std::vector<SgmEvent> events(count);
  for (std::size_t i = 0; i < count; ++i)
    events[i] = {qs.value()[i], calibrate ? 1.0 : sigmas.value()[i], steps[i]};

  if (calibrate) {
    auto calibration =
        privacy::calibrateSgmSigma(events, delta.value(), target.value());
    if (!calibration) return command.fail(asOptionError(calibration.error()));
    for (SgmEvent& event : events) event.sigma = calibration.value().sigma;
    printReport(command, events, calibration.value().report, &calibration.value().sigma,
                target.value());
    return kOk;
  }
  auto report = privacy::accountSampledGaussian(events, delta.value());
  if (!report) return command.fail(asOptionError(report.error()));
  printReport(command, events, report.value(), nullptr, 0.0);
  return kOk;
}

}  // namespace dpstudio::cli

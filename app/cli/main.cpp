// dpstudio-cli: the headless front end. A thin dispatcher over core; each subcommand lives
// in its own cmd_*.cpp. Runs under a QCoreApplication, or under an offscreen QApplication
// when it is to draw a plot (`sweep`/`sweep-merge --plot`; ui/plot/plot_application.h).

#include <QCoreApplication>

#include <cstdio>

#include <functional>
#include <map>

#include "app/cli/cli_common.h"
#include "ui/plot/plot_application.h"

namespace {

const char* kUsage =
    "Usage: dpstudio-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  datasets   list the built-in datasets and generators\n"
    "  info DATA  shape, classes, class counts, max row norm, detected format\n"
    "  train      train a model, privately or not (--train DATA --model M --mechanism X [--out FILE.dpmodel])\n"
    "  predict    predict with a model bundle (--model FILE.dpmodel --data DATA [--out preds.csv])\n"
    "  inspect FILE.dpmodel  check a model bundle, print its manifest and privacy statement\n"
    "  calibrate  the noise parameters a mechanism would use, without data\n"
    "  accountant epsilon of DP-SGD runs (--q Q --sigma S --steps T ... --delta D) by PLD or RDP\n"
    "  audit      empirical privacy audit: a lower bound on epsilon (--mechanism X --trials N)\n"
    "  sweep      privacy-utility curves: accuracy against epsilon, B, delta, n, D, C, lambda, T or K\n"
    "  sweep-merge  merge the trial tables of a sweep's shards into one summary and plot\n"
    "  party      one party of the multiparty Paillier protocol over TLS (--listen PORT --party J --of K)\n"
    "  curator    the protocol's curator: connects to the parties (--parties host:port,..), publishes the release\n"
    "\n"
    "Every command takes --help, and --json to print one JSON object on stdout.\n"
    "train and predict take --ledger FILE|default to record their private releases in a\n"
    "privacy ledger (default: the one the GUI keeps); without it nothing is recorded.\n"
    "DATA is a file (CSV, LIBSVM, IDX; gzip is detected) or builtin:NAME.\n"
    "Exit codes: 0 ok, 1 other failure, 2 usage, 3 bad input data, 4 invalid privacy\n"
    "parameters, 5 bad bundle.";

}  // namespace

int main(int argc, char** argv) {
  const auto app = dpstudio::ui::makeCliApplication(argc, argv);
  QCoreApplication::setApplicationName("dpstudio-cli");
  QCoreApplication::setApplicationVersion(DPSTUDIO_VERSION);
  using dpstudio::cli::printText;

  const QStringList args = QCoreApplication::arguments();
  if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
    printText(kUsage);
    return args.size() < 2 ? dpstudio::cli::kUsage : dpstudio::cli::kOk;
  }
  if (args[1] == "--version" || args[1] == "-v") {
    printText(QString("dpstudio-cli %1").arg(DPSTUDIO_VERSION));
    return dpstudio::cli::kOk;
  }

  const std::map<QString, std::function<int(const QStringList&)>> commands = {
      {"datasets", dpstudio::cli::runDatasets},
      {"info", dpstudio::cli::runInfo},
      {"train", dpstudio::cli::runTrain},
      {"calibrate", dpstudio::cli::runCalibrate},
      {"accountant", dpstudio::cli::runAccountant},
      {"audit", dpstudio::cli::runAudit},
      {"sweep", dpstudio::cli::runSweep},
      {"sweep-merge", dpstudio::cli::runSweepMerge},
      {"predict", dpstudio::cli::runPredict},
      {"inspect", dpstudio::cli::runInspect},
      {"party", dpstudio::cli::runParty},
      {"curator", dpstudio::cli::runCurator},
  };
  const auto it = commands.find(args[1]);
  if (it == commands.end()) {
    const QByteArray message =
        ("dpstudio-cli: error: unknown command '" + args[1] + "'\n\n" + kUsage + "\n").toUtf8();
    std::fwrite(message.constData(), 1, static_cast<std::size_t>(message.size()), stderr);
    return dpstudio::cli::kUsage;
  }
  // The subcommand's parser sees "dpstudio-cli <command>" as its program name.
  QStringList rest = args.mid(2);
  rest.prepend(args[0] + " " + args[1]);
  return it->second(rest);
}

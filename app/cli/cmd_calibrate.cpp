#include "app/cli/cli_common.h"
#include "app/cli/mechanism_options.h"
#include "core/mechanisms/report_json.h"

namespace dpstudio::cli {

int runCalibrate(const QStringList& args) {
  Command command("calibrate", "The noise parameters a run would use, without data.", "");
  addMechanismOptions(command.parser());
  command.parser().addOptions({
      {"n", "Number of training examples.", "N"},
      {"d", "Number of features (after preprocessing).", "D"},
      {"classes", "Number of classes (default 2).", "C"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  auto options = mechanismOptions(command);
  if (!options) return command.fail(options.error());
  if (!command.parser().isSet("n") || !command.parser().isSet("d"))
    return command.fail({ErrorKind::Usage, "--n N and --d D are required", {}, 0, "n"});
  auto n = command.integer("n", 0, 1);
  auto d = command.integer("d", 0, 1);
  auto classes = command.integer("classes", 2, 2);
  for (const auto* r : {&n, &d, &classes})
    if (!*r) return command.fail(r->error());
  auto report = mech::calibrate(options.value(), {static_cast<Index>(n.value()), static_cast<Index>(d.value()),
                                                  static_cast<Index>(classes.value())});
  if (!report) return command.fail(report.error());
  if (command.json()) {
    command.printJson(mech::reportToJson(report.value()));
    return kOk;
  }
  const auto& r = report.value();
  printText(QString("mechanism  %1 on %2 (%3 calibration), noise %4, noise dimension %5")
                .arg(QString::fromStdString(r.mechanism), QString::fromStdString(r.model),
                     QString::fromStdString(r.calibration), QString::fromStdString(r.noise))
                .arg(r.noiseDimension));
  for (const auto& v : r.derived)
    printText(QString("  %1 = %2   [%3]").arg(QString::fromStdString(v.key), -20).arg(v.value, 0, 'g', 10)
                  .arg(QString::fromStdString(v.formula)));
  if (!r.warning.empty()) printText("WARNING  " + QString::fromStdString(r.warning));
  printText("privacy  " + QString::fromStdString(r.statement));
  return kOk;
}

}  // namespace dpstudio::cli

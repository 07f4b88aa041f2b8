#include <QJsonArray>

#include "app/cli/cli_common.h"
#include "app/cli/meaning_output.h"
#include "app/cli/mechanism_options.h"
#include "core/mechanisms/report_json.h"
#include "core/mechanisms/selection.h"
#include "core/privacy/tradeoff.h"

namespace dpstudio::cli {

namespace {

Guarantee guaranteeOf(const mech::MechanismReport& report) {
  return {report.chargedEpsilon(), report.chargedDelta(), report.guaranteeHolds(), report.exactPrivacy};
}

}  // namespace

int runCalibrate(const QStringList& args) {
  Command command("calibrate", "The noise parameters a run would use, without data.", "");
  addMechanismOptions(command.parser());
  addTuningOption(command.parser());  // --mechanism auto: its λ grid and runs
  command.parser().addOptions({
      {"n", "Number of training examples.", "N"},
      {"d", "Number of features after preprocessing (before --intercept's column, if given; "
            "not needed with --rff-dim).", "D"},
      {"classes", "Number of classes (default 2).", "C"},
      {"intercept", "Count train's --intercept column: the model sees d + 1 (or D + 1) features."},
      {"noise", "The noise source of the run: release (default, as train's; output perturbation's scale is then "
                "enlarged by F = 1 + 2^-10) or experiment.", "SRC", "release"},
  });
  // The same options as train: the model then sees D features, whatever d was.
  command.addRandomFeatureOptions();
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  auto options = mechanismOptions(command);
  if (!options) return command.fail(options.error());
  const auto noise = privacy::parseNoiseKind(command.parser().value("noise").toStdString());
  if (!noise) return command.fail({ErrorKind::Usage, "use release or experiment", {}, 0, "noise"});
  auto randomFeatures = command.randomFeatureSpec();
  if (!randomFeatures) return command.fail(randomFeatures.error());
  const bool mapped = randomFeatures.value().has_value();
  if (!command.parser().isSet("n") || (!command.parser().isSet("d") && !mapped))
    return command.fail({ErrorKind::Usage, "--n N and --d D (or --rff-dim D) are required", {}, 0, "n"});
  auto n = command.integer("n", 0, 1);
  auto d = command.integer("d", 1, 1);
  auto classes = command.integer("classes", 2, 2);
  for (const auto* r : {&n, &d, &classes})
    if (!*r) return command.fail(r->error());
  const Index features = (mapped ? randomFeatures.value()->dim : static_cast<Index>(d.value())) +
                         (command.parser().isSet("intercept") ? 1 : 0);
  const mech::ProblemShape shape{static_cast<Index>(n.value()), features, static_cast<Index>(classes.value())};
  auto report = [&]() -> Result<mech::MechanismReport> {
    if (command.parser().value("mechanism") != "auto") {
      if (command.parser().isSet("tune-lambdas") || command.parser().isSet("tune") ||
          command.parser().isSet("selection-runs") || command.parser().isSet("selection-law"))
        return Error{ErrorKind::Usage, "--tune, --tune-lambdas, --selection-runs and --selection-law calibrate --mechanism auto",
                     {}, 0, "mechanism"};
      return mech::calibrate(options.value(), shape, *noise);
    }
    auto lambdas = tuneLambdas(command, options.value(), true);
    if (!lambdas) return lambdas.error();
    auto settings = selectionSettings(command);
    if (!settings) return settings.error();
    settings.value().lambdas = lambdas.value();
    return mech::calibrateSelection({options.value(), settings.value()}, shape);
  }();
  if (!report) return command.fail(report.error());
  if (command.json()) {
    QJsonObject out = mech::reportToJson(report.value());
    out["features"] = static_cast<qint64>(features);  // the d the calibration used
    // What the guarantee that holds means (as published: not always the claim, or none).
    if (auto meaning = meaningJson(guaranteeOf(report.value()))) out["meaning"] = meaning.value();
    if (mapped) {
      const RandomFeaturesSpec& spec = *randomFeatures.value();
      out["feature_map"] = QJsonObject{{"map", "rff"}, {"kernel", "rbf"}, {"dim", static_cast<qint64>(spec.dim)},
                                       {"gamma", spec.gamma}, {"seed", QString::number(spec.seed)}};
    }
    command.printJson(out);
    return kOk;
  }
  if (mapped)
    printText(QString("features   %1 random Fourier features (gamma %2, seed %3)%4")
                  .arg(randomFeatures.value()->dim).arg(randomFeatures.value()->gamma)
                  .arg(randomFeatures.value()->seed)
                  .arg(command.parser().isSet("intercept") ? " + intercept" : ""));
  const auto& r = report.value();
  printText(QString("mechanism  %1 on %2 (%3 calibration), noise %4, noise dimension %5")
                .arg(QString::fromStdString(r.mechanism), QString::fromStdString(r.model),
                     QString::fromStdString(r.calibrationWord()), QString::fromStdString(r.noiseWord()))
                .arg(r.noiseDimension));
  for (const auto& v : r.rows())
    printText(QString("  %1 = %2   [%3]").arg(QString::fromStdString(v.key), -20).arg(v.value, 0, 'g', 10)
                  .arg(QString::fromStdString(v.formula)));
  if (!r.warning.empty()) printText("WARNING  " + QString::fromStdString(r.warning));
  printText("privacy  " + QString::fromStdString(r.statement));
  if (auto lines = meaningLines(guaranteeOf(r)))
    for (const QString& line : lines.value()) printText(line);
  return kOk;
}

}  // namespace dpstudio::cli

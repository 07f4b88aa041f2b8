#include "app/cli/bundle_output.h"

#include "core/bundle/bundle_export.h"
#include "core/bundle/bundle_reader.h"

namespace dpstudio::cli {

void addBundleOutputOption(QCommandLineParser& parser) {
  parser.addOption({"out", "Export the trained model (or private predictor, with its budget) as a model bundle.",
                    "FILE.dpmodel"});
}

Result<std::optional<QString>> writeRunBundle(const Command& command, const experiment::PrivacyPlan& plan,
                                              const experiment::PlanRun& run, const PreparedData& data,
                                              const privacy::NoiseProvenance& noise) {
  if (!command.parser().isSet("out")) return std::optional<QString>();
  const QString path = command.parser().value("out");
  auto contents = bundle::bundleFromPlanRun(plan, run, data, noise);
  if (!contents) return contents.error();
  if (auto written = bundle::writeBundle(contents.value(), path); !written) return written.error();
  return std::optional<QString>(path);
}

void reportBundle(const std::optional<QString>& path, QJsonObject* json) {
  if (json) {
    (*json)["bundle"] = path ? QJsonValue(*path) : QJsonValue::Null;
    return;
  }
  if (path) printText("bundle          written to " + *path);
}

}  // namespace dpstudio::cli

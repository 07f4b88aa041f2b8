#include "app/cli/release_output.h"

#include "core/mechanisms/report_json.h"

namespace dpstudio::cli {

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bundle::GuaranteeScope printedScope(const mech::MechanismReport& report, const experiment::PrivacyPlan& plan,
                                    const PreparedData& data, const privacy::NoiseSource& noise) {
  bundle::PrivacyContext context = bundle::privacyContext(plan, data, noise.provenance());
  context.noise = noise.kind();
  return bundle::guaranteeScope(report, context);
}

QJsonObject releaseJson(const mech::MechanismReport& report, const PreparedData& data, double seconds,
                        const bundle::GuaranteeScope& scope) {
  return QJsonObject{
      {"private", scope.isPrivate()},
      {"mechanism_guarantee_holds", scope.mechanismHolds},
      {"guarantee_covers", QString::fromStdString(scope.covers())},
      {"model", QString::fromStdString(report.model)},
      {"mechanism", QString::fromStdString(report.mechanism)},
      {"calibration", QString::fromStdString(report.calibrationWord())},
      {"epsilon", report.epsilon},
      {"delta", report.delta},
      {"train_rows", static_cast<qint64>(data.train.rows())},
      {"test_rows", static_cast<qint64>(data.test.rows())},
      {"features", static_cast<qint64>(data.train.features())},
      {"classes", static_cast<qint64>(data.train.classes())},
      {"seconds", seconds},
      {"header", headerJson(data.train.provenance)},
      {"preprocessing", toJsonArray(data.train.provenance.steps)},
      {"not_private", toJsonArray(data.train.provenance.notPrivate)},
      {"structure_from_data", structureFromDataJson(data.train.provenance)},
      {"feature_map", featureMapJson(data.preprocessor)},
      {"report", mech::reportToJson(report)},
  };
}

}  // namespace dpstudio::cli

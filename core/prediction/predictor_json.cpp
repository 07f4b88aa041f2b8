#include "core/prediction/predictor_json.h"

#include <QJsonArray>

#include <cmath>

#include "core/mechanisms/report_json.h"

namespace dpstudio::predict {
namespace {

constexpr int kVersion = 1;
const char* kFormat = "dpstudio-private-predictor";

Error bad(const std::string& message, const std::string& field) {
  return Error{ErrorKind::BadBundle, message, {}, 0, field};
}

QJsonArray toArray(const Eigen::VectorXd& v) {
  QJsonArray out;
  for (Index i = 0; i < v.size(); ++i) out.append(v[i]);
  return out;
}

Result<Eigen::VectorXd> fromArray(const QJsonValue& value, const std::string& field) {
  if (!value.isArray()) return bad(field + " must be an array of numbers", field);
  const QJsonArray array = value.toArray();
  Eigen::VectorXd out(array.size());
  for (qsizetype i = 0; i < array.size(); ++i) {
    if (!array[i].isDouble()) return bad(field + " must hold numbers only", field);
    out[static_cast<Index>(i)] = array[i].toDouble();
  }
  return out;
}

Result<long long> integerField(const QJsonObject& json, const char* key, long long min) {
  const QJsonValue value = json[key];
  const double number = value.toDouble(std::nan(""));
  if (!value.isDouble() || number != std::floor(number) || number < static_cast<double>(min) || number > 9.0e15)
    return bad(std::string(key) + " must be a whole number >= " + std::to_string(min), key);
  return static_cast<long long>(number);
}

Result<double> numberField(const QJsonObject& json, const char* key) {
  if (!json[key].isDouble()) return bad(std::string(key) + " must be a number", key);
  return json[key].toDouble();
}

Status checkHeader(const QJsonObject& json, const char* mechanism) {
  if (json["format"].toString() != kFormat) return bad("not a dpstudio private-predictor state", "format");
  if (json["version"].toInt(-1) != kVersion)
    return bad("unsupported private-predictor state version (this program reads version 1)", "version");
  if (json["mechanism"].toString() != mechanism)
    return bad("the state is of mechanism '" + json["mechanism"].toString().toStdString() + "', expected '" +
                   mechanism + "'",
               "mechanism");
  return Ok{};
}

// The stored calibration must equal the recomputed one (to 1e-12): a file cannot lower the noise.
Status checkCalibration(const QJsonObject& json, const mech::MechanismReport& recomputed) {
  const QJsonObject stored = json["report"].toObject();
  for (const char* key : {"beta", "sigma"}) {
    const auto expected = recomputed.value(key);
    if (!expected) continue;
    const double found = stored[key].toDouble(std::nan(""));
    if (!(std::abs(found - *expected) <= 1e-12 * std::abs(*expected)))
      return bad(std::string("the stored ") + key + " does not match the calibration of the stored options", key);
  }
  return Ok{};
}

QJsonObject header(const char* mechanism, const PredictionOptions& options, const mech::MechanismReport& report,
                   long long budget, long long used) {
  return QJsonObject{{"format", kFormat},
                     {"version", kVersion},
                     {"mechanism", mechanism},
                     {"options", predictionOptionsToJson(options)},
                     {"budget", static_cast<qint64>(budget)},
                     {"used", static_cast<qint64>(used)},
                     {"report", mech::reportToJson(report)}};
}

}  // namespace

QJsonObject predictionOptionsToJson(const PredictionOptions& o) {
  return QJsonObject{{"kind", QString::fromStdString(predictionKindName(o.kind))},
                     {"model", QString::fromStdString(modelKindName(o.learner.kind))},
                     {"lambda", o.learner.lambda},
                     {"huber", o.learner.huber},
                     {"epsilon", o.epsilon},
                     {"delta", o.delta},
                     {"budget", static_cast<qint64>(o.budget)},
                     {"teachers", static_cast<qint64>(o.teachers)},
                     {"distribution", QString::fromStdString(mech::noiseFamilyName(o.family))},
                     {"calibration", QString::fromStdString(mech::calibrationName(o.calibration))},
                     {"partition_seed", QString::number(o.partitionSeed)}};
}

Result<PredictionOptions> predictionOptionsFromJson(const QJsonObject& json) {
  PredictionOptions o;
  const auto kind = parsePredictionKind(json["kind"].toString().toStdString());
  if (!kind) return bad("options.kind must be prediction or subsample", "kind");
  o.kind = *kind;
  const auto model = parseModelKind(json["model"].toString().toStdString());
  if (!model) return bad("options.model is not a known model", "model");
  o.learner.kind = *model;
  const auto family = mech::parseNoiseFamily(json["distribution"].toString().toStdString());
  const auto calibration = mech::parseCalibration(json["calibration"].toString().toStdString());
  if (!family) return bad("options.distribution must be l2-laplace or gaussian", "distribution");
  if (!calibration) return bad("options.calibration must be corrected or published", "calibration");
  o.family = *family;
  o.calibration = *calibration;
  struct Number { const char* key; double* target; };
  for (const Number& n : {Number{"lambda", &o.learner.lambda}, {"huber", &o.learner.huber},
                          {"epsilon", &o.epsilon}, {"delta", &o.delta}}) {
    auto value = numberField(json, n.key);
    if (!value) return value.error();
    *n.target = value.value();
  }
  auto budget = integerField(json, "budget", 1);
  auto teachers = integerField(json, "teachers", 1);
  if (!budget) return budget.error();
  if (!teachers) return teachers.error();
  o.budget = budget.value();
  o.teachers = static_cast<Index>(teachers.value());
  bool ok = false;
  o.partitionSeed = json["partition_seed"].toString().toULongLong(&ok);
  if (!ok) return bad("options.partition_seed must be a whole number (as a string)", "partition_seed");
  if (auto status = o.validate(); !status) return bad("the stored options are invalid: " + status.error().message,
                                                      status.error().field);
  return o;
}

namespace {

// The fields both predictor kinds store: header, options, shape, budget and its use.
struct CommonFields {
  PredictionOptions options;
  long long rows = 0, features = 0, classes = 0, used = 0;
};

Result<CommonFields> readCommonFields(const QJsonObject& json, const char* kind) {
  if (auto status = checkHeader(json, kind); !status) return status.error();
  auto options = predictionOptionsFromJson(json["options"].toObject());
  if (!options) return options.error();
  auto rows = integerField(json, "train_rows", 1);
  auto features = integerField(json, "features", 1);
  auto classes = integerField(json, "classes", 2);
  auto used = integerField(json, "used", 0);
  auto budget = integerField(json, "budget", 1);
  for (const auto* r : {&rows, &features, &classes, &used, &budget})
    if (!*r) return r->error();
  if (budget.value() != options.value().budget) return bad("budget and options.budget differ", "budget");
  return CommonFields{options.value(), rows.value(), features.value(), classes.value(), used.value()};
}

}  // namespace

QJsonObject predictorToJson(const PrivatePredictor& p) {
  QJsonObject out = header("prediction", p.options(), p.report(), p.budget(), p.used());
  out["train_rows"] = static_cast<qint64>(p.trainRows());
  out["features"] = static_cast<qint64>(p.features());
  out["classes"] = static_cast<qint64>(p.classes());
  out["dataset"] = QString::fromStdString(p.dataset());
  out["theta"] = toArray(p.theta());
  return out;
}

Result<PrivatePredictor> predictorFromJson(const QJsonObject& json) {
  auto common = readCommonFields(json, "prediction");
  if (!common) return common.error();
  const CommonFields& c = common.value();
  auto theta = fromArray(json["theta"], "theta");
  if (!theta) return theta.error();
  auto predictor = PrivatePredictor::restore(c.options, static_cast<Index>(c.rows),
                                             static_cast<Index>(c.features), static_cast<Index>(c.classes),
                                             std::move(theta).value(), c.used,
                                             json["dataset"].toString().toStdString());
  if (!predictor) return predictor.error();
  if (auto status = checkCalibration(json, predictor.value().report()); !status) return status.error();
  return predictor;
}

QJsonObject subsampleToJson(const SubsampleAggregate& p) {
  QJsonObject out = header("subsample", p.options(), p.report(), p.budget(), p.used());
  const TeacherEnsemble& t = p.teachers();
  out["train_rows"] = static_cast<qint64>(t.trainRows);
  out["features"] = static_cast<qint64>(t.model->inputDim());
  out["classes"] = static_cast<qint64>(t.model->classes());
  out["part_rows"] = static_cast<qint64>(t.partRows);
  out["dataset"] = QString::fromStdString(t.dataset);
  QJsonArray teachers;
  for (const Eigen::VectorXd& theta : t.thetas) teachers.append(toArray(theta));
  out["teachers"] = teachers;
  return out;
}

Result<SubsampleAggregate> subsampleFromJson(const QJsonObject& json) {
  auto common = readCommonFields(json, "subsample");
  if (!common) return common.error();
  const CommonFields& c = common.value();
  auto model = makeModel(c.options.learner, static_cast<Index>(c.features),
                         static_cast<Index>(c.classes));
  if (!model) return bad(model.error().message, "model");
  auto ensemble = std::make_shared<TeacherEnsemble>();
  ensemble->model = model.value();
  ensemble->trainRows = static_cast<Index>(c.rows);
  ensemble->partRows = ensemble->trainRows / c.options.teachers;
  ensemble->dataset = json["dataset"].toString().toStdString();
  if (!json["teachers"].isArray()) return bad("teachers must be an array of parameter arrays", "teachers");
  for (const QJsonValue& teacher : json["teachers"].toArray()) {
    auto theta = fromArray(teacher, "teachers");
    if (!theta) return theta.error();
    ensemble->thetas.push_back(std::move(theta).value());
  }
  auto predictor = SubsampleAggregate::restore(c.options, std::move(ensemble), c.used);
  if (!predictor) return predictor.error();
  if (auto status = checkCalibration(json, predictor.value().report()); !status) return status.error();
  return predictor;
}

}  // namespace dpstudio::predict

#include "core/bundle/bundle_reader.h"

#include "core/io/schema_json.h"

#include <cmath>

#include "core/bundle/bundle_parameters.h"
#include "core/bundle/bundle_preprocessing.h"
#include "core/bundle/manifest_fields.h"
#include "core/bundle/model_card.h"
#include "core/prediction/predictor_json.h"

namespace dpstudio::bundle {
namespace {

Error bad(const std::string& message, const std::string& field) { return manifestError(message, field); }

// The stored calibration must be the one the stored options give: a file cannot lower the
// noise of the answers by editing beta or sigma.
Status checkStoredCalibration(const QJsonObject& privacy, const mech::MechanismReport& recomputed) {
  const QJsonObject derived = privacy["derived"].toObject();
  for (const char* key : {"beta", "sigma"}) {
    const auto expected = recomputed.value(key);
    if (!expected) continue;
    const double found = derived[key].toDouble(std::nan(""));
    if (!(std::abs(found - *expected) <= 1e-12 * std::abs(*expected)))
      return bad(std::string("the stored ") + key + " does not match the calibration of the stored options "
                     "(the manifest was edited?)",
                 std::string("privacy.derived.") + key);
  }
  return Ok{};
}

struct Header {
  Index classes = 0;
  Index modelInputDim = 0;
  LearnerSpec learner;
  long long trainRows = 0;
};

Result<Header> readHeader(const QJsonObject& m, const Preprocessor& pre) {
  Header h;
  const QJsonObject model = m["model"].toObject();
  const auto kind = parseModelKind(model["kind"].toString().toStdString());
  if (!kind) return bad("manifest field model.kind '" + model["kind"].toString().toStdString() + "' is not a known model", "model.kind");
  h.learner.kind = *kind;
  h.learner.lambda = model["lambda"].toDouble(1.0);
  h.learner.huber = model["huber"].toDouble(0.5);
  h.learner.components = model["components"].toInt(1);  // absent before mixtures: one Gaussian per class
  if (auto status = h.learner.validate(); !status) return bad("manifest model: " + status.error().message, "model");
  auto classes = wholeNumber(model, "classes", 2, "model");
  auto inputDim = wholeNumber(model, "input_dim", 1, "model");
  auto rawDim = wholeNumber(m, "input_dim", 1, "");
  auto rows = wholeNumber(m["training"].toObject(), "train_rows", 1, "training");
  for (const auto* r : {&classes, &inputDim, &rawDim, &rows})
    if (!*r) return r->error();
  h.classes = static_cast<Index>(classes.value());
  h.modelInputDim = static_cast<Index>(inputDim.value());
  h.trainRows = rows.value();
  if (m["classes"].toArray().size() != h.classes)
    return bad("lists " + std::to_string(m["classes"].toArray().size()) + " class names for a model of " +
                   std::to_string(h.classes) + " classes",
               "classes");
  if (rawDim.value() != pre.inputDim)
    return bad("input_dim " + std::to_string(rawDim.value()) + " differs from the preprocessing's " +
                   std::to_string(pre.inputDim),
               "input_dim");
  if (h.modelInputDim != pre.outputDim)
    return bad("the model reads " + std::to_string(h.modelInputDim) + " features but the preprocessing gives " +
                   std::to_string(pre.outputDim),
               "model.input_dim");
  return h;
}

const NpyArray* findArray(const BundleContents& contents, const QJsonObject& model) {
  const auto it = contents.arrays.find(model["parameters"].toString().toStdString());
  return it == contents.arrays.end() ? nullptr : &it->second;
}

Result<BundleModel> releasedModel(const BundleContents& contents, const Header& h) {
  const QJsonObject modelJson = contents.manifest["model"].toObject();
  auto model = makeModel(h.learner, h.modelInputDim, h.classes);
  if (!model) return bad("manifest model: " + model.error().message, "model");
  if (modelStructure(*model.value()) != modelJson["structure"].toString())
    return bad("structure '" + modelJson["structure"].toString().toStdString() + "' does not fit a " +
                   modelKindName(h.learner.kind) + " model of " + std::to_string(h.classes) + " classes",
               "model.structure");
  const std::string name = parameterArrayName(*model.value());
  if (modelJson["parameters"].toString().toStdString() != name)
    return bad("names array '" + modelJson["parameters"].toString().toStdString() + "', but a " +
                   modelStructure(*model.value()).toStdString() + " model stores '" + name + "'",
               "model.parameters");
  const NpyArray* array = findArray(contents, modelJson);
  if (!array) return bad("the model's parameters are missing", name + ".npy");
  auto theta = parametersFromArray(*model.value(), *array, name + ".npy");
  if (!theta) return theta.error();
  return BundleModel{model.value(), std::move(theta).value()};
}

Result<long long> answersUsed(const QJsonObject& m, long long budget) {
  const QJsonObject inference = m["inference"].toObject();
  auto stored = wholeNumber(inference, "budget", 1, "inference");
  auto used = wholeNumber(inference, "answers_used", 0, "inference");
  if (!stored) return stored.error();
  if (!used) return used.error();
  if (stored.value() != budget)
    return bad("budget " + std::to_string(stored.value()) + " differs from the options' " + std::to_string(budget),
               "inference.budget");
  if (auto status = predict::AnswerBudget::checkUsed(budget, used.value()); !status)
    return bad("answers_used " + std::to_string(used.value()) + " is outside 0.." + std::to_string(budget),
               "inference.answers_used");
  return used.value();
}

// inference.budget_id: a non-zero 64-bit decimal string. A bundle written before budget ids
// has none: it gets a new one, stored in the manifest so that the next rewrite keeps it.
Result<std::uint64_t> storedBudgetId(QJsonObject& m) {
  QJsonObject inference = m["inference"].toObject();
  const QJsonValue stored = inference["budget_id"];
  if (stored.isUndefined()) {
    const std::uint64_t id = predict::newBudgetId();
    inference["budget_id"] = QString::number(id);
    m["inference"] = inference;
    return id;
  }
  bool ok = false;
  const std::uint64_t id = stored.toString().toULongLong(&ok);
  if (!stored.isString() || !ok || id == 0) return bad("must be a non-zero decimal string", "inference.budget_id");
  return id;
}

Result<predict::PredictionOptions> storedOptions(const QJsonObject& m) {
  auto options = predict::predictionOptionsFromJson(m["training"].toObject()["options"].toObject());
  if (!options) return bad("manifest training.options: " + options.error().message, "training.options");
  return options;
}

Result<predict::PrivatePredictor> sensitivityPredictor(const BundleContents& contents, const Header& h,
                                                       std::uint64_t budgetId) {
  auto options = storedOptions(contents.manifest);
  if (!options) return options.error();
  auto model = makeModel(options.value().learner, h.modelInputDim, h.classes);
  if (!model) return bad("manifest training.options: " + model.error().message, "training.options");
  const NpyArray* array = findArray(contents, contents.manifest["model"].toObject());
  if (!array) return bad("the predictor's parameters are missing", "theta_star.npy");
  auto theta = parametersFromArray(*model.value(), *array, "theta_star.npy");
  if (!theta) return theta.error();
  auto used = answersUsed(contents.manifest, options.value().budget);
  if (!used) return used.error();
  auto restored = predict::PrivatePredictor::restore(options.value(), h.trainRows, h.modelInputDim, h.classes,
                                                     std::move(theta).value(), used.value(), {}, budgetId);
  if (!restored) return bad("the stored predictor cannot be restored: " + restored.error().message, "training.options");
  if (auto status = checkStoredCalibration(contents.manifest["privacy"].toObject(), restored.value().report()); !status)
    return status.error();
  return restored;
}

Result<predict::SubsampleAggregate> subsamplePredictor(const BundleContents& contents, const Header& h,
                                                       std::uint64_t budgetId) {
  auto options = storedOptions(contents.manifest);
  if (!options) return options.error();
  auto model = makeModel(options.value().learner, h.modelInputDim, h.classes);
  if (!model) return bad("manifest training.options: " + model.error().message, "training.options");
  const auto it = contents.arrays.find("teachers");
  if (it == contents.arrays.end()) return bad("the predictor's teachers are missing", "teachers.npy");
  const NpyArray& flat = it->second;
  if (flat.oneDimensional || flat.values.rows() != options.value().teachers ||
      flat.values.cols() != model.value()->parameterCount())
    return bad("has shape " + flat.shapeText() + ", but " + std::to_string(options.value().teachers) +
                   " teachers of " + std::to_string(model.value()->parameterCount()) + " parameters need (" +
                   std::to_string(options.value().teachers) + ", " +
                   std::to_string(model.value()->parameterCount()) + ")",
               "teachers.npy");
  auto ensemble = std::make_shared<predict::TeacherEnsemble>();
  ensemble->model = model.value();
  for (Index t = 0; t < flat.values.rows(); ++t) ensemble->thetas.push_back(flat.values.row(t).transpose());
  ensemble->trainRows = static_cast<Index>(h.trainRows);
  ensemble->partRows = static_cast<Index>(h.trainRows) / options.value().teachers;
  auto used = answersUsed(contents.manifest, options.value().budget);
  if (!used) return used.error();
  auto restored = predict::SubsampleAggregate::restore(options.value(), ensemble, used.value(), budgetId);
  if (!restored) return bad("the stored predictor cannot be restored: " + restored.error().message, "training.options");
  if (auto status = checkStoredCalibration(contents.manifest["privacy"].toObject(), restored.value().report()); !status)
    return status.error();
  return restored;
}

}  // namespace

std::optional<long long> LoadedBundle::budget() const {
  if (const auto* f = std::get_if<predict::PrivatePredictor>(&predictor)) return f->budget();
  if (const auto* g = std::get_if<predict::SubsampleAggregate>(&predictor)) return g->budget();
  return std::nullopt;
}

std::optional<long long> LoadedBundle::budgetRemaining() const {
  if (const auto* f = std::get_if<predict::PrivatePredictor>(&predictor)) return f->remaining();
  if (const auto* g = std::get_if<predict::SubsampleAggregate>(&predictor)) return g->remaining();
  return std::nullopt;
}

Result<LoadedBundle> readBundle(const QString& path, const ZipLimits& limits) {
  auto contents = readBundleArchive(path, limits);
  if (!contents) {
    Error error = contents.error();
    if (error.source.empty()) error.source = path.toStdString();
    return error;
  }
  auto withPath = [&](Error error) {
    error.source = path.toStdString();
    return error;
  };
  LoadedBundle out;
  out.contents = std::move(contents).value();
  const QJsonObject& m = out.contents.manifest;
  auto pre = preprocessingFromManifest(m["preprocessing"].toObject(), out.contents.arrays);
  if (!pre) return withPath(pre.error());
  out.preprocessor = std::move(pre).value();
  out.classNames = stringList(m["classes"]);
  if (m["data_schema"].isObject()) {
    auto schema = schemaFromJson(m["data_schema"].toObject(), "manifest.json data_schema");
    if (!schema) return withPath(Error{ErrorKind::BadBundle, schema.error().message, {}, 0, "data_schema." + schema.error().field});
    out.schema = std::move(schema).value();
  }
  auto header = readHeader(m, out.preprocessor);
  if (!header) return withPath(header.error());

  const QString kind = m["kind"].toString();
  if (kind == "prediction-sensitivity" || kind == "subsample-aggregate") {
    auto id = storedBudgetId(out.contents.manifest);
    if (!id) return withPath(id.error());
    out.budgetId = id.value();
  }
  if (kind == "model") {
    auto model = releasedModel(out.contents, header.value());
    if (!model) return withPath(model.error());
    out.predictor = std::move(model).value();
  } else if (kind == "prediction-sensitivity") {
    auto predictor = sensitivityPredictor(out.contents, header.value(), *out.budgetId);
    if (!predictor) return withPath(predictor.error());
    out.predictor = std::move(predictor).value();
  } else if (kind == "subsample-aggregate") {
    auto predictor = subsamplePredictor(out.contents, header.value(), *out.budgetId);
    if (!predictor) return withPath(predictor.error());
    out.predictor = std::move(predictor).value();
  } else {
    return withPath(bad("manifest field kind '" + kind.toStdString() +
                            "' is not model, prediction-sensitivity or subsample-aggregate",
                        "kind"));
  }
  return out;
}

BundleContents currentContents(const LoadedBundle& loaded) {
  BundleContents contents = loaded.contents;
  const auto budget = loaded.budget();
  if (!budget) return contents;
  QJsonObject inference = contents.manifest["inference"].toObject();
  inference["answers_used"] = static_cast<qint64>(*budget - *loaded.budgetRemaining());
  inference["budget_remaining"] = static_cast<qint64>(*loaded.budgetRemaining());
  contents.manifest["inference"] = inference;
  contents.modelCard = modelCard(contents.manifest);
  return contents;
}

Status writeBundle(const BundleContents& contents, const QString& path, const BeforeCommit& beforeCommit) {
  return writeBundleArchive(contents, path, beforeCommit);
}

Result<BundlePredictions> predict(LoadedBundle& loaded, const Eigen::MatrixXd& rawX, privacy::NoiseSource& noise,
                                  privacy::PrivacyLedger* ledger) {
  if (rawX.cols() != loaded.preprocessor.inputDim)
    return Error::badData("the data have " + std::to_string(rawX.cols()) + " features but the model reads " +
                          std::to_string(loaded.preprocessor.inputDim));
  const Eigen::MatrixXd X = loaded.preprocessor.transform(rawX);
  BundlePredictions out;
  if (auto* model = std::get_if<BundleModel>(&loaded.predictor)) {
    out.scores = model->model->scores(model->theta, X);
    out.labels = model->model->predict(model->theta, X);
    return out;
  }
  if (auto* f = std::get_if<predict::PrivatePredictor>(&loaded.predictor)) {
    auto answers = f->answerRows(X, noise, ledger);
    if (!answers) return answers.error();
    const auto n = static_cast<Index>(answers.value().size());
    out.labels.resize(n);
    out.scores.resize(n, n > 0 ? answers.value().front().scores.size() : 0);
    for (Index i = 0; i < n; ++i) {
      const auto& a = answers.value()[static_cast<std::size_t>(i)];
      out.labels[i] = static_cast<int>(a.label);
      out.scores.row(i) = a.scores.transpose();
    }
    out.answersSpent = n;
    return out;
  }
  auto& g = std::get<predict::SubsampleAggregate>(loaded.predictor);
  auto answers = g.answerRows(X, noise, ledger);
  if (!answers) return answers.error();
  const auto n = static_cast<Index>(answers.value().size());
  out.labels.resize(n);
  for (Index i = 0; i < n; ++i) out.labels[i] = static_cast<int>(answers.value()[static_cast<std::size_t>(i)].label);
  out.scores.resize(n, 0);
  out.answersSpent = n;
  return out;
}

}  // namespace dpstudio::bundle

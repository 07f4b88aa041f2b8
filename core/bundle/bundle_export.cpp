#include "core/bundle/bundle_export.h"

#include "core/io/schema_json.h"

#include <QJsonArray>

#include "core/bundle/bundle_parameters.h"
#include "core/bundle/bundle_preprocessing.h"
#include "core/bundle/bundle_privacy.h"
#include "core/bundle/manifest_fields.h"
#include "core/bundle/model_card.h"
#include "core/mechanisms/selection.h"
#include "core/models/linear.h"
#include "core/prediction/predictor_json.h"
#include "core/util/overloaded.h"

namespace dpstudio::bundle {
namespace {

QJsonObject learnerJson(const LearnerSpec& learner) {
  QJsonObject out{{"model", QString::fromStdString(modelKindName(learner.kind))},
                  {"lambda", learner.lambda},
                  {"huber", learner.huber}};
  if (learner.kind == ModelKind::Lmgc) out["components"] = learner.components;
  return out;
}

QJsonObject multipartyOptionsJson(const multiparty::MultipartyOptions& o) {
  QJsonArray fractions;
  for (double f : o.fractions) fractions.append(f);
  return QJsonObject{{"model", QString::fromStdString(modelKindName(o.model))},
                     {"lambda", o.lambda},
                     {"huber", o.huber},
                     {"epsilon", o.epsilon},
                     {"parties", static_cast<qint64>(o.partyCount())},
                     {"fractions", fractions},
                     {"calibration", QString::fromStdString(mech::calibrationName(o.calibration))},
                     {"partition_seed", seedText(o.partitionSeed)}};
}

QJsonObject modelJson(const Model& model, const LearnerSpec& learner, const std::string& parameters) {
  QJsonObject out{{"kind", QString::fromStdString(modelKindName(model.kind()))},
                     {"name", QString::fromStdString(modelLongName(model.kind()))},
                     {"structure", modelStructure(model)},
                     {"input_dim", static_cast<qint64>(model.inputDim())},
                     {"classes", static_cast<qint64>(model.classes())},
                     {"lambda", learner.lambda},
                     {"huber", learner.huber},
                     {"parameters", QString::fromStdString(parameters)},
                     {"score", scoreRule(model)}};
  if (model.kind() == ModelKind::Lmgc) out["components"] = learner.components;
  return out;
}

bool isOneVsRest(const Model& model) { return dynamic_cast<const OneVsRestModel*>(&model) != nullptr; }

// What the three kinds of bundle put in "model", the arrays, "inference" and "training".
struct Payload {
  QString kind;  // "model", "prediction-sensitivity", "subsample-aggregate"
  QJsonObject model;
  QJsonObject inference;  // empty unless stateful
  QJsonObject options;
  mech::MechanismReport report;
  std::string nonPrivateParameters;  // why they are there, for the privacy statement
  bool oneVsRest = false;
};

Payload releasedModel(const TrainedModel& trained, const LearnerSpec& learner, const mech::MechanismReport& report,
                      bool isPrivate, std::map<std::string, NpyArray>& arrays, QJsonObject& arrayInfo) {
  const Model& model = *trained.model;
  const std::string name = parameterArrayName(model);
  arrays[name] = parametersToArray(model, trained.theta);
  arrayInfo[QString::fromStdString(name)] = QJsonObject{
      {"private", isPrivate},
      {"meaning", isPrivate ? "the released model's parameters: the output of the mechanism"
                            : "the model's parameters, trained without a privacy mechanism (NOT private)"}};
  Payload out;
  out.kind = "model";
  out.model = modelJson(model, learner, name);
  out.report = report;
  out.oneVsRest = isOneVsRest(model);
  return out;
}

// budget_id: the budget's own id (AnswerBudget::id()), a decimal string (64 bits do not fit a
// JSON number). The ledger names the budget by it, so that answers this bundle gives later,
// in any process, are counted against the entry its first answer opened.
QJsonObject inferenceJson(long long budget, long long used, std::uint64_t budgetId) {
  return QJsonObject{{"budget", static_cast<qint64>(budget)},
                     {"budget_id", QString::number(budgetId)},
                     {"answers_used", static_cast<qint64>(used)},
                     {"budget_remaining", static_cast<qint64>(budget - used)},
                     {"noise_source", "answers draw their noise when asked (release: the OS CSPRNG, by default)"}};
}

Payload sensitivityPredictor(const predict::PrivatePredictor& p, std::map<std::string, NpyArray>& arrays,
                             QJsonObject& arrayInfo) {
  arrays["theta_star"] = parametersToArray(p.model(), p.theta());
  arrayInfo["theta_star"] = QJsonObject{
      {"private", false},
      {"meaning", "theta*, the exact minimizer trained WITHOUT noise (NOT private): only the predictor's noisy "
                  "answers are private, within the budget; laid out as " +
                      QString::fromStdString(parameterArrayName(p.model()))}};
  Payload out;
  out.kind = "prediction-sensitivity";
  out.model = modelJson(p.model(), p.options().learner, "theta_star");
  out.inference = inferenceJson(p.budget(), p.used(), p.budgetId());
  out.options = predict::predictionOptionsToJson(p.options());
  out.report = p.report();
  out.nonPrivateParameters =
      "theta_star is NOT private: it is stored only so that this bundle can answer, each answer private within the "
      "budget; do not publish the bundle itself";
  return out;
}

Payload subsamplePredictor(const predict::SubsampleAggregate& p, std::map<std::string, NpyArray>& arrays,
                           QJsonObject& arrayInfo) {
  const predict::TeacherEnsemble& teachers = p.teachers();
  Eigen::MatrixXd flat(teachers.teachers(), teachers.model->parameterCount());
  for (Index t = 0; t < teachers.teachers(); ++t) flat.row(t) = teachers.thetas[static_cast<std::size_t>(t)].transpose();
  arrays["teachers"] = NpyArray{flat, false};
  arrayInfo["teachers"] = QJsonObject{
      {"private", false},
      {"meaning", "the T teachers' parameters, one flat theta per row, trained WITHOUT noise (NOT private): only "
                  "the predictor's sampled labels are private, within the budget"}};
  Payload out;
  out.kind = "subsample-aggregate";
  out.model = modelJson(*teachers.model, p.options().learner, "teachers");
  out.model["teachers"] = static_cast<qint64>(teachers.teachers());
  out.model["part_rows"] = static_cast<qint64>(teachers.partRows);
  out.inference = inferenceJson(p.budget(), p.used(), p.budgetId());
  out.options = predict::predictionOptionsToJson(p.options());
  out.report = p.report();
  out.nonPrivateParameters =
      "teachers are NOT private: they are stored only so that this bundle can answer, each answer private within "
      "the budget; do not publish the bundle itself";
  return out;
}

}  // namespace

QJsonObject mechanismOptionsJson(const mech::MechanismOptions& o) {
  QJsonObject out{{"mechanism", QString::fromStdString(mech::mechanismName(o.kind))},
                  {"epsilon", o.epsilon},
                  {"delta", o.delta},
                  {"distribution", QString::fromStdString(mech::noiseFamilyName(o.family))},
                  {"calibration", QString::fromStdString(mech::calibrationName(o.calibration))}};
  if (o.learner.kind == ModelKind::Lmgc) out["lmgc_strong_convexity"] = o.lmgcStrongConvexity;
  if (o.kind == mech::MechanismKind::DpSgd) {
    // With the schedule from the problem the batch, epochs and averaged share were not the
    // given ones: the mechanism's report has the q and T it used.
    const auto scheduled = [&](QJsonValue given) {
      return o.sgd.scheduleFromProblem ? QJsonValue("from the problem") : given;
    };
    out["dpsgd"] = QJsonObject{{"batch_size", scheduled(static_cast<qint64>(o.sgd.batchSize))},
                               {"clip_norm", o.sgd.clipNorm},
                               {"epochs", scheduled(o.sgd.epochs)},
                               {"learning_rate", o.sgd.learningRate ? QJsonValue(*o.sgd.learningRate)
                                                                    : QJsonValue("from the problem")},
                               {"noise_multiplier", o.sgd.noiseMultiplier ? QJsonValue(*o.sgd.noiseMultiplier)
                                                                          : QJsonValue::Null},
                               {"step_estimate_share", o.sgd.stepEstimateShare},
                               {"averaged_tail", scheduled(o.sgd.averagedTail)},
                               {"momentum", o.sgd.momentum ? QJsonValue(*o.sgd.momentum) : scheduled(0.0)}};
  }
  return out;
}

PrivacyContext privacyContext(const experiment::PrivacyPlan& plan, const PreparedData& data,
                              const privacy::NoiseProvenance& noise) {
  PrivacyContext context;
  context.mechanismKey = plan.key();
  context.noise = std::holds_alternative<experiment::PrivatePrediction>(plan.choice) ? privacy::NoiseKind::Release
                                                                                      : noise.kind;
  context.classes = data.train.classes();
  // Provenance::notPrivate holds the preprocessor's fitted steps and what the loader read
  // off the file (a CSV's categories), so nothing fitted on the data is missed here.
  context.dataDependentSteps = data.train.provenance.notPrivate;
  context.structureFromData = data.train.provenance.structureFromData;
  if (const auto* m = std::get_if<experiment::TrainingMechanism>(&plan.choice)) context.tuned = !m->tuneLambdas.empty();
  return context;
}

Result<BundleContents> bundleFromPlanRun(const experiment::PrivacyPlan& plan, const experiment::PlanRun& run,
                                         const PreparedData& data, const privacy::NoiseProvenance& noise) {
  BundleContents contents;
  QJsonObject arrayInfo;
  const LearnerSpec learner = plan.learner();
  const Dataset& train = data.train;
  PrivacyContext context = privacyContext(plan, data, noise);

  Payload payload;
  QJsonObject training{{"train_rows", static_cast<qint64>(train.rows())},
                       {"learner", learnerJson(learner)},
                       {"solver", QJsonObject{{"tolerance", plan.solver.tolerance},
                                              {"max_iterations", plan.solver.maxIterations}}}};
  const bool ok = std::visit(
      Overloaded{
          [&](const experiment::NonPrivate&) {
            auto none = plan.calibrate({train.rows(), train.features(), train.classes()});
            if (!none) return false;
            payload = releasedModel(run.baseline.model, learner, none.value(), false, contents.arrays, arrayInfo);
            return true;
          },
          [&](const experiment::TrainingMechanism& m) {
            if (!run.release) return false;
            if (m.selection) {
              // The released run's own options: the candidate list is a function of public
              // numbers (selection.h), so the chosen index names them.
              auto selection = mech::planSelection({m.options, *m.selection}, {train.rows(), train.features(), train.classes()});
              const auto chosen = run.release->report.find(mech::Calibrated::ChosenIndex);
              if (!selection || !chosen || *chosen < 1 || *chosen > static_cast<double>(selection.value().candidates.size()))
                return false;
              const mech::MechanismOptions& candidate = selection.value().candidates[static_cast<std::size_t>(*chosen) - 1];
              payload = releasedModel(run.release->model, candidate.learner, run.release->report, true, contents.arrays,
                                      arrayInfo);
              payload.options = mechanismOptionsJson(candidate);
              training["learner"] = learnerJson(candidate.learner);
              training["selection"] = QJsonObject{
                  {"candidates", static_cast<qint64>(selection.value().candidates.size())},
                  {"mean_runs", selection.value().meanRuns},
                  {"run_law", m.selection->law == mech::RunLaw::Geometric ? "geometric" : "logarithmic"}};
              return true;
            }
            payload = releasedModel(run.release->model, learner, run.release->report, true, contents.arrays, arrayInfo);
            payload.options = mechanismOptionsJson(m.options);
            if (context.tuned) {
              QJsonArray candidates;
              for (double lambda : m.tuneLambdas) candidates.append(lambda);
              training["tune_lambdas"] = candidates;
            }
            return true;
          },
          [&](const experiment::PrivatePrediction&) {
            if (!run.prediction) return false;
            payload = run.prediction->isSubsample()
                          ? subsamplePredictor(std::get<predict::SubsampleAggregate>(run.prediction->predictor),
                                               contents.arrays, arrayInfo)
                          : sensitivityPredictor(std::get<predict::PrivatePredictor>(run.prediction->predictor),
                                                 contents.arrays, arrayInfo);
            return true;
          },
          [&](const experiment::Multiparty& m) {
            if (!run.release) return false;
            payload = releasedModel(run.release->model, learner, run.release->report, true, contents.arrays, arrayInfo);
            payload.options = multipartyOptionsJson(m.options);
            return true;
          },
      },
      plan.choice);
  if (!ok) return Error{ErrorKind::Internal, "the run holds no result of its plan's kind to export", {}, 0, {}};
  context.oneVsRest = payload.oneVsRest;
  context.nonPrivateParameters = payload.nonPrivateParameters;
  if (!payload.options.isEmpty()) training["options"] = payload.options;

  QJsonObject& m = contents.manifest;
  m["format"] = kFormatName;
  m["version"] = kFormatVersion;
  m["producer"] = QJsonObject{{"name", "dpstudio"}, {"version", DPSTUDIO_VERSION}};
  m["kind"] = payload.kind;
  m["classes"] = stringArray(train.classNames);
  m["input_dim"] = static_cast<qint64>(data.preprocessor.inputDim);
  m["model"] = payload.model;
  m["preprocessing"] = preprocessingToManifest(data.preprocessor, contents.arrays, arrayInfo);
  // The declared layout the rows were read by: predict reads new rows by it (a categorical
  // column's indicators in the same order whatever values a new file holds).
  if (data.schema) m["data_schema"] = schemaToJson(*data.schema);
  m["privacy"] = privacyStatement(payload.report, context);
  // At the top level too, where no reader can miss it (issue 30 bug 6): whether the bundle
  // as a whole is private, and what its guarantee covers.
  m["private"] = m["privacy"].toObject()["private"];
  m["guarantee_covers"] = m["privacy"].toObject()["covers"];
  if (!payload.inference.isEmpty()) m["inference"] = payload.inference;
  m["training"] = training;
  m["arrays"] = arrayInfo;
  recordArrayShapes(contents);
  contents.modelCard = modelCard(m);
  return contents;
}

}  // namespace dpstudio::bundle

#include <QJsonArray>

#include <chrono>

#include "app/cli/cli_common.h"
#include "core/learn/learner.h"

namespace dpstudio::cli {
namespace {

QJsonArray toJsonArray(const std::vector<std::string>& items) {
  QJsonArray out;
  for (const auto& item : items) out.append(QString::fromStdString(item));
  return out;
}

}  // namespace

int runTrain(const QStringList& args) {
  Command command("train",
                  "Train a model, with or without a privacy mechanism, and report its accuracy.",
                  "");
  command.addTrainingDataOptions();
  command.parser().addOptions({
      {"model", "Model: logreg, huber, softmax or lmgc.", "M"},
      {"mechanism", "Privacy mechanism: none (the non-private baseline).", "X", "none"},
      {"lambda", "Regularization strength (default 1e-4; LMGC: weight of the trace term).", "L"},
      {"huber", "Huber hinge width h for huber and lmgc (default 0.5).", "H"},
      {"tolerance", "Relative gradient tolerance of the optimizer (default 1e-8).", "TOL"},
      {"max-iterations", "Iteration limit of the optimizer (default 3000).", "N"},
  });
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  if (!command.parser().positionalArguments().isEmpty())
    return command.usageError("train takes no positional arguments (use --train DATA)");

  const auto& parser = command.parser();
  const auto kind = parseModelKind(parser.value("model").toStdString());
  if (!kind) return command.fail({ErrorKind::Usage, "choose logreg, huber, softmax or lmgc", {}, 0, "model"});
  const QString mechanism = parser.value("mechanism");
  if (mechanism != "none")
    return command.fail({ErrorKind::Usage, "unknown mechanism '" + mechanism.toStdString() + "'", {}, 0, "mechanism"});

  LearnerSpec spec;
  spec.kind = *kind;
  auto lambda = command.number("lambda", spec.lambda);
  auto huber = command.number("huber", spec.huber);
  auto tolerance = command.number("tolerance", 1e-8);
  auto maxIterations = command.integer("max-iterations", 3000, 1);
  for (const auto* r : {&lambda, &huber, &tolerance})
    if (!*r) return command.fail(r->error());
  if (!maxIterations) return command.fail(maxIterations.error());
  spec.lambda = lambda.value();
  spec.huber = huber.value();
  if (auto status = spec.validate(); !status) return command.fail(status.error());

  auto request = command.dataRequest();
  if (!request) return command.fail(request.error());
  auto prepared = prepareData(request.value());
  if (!prepared) return command.fail(prepared.error());
  const Dataset& train = prepared.value().train;
  const Dataset& test = prepared.value().test;

  TrainControl control;
  control.tolerance = tolerance.value();
  control.maxIterations = static_cast<int>(maxIterations.value());
  const auto start = std::chrono::steady_clock::now();
  auto trained = trainModel(spec, train.X, train.y, train.classes(), control);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!trained) return command.fail(trained.error());
  const TrainedModel& model = trained.value();
  const double trainAccuracy = accuracy(*model.model, model.theta, train.X, train.y);
  const bool hasTest = test.rows() > 0;
  const double testAccuracy = hasTest ? accuracy(*model.model, model.theta, test.X, test.y) : 0.0;
  const OptimizeSummary& summary = model.summary;
  const std::string statement = "not private: trained without a privacy mechanism";

  if (command.json()) {
    QJsonObject out{
        {"model", QString::fromStdString(modelKindName(spec.kind))},
        {"mechanism", "none"},
        {"calibration", "none"},
        {"epsilon", QJsonValue::Null},
        {"delta", QJsonValue::Null},
        {"lambda", spec.lambda},
        {"train_accuracy", trainAccuracy},
        {"test_accuracy", hasTest ? QJsonValue(testAccuracy) : QJsonValue::Null},
        {"train_rows", static_cast<qint64>(train.rows())},
        {"test_rows", static_cast<qint64>(test.rows())},
        {"features", static_cast<qint64>(train.features())},
        {"classes", static_cast<qint64>(train.classes())},
        {"seconds", seconds},
        {"objective", summary.objective},
        {"iterations", summary.iterations},
        {"gradient_norm", summary.gradientNorm},
        {"termination", QString::fromStdString(terminationName(summary.termination))},
        {"preprocessing", toJsonArray(train.provenance.steps)},
        {"not_private", toJsonArray(train.provenance.notPrivate)},
        {"report", QJsonObject{{"noise", "none"}, {"statement", QString::fromStdString(statement)}}},
    };
    if (spec.kind == ModelKind::HuberSvm || spec.kind == ModelKind::Lmgc) out["huber"] = spec.huber;
    command.printJson(out);
    return kOk;
  }
  printText(QString("model           %1 (lambda %2)").arg(QString::fromStdString(modelKindName(spec.kind))).arg(spec.lambda));
  printText(QString("data            %1 train rows, %2 test rows, %3 features, %4 classes")
                .arg(train.rows()).arg(test.rows()).arg(train.features()).arg(train.classes()));
  for (const auto& step : train.provenance.steps) printText("preprocessing   " + QString::fromStdString(step));
  for (const auto& note : train.provenance.notPrivate) printText("NOT PRIVATE     " + QString::fromStdString(note));
  printText(QString("optimizer       %1 after %2 iterations, objective %3, gradient norm %4")
                .arg(QString::fromStdString(terminationName(summary.termination)))
                .arg(summary.iterations).arg(summary.objective, 0, 'g', 10).arg(summary.gradientNorm, 0, 'g', 3));
  printText(QString("train accuracy  %1").arg(trainAccuracy, 0, 'f', 4));
  if (hasTest) printText(QString("test accuracy   %1").arg(testAccuracy, 0, 'f', 4));
  printText(QString("seconds         %1").arg(seconds, 0, 'f', 3));
  printText("privacy         " + QString::fromStdString(statement));
  return kOk;
}

}  // namespace dpstudio::cli

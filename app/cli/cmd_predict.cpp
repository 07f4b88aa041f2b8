// `predict --model FILE.dpmodel --data DATA [--out preds.csv] [--json]`: the bundle's
// preprocessing and model applied to DATA's rows (docs/cli.md, issue 12).
//
// A stateful private predictor (prediction sensitivity, subsample-and-aggregate) answers
// every row or none: more rows than its budget has left is refused as a whole (exit 4),
// nothing drawn, nothing written. Otherwise the bundle is rewritten atomically with the new
// count BEFORE any answer is printed or written, so that answers are never released without
// the budget recording them; if the rewrite fails, nothing is shown. With --ledger the
// answers are recorded in the ledger before they are drawn (bundle_answering.h): an entry of
// this session under the bundle's budget id, at ε = 0 when the ledger has opened the budget
// (the training run that exported the bundle, an earlier predict), else opening it with its
// whole (ε, δ). The ledger sums the answers of every session and every copy of the bundle
// and refuses rows that would take the sum past B (exit 4, nothing drawn, nothing written).
// Without --ledger the bundle's own count is all there is: a copy can be answered again.

#include <QSaveFile>
#include <QTextStream>

#include "app/cli/cli_common.h"
#include "app/cli/ledger_option.h"
#include "app/cli/mechanism_options.h"
#include "core/bundle/bundle_answering.h"
#include "core/sources/source.h"

namespace dpstudio::cli {
namespace {

// Rows to predict: DATA with its labels (scored), or — with --unlabelled, or when DATA's
// columns are exactly the model's inputs — every column a feature. A CSV of new rows has no
// label column, and a labelled file of one class is still a file to score (issue 32 item 5).
Result<Dataset> rowsToPredict(Command& command, LoadOptions options, Index inputDim) {
  const std::string spec = command.parser().value("data").toStdString();
  if (command.parser().isSet("unlabelled")) {
    options.labelUse = LabelUse::None;
    return openDataset(spec, options);
  }
  options.labelUse = LabelUse::Evaluation;
  auto labelled = openDataset(spec, options);
  if (labelled && labelled.value().features() == inputDim) return labelled;
  // A label column the user named is there; one the schema names may be absent from new rows.
  if (command.parser().isSet("label-column")) return labelled;
  LoadOptions unlabelled = options;
  unlabelled.labelUse = LabelUse::None;
  auto features = openDataset(spec, unlabelled);
  if (features && features.value().features() == inputDim) {
    const std::string why = options.schema && !options.schema->labelColumn.empty()
                                ? "the file has no label column '" + options.schema->labelColumn + "' (the schema's)"
                                : "the file's " + std::to_string(inputDim) + " columns are the model's inputs";
    features.value().provenance.warnings.push_back("read without labels: " + why +
                                                   " (say --unlabelled to skip this guess, or --label-column to name one)");
    return features;
  }
  // Neither reading worked: the one that got as far as the rows says what is wrong with them
  // (a category the schema does not declare), not that a label column is missing.
  if (!labelled && labelled.error().line == 0 && !features && features.error().line > 0) return features;
  return labelled;
}

Status writePredictions(const QString& path, const Dataset& data, const bundle::BundlePredictions& predictions,
                        const std::vector<std::string>& classNames) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
    return Error{ErrorKind::Internal, "cannot write predictions: " + file.errorString().toStdString(),
                 path.toStdString(), 0, {}};
  QTextStream out(&file);
  out << (data.labelled ? "row,predicted,label\n" : "row,predicted\n");
  for (Index i = 0; i < predictions.labels.size(); ++i) {
    out << (i + 1) << ',' << QString::fromStdString(classNames[static_cast<std::size_t>(predictions.labels[i])]);
    if (data.labelled) out << ',' << QString::fromStdString(data.classNames[static_cast<std::size_t>(data.y[i])]);
    out << '\n';
  }
  out.flush();
  if (!file.commit())
    return Error{ErrorKind::Internal, "cannot write predictions: " + file.errorString().toStdString(),
                 path.toStdString(), 0, {}};
  return Ok{};
}

}  // namespace

int runPredict(const QStringList& args) {
  Command command("predict",
                  "Predict with a model bundle (.dpmodel): applies its preprocessing to DATA's rows and prints the "
                  "labels, the accuracy against DATA's labels and, for a private predictor, the budget left (each "
                  "row spends one answer, recorded in the bundle). A bundle keeps its own count, so a copy of it "
                  "can be answered again: use --ledger, which adds up the answers of every copy and session of "
                  "the budget and refuses past it (exit 4).",
                  "");
  command.addDataOptions();
  addNoiseOptions(command.parser());
  command.parser().addOptions({
      {"model", "The model bundle.", "FILE"},
      {"data",
       "The rows to predict: a file or builtin:NAME. With labels they are scored too; a CSV whose columns are "
       "exactly the model's inputs is read without labels.",
       "DATA"},
      {"unlabelled", "DATA has no label column: every column is a feature (CSV)."},
      {"out", "Write the predictions as CSV (row, predicted[, label]) to this file.", "FILE"},
  });
  addLedgerOptions(command.parser());
  int exitCode = kOk;
  if (!command.parse(args, &exitCode)) return exitCode;
  if (!command.parser().positionalArguments().isEmpty())
    return command.usageError("predict takes no positional arguments (use --model FILE --data DATA)");
  if (!command.parser().isSet("model")) return command.usageError("predict needs --model FILE");
  if (!command.parser().isSet("data")) return command.usageError("predict needs --data DATA");
  auto noiseSpec = noiseChoice(command);
  if (!noiseSpec) return command.fail(noiseSpec.error());
  auto loadOptions = command.loadOptions();
  if (!loadOptions) return command.fail(loadOptions.error());
  auto ledger = CliLedger::open(command, "dpstudio-cli predict");
  if (!ledger) return command.fail(ledger.error());

  const QString modelPath = command.parser().value("model");
  auto loaded = bundle::readBundle(modelPath);
  if (!loaded) return command.fail(loaded.error());
  bundle::LoadedBundle& model = loaded.value();

  LoadOptions options = loadOptions.value();
  // New rows are read as the training rows were: by the bundle's schema, unless one is given.
  if (!options.schema && model.schema) options.schema = model.schema;
  if (options.libsvmFeatures == 0) options.libsvmFeatures = model.inputDim();
  auto opened = rowsToPredict(command, options, model.inputDim());
  if (!opened) return command.fail(opened.error());
  std::vector<std::string> warnings = opened.value().provenance.warnings;
  warnings.insert(warnings.end(), ledger.value().warnings().begin(), ledger.value().warnings().end());
  command.warn(warnings);
  auto noise = privacy::makeNoiseSource(noiseSpec.value().kind, noiseSpec.value().seed);
  if (!noise) return command.fail(noise.error());
  // Stateful predictors: the bundle (and the ledger) record the answers before anything is shown.
  auto answered = bundle::answerDataset(model, modelPath, opened.value(), *noise.value(), ledger.value().session());
  if (!answered) return command.fail(answered.error());
  const bundle::BundlePredictions& p = answered.value().predictions;
  const Dataset& data = answered.value().data;
  if (command.parser().isSet("out"))
    if (auto written = writePredictions(command.parser().value("out"), data, p, model.classNames); !written)
      return command.fail(written.error());
  const Index rows = p.labels.size();
  const std::optional<double> accuracy = answered.value().accuracy;
  const auto remaining = model.budgetRemaining();
  // A private predictor's answers are a release: only the CSPRNG's are private (issue 30
  // bug 1). Experiment answers are replayable by whoever knows the seed, and say so.
  const bool answersDrawNoise = remaining.has_value();
  const bool experimentAnswers = answersDrawNoise && noiseSpec.value().kind == privacy::NoiseKind::Experiment;
  const QString notPrivateAnswers =
      QString("experiment noise (seed %1): whoever knows the seed can replay these answers, so they are NOT private")
          .arg(noiseSpec.value().seed);
  if (command.json()) {
    QJsonArray labels;
    for (Index i = 0; i < rows; ++i)
      labels.append(QString::fromStdString(model.classNames[static_cast<std::size_t>(p.labels[i])]));
    QJsonObject out{{"rows", static_cast<qint64>(rows)},
                    {"accuracy", accuracy ? QJsonValue(*accuracy) : QJsonValue::Null},
                    {"labelled", data.labelled},
                    {"kind", model.kind()},
                    {"predictions", labels}};
    if (remaining) {
      out["budget_remaining"] = static_cast<qint64>(*remaining);
      out["answers_spent"] = static_cast<qint64>(p.answersSpent);
      out["noise_source"] = QString::fromStdString(noise.value()->provenance().kindName());
      out["answers_private"] = !experimentAnswers;
      if (experimentAnswers) out["not_private"] = notPrivateAnswers;
    }
    if (!warnings.empty()) out["warnings"] = toJsonArray(warnings);
    out["ledger"] = ledger.value().json();
    command.printJson(out);
    return kOk;
  }
  if (!command.parser().isSet("out"))
    for (Index i = 0; i < rows; ++i)
      printText(QString("%1 %2").arg(i + 1).arg(QString::fromStdString(model.classNames[static_cast<std::size_t>(p.labels[i])])));
  printText(QString("rows            %1").arg(rows));
  if (accuracy) printText(QString("accuracy        %1").arg(*accuracy, 0, 'f', 4));
  if (!data.labelled) printText("labels          none in the data: predictions only");
  if (remaining)
    printText(QString("budget          %1 answers spent, %2 of %3 left (recorded in %4)")
                  .arg(p.answersSpent).arg(*remaining).arg(*model.budget()).arg(modelPath));
  if (answersDrawNoise)
    printText("noise source    " + QString::fromStdString(noise.value()->provenance().describe()));
  if (experimentAnswers) printText("NOT PRIVATE     " + notPrivateAnswers);
  ledger.value().print();
  return kOk;
}

}  // namespace dpstudio::cli

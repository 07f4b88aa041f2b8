#include "app/cli/private_prediction_options.h"

#include <limits>

namespace dpstudio::cli {
namespace {

constexpr long long kAnyInteger = std::numeric_limits<long long>::min();

Error usage(const std::string& message, const std::string& field) {
  return Error{ErrorKind::Usage, message, {}, 0, field};
}

// --model, --epsilon, --delta, --lambda, --huber as addMechanismOptions defines them.
Status readCommon(const Command& command, ModelKind* model, double* epsilon, double* delta, double* lambda,
                  double* huber) {
  const auto kind = parseModelKind(command.parser().value("model").toStdString());
  if (!kind) return usage("choose --model logreg, huber, softmax or lmgc", "model");
  *model = *kind;
  // Never silently ignored: private prediction, subsample-and-aggregate and multiparty train
  // one Gaussian per class (their calibrations and bundles assume it).
  if (command.parser().isSet("components") && command.parser().value("components").trimmed() != "1")
    return usage("--components (an LMGC mixture) is for the training mechanisms (none, output, dplmgc, dpsgd), "
                 "not for private prediction, subsample-and-aggregate or multiparty",
                 "components");

  struct NumberOption {
    const char* name;
    double* target;
  };
  for (const NumberOption& option : {NumberOption{"epsilon", epsilon}, {"delta", delta}, {"lambda", lambda},
                                     {"huber", huber}}) {
    auto value = command.number(option.name, *option.target);
    if (!value) return value.error();
    *option.target = value.value();
  }
  return Ok{};
}

Result<mech::Calibration> readCalibration(const Command& command) {
  const auto calibration = mech::parseCalibration(command.parser().value("calibration").toStdString());
  if (!calibration) return usage("use corrected or published", "calibration");
  return *calibration;
}

Result<std::uint64_t> readPartitionSeed(const Command& command) {
  auto seed = command.integer("partition-seed", 1, 0);
  if (!seed) return seed.error();
  return static_cast<std::uint64_t>(seed.value());
}

}  // namespace

void addPrivatePredictionOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"budget", "prediction, subsample: answers B the predictor may give (default 100).", "B"},
      {"evaluation",
       "prediction, subsample: how the test accuracy is measured. experiment (default): a copy of the predictor "
       "answers with experiment noise, NOT private and not charged, so an exported predictor keeps its whole "
       "budget; charged: the predictor itself answers, each answer a release spending its budget.",
       "experiment|charged"},
      {"teachers", "subsample: number of teachers T trained on disjoint parts (default 256).", "T"},
      {"parties", "multiparty: number of parties K (default 5; with --party-split, its count).", "K"},
      {"party-split", "multiparty: fractions of the training rows per party, e.g. 0.15,0.2,0.2,0.2,0.25 "
                      "(default: even).", "F1,F2,.."},
      {"partition-seed", "subsample, multiparty: seed of the data-independent partition (default 1).", "S"},
      {"multiparty-baseline", "multiparty: also release paper 004's all-data DP baseline, a SECOND "
                              "(epsilon, 0)-DP release from the same rows (the run then spends 2 epsilon)."},
  });
}

void addMultipartyProtocolOptions(QCommandLineParser& parser) {
  parser.addOptions({
      {"protocol", "multiparty: who computes the perturbed average: trusted-curator (default; sees every local "
                   "model) or paillier (paper 004's protocol with 2048-bit Paillier keys: no participant sees a "
                   "local model, a party's size or the noise).", "P", "trusted-curator"},
      {"transcript", "multiparty --protocol paillier: write every protocol message (sender, receiver, stage, "
                     "bytes, what it reveals) as JSON to FILE.", "FILE"},
  });
}

Status readMultipartyProtocol(const Command& command, multiparty::MultipartyOptions* options, QString* transcriptPath) {
  const QCommandLineParser& parser = command.parser();
  transcriptPath->clear();
  if (!options) {
    if (parser.isSet("protocol") || parser.isSet("transcript"))
      return usage("--protocol and --transcript apply to --mechanism multiparty only", "protocol");
    return Ok{};
  }
  const QString name = parser.value("protocol");
  if (name == "paillier")
    options->protocol = multiparty::AggregationProtocolKind::Paillier;
  else if (name == "trusted-curator")
    options->protocol = multiparty::AggregationProtocolKind::TrustedCurator;
  else
    return usage("use trusted-curator or paillier, found '" + name.toStdString() + "'", "protocol");
  if (parser.isSet("transcript")) {
    if (options->protocol != multiparty::AggregationProtocolKind::Paillier)
      return usage("--transcript needs --protocol paillier (the trusted curator exchanges no messages)", "transcript");
    *transcriptPath = parser.value("transcript");
    if (transcriptPath->isEmpty()) return usage("--transcript needs a file name", "transcript");
  }
  return Ok{};
}

PrivatePredictionKind privatePredictionKind(const Command& command) {
  const QString name = command.parser().value("mechanism");
  if (name == "multiparty") return PrivatePredictionKind::Multiparty;
  const auto kind = predict::parsePredictionKind(name.toStdString());
  if (!kind) return PrivatePredictionKind::None;
  return *kind == predict::PredictionKind::Sensitivity ? PrivatePredictionKind::Prediction
                                                       : PrivatePredictionKind::Subsample;
}

Result<predict::PredictionOptions> predictionOptions(const Command& command) {
  return predictionOptions(command, command.parser().value("mechanism"));
}

Result<predict::PredictionOptions> predictionOptions(const Command& command, const QString& mechanism) {
  predict::PredictionOptions o;
  const auto kind = predict::parsePredictionKind(mechanism.toStdString());
  if (!kind) return usage("--mechanism must be prediction or subsample here", "mechanism");
  o.kind = *kind;
  if (auto status = readCommon(command, &o.learner.kind, &o.epsilon, &o.delta, &o.learner.lambda, &o.learner.huber);
      !status)
    return status.error();
  const auto family = mech::parseNoiseFamily(command.parser().value("distribution").toStdString());
  if (!family) return usage("use l2-laplace or gaussian", "distribution");
  o.family = *family;
  auto calibration = readCalibration(command);
  if (!calibration) return calibration.error();
  o.calibration = calibration.value();
  auto budget = command.integer("budget", o.budget, kAnyInteger);
  auto teachers = command.integer("teachers", o.teachers, kAnyInteger);
  auto seed = readPartitionSeed(command);
  if (!budget) return budget.error();
  if (!teachers) return teachers.error();
  if (!seed) return seed.error();
  o.budget = budget.value();
  o.teachers = static_cast<Index>(teachers.value());
  o.partitionSeed = seed.value();
  if (auto status = o.validate(); !status) return status.error();
  return o;
}

Result<multiparty::MultipartyOptions> multipartyOptions(const Command& command) {
  multiparty::MultipartyOptions o;
  double delta = 0.0, lambda = 1e-4;
  if (auto status = readCommon(command, &o.model, &o.epsilon, &delta, &lambda, &o.huber); !status)
    return status.error();
  o.lambda = lambda;
  if (delta != 0.0)
    return Error{ErrorKind::InvalidPrivacy, "multiparty aggregation is (epsilon, 0)-DP: leave --delta unset", {}, 0,
                 "delta"};
  auto calibration = readCalibration(command);
  if (!calibration) return calibration.error();
  o.calibration = calibration.value();
  auto parties = command.integer("parties", o.parties, kAnyInteger);
  auto seed = readPartitionSeed(command);
  if (!parties) return parties.error();
  if (!seed) return seed.error();
  o.parties = static_cast<Index>(parties.value());
  o.partitionSeed = seed.value();
  o.allDataBaseline = command.parser().isSet("multiparty-baseline");
  if (command.parser().isSet("party-split")) {
    const QString text = command.parser().value("party-split");
    for (const QString& item : text.split(',')) {
      bool ok = false;
      o.fractions.push_back(item.trimmed().toDouble(&ok));
      if (!ok) return usage("must be a comma-separated list of fractions, found '" + text.toStdString() + "'",
                            "party-split");
    }
    if (command.parser().isSet("parties") && static_cast<Index>(o.fractions.size()) != o.parties)
      return usage("--parties " + std::to_string(o.parties) + " but --party-split lists " +
                       std::to_string(o.fractions.size()) + " fractions",
                   "party-split");
  }
  if (auto status = o.validate(); !status) return status.error();
  return o;
}

}  // namespace dpstudio::cli

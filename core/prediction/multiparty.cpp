#include "core/prediction/multiparty.h"

#include <algorithm>

#include "core/models/linear.h"
#include "core/mechanisms/exact_minimizer.h"
#include "core/prediction/data_contract.h"
#include "core/prediction/paillier_aggregation.h"
#include "core/privacy/validation.h"

namespace dpstudio::multiparty {
namespace {

// The caller's stop token with progress mapped into [offset, offset + share].
TrainControl scaledControl(const TrainControl& control, double offset, double share) {
  TrainControl scaled = control;
  const Progress outer = control.progress;
  scaled.progress = Progress([outer, offset, share](double f) { outer.report(offset + share * f); },
                             outer.stopToken());
  return scaled;
}

// Trains one local (or the pooled) model to gradient norm ≤ tolerance.
Result<TrainedModel> trainExact(const MultipartyOptions& options, const Dataset& data, double tolerance,
                                const TrainControl& control) {
  auto model = makeModel(options.localLearner(), data.features(), 2);
  if (!model) return model.error();
  TrainControl exact = mech::exactMinimizerControl(control, tolerance);
  exact.warmStart.reset();
  auto trained = minimizeObjective(model.value(), data.X, data.y, {LossScale::Mean, options.localLearner().lambda, {}},
                                   exact);
  if (!trained) return trained.error();
  if (auto status = mech::requireExactMinimizer(trained.value().summary, tolerance, "multiparty aggregation"); !status)
    return status.error();
  return trained;
}

Status requireBinary(const Dataset& train) {
  if (train.classes() == 2) return Ok{};
  return Error{ErrorKind::InvalidPrivacy,
               "multiparty aggregation trains a binary classifier (paper 004); the data have " +
                   std::to_string(train.classes()) + " classes",
               train.provenance.source, 0, "classes"};
}

}  // namespace

Result<predict::RowParts> partyRows(Index n, const MultipartyOptions& options) {
  auto sizes = partySizes(n, options);
  if (!sizes) return sizes.error();
  return predict::sizedRandomParts(n, sizes.value(), options.partitionSeed);
}

Result<std::vector<LocalModel>> trainLocalModels(const MultipartyOptions& options, const Dataset& train,
                                                 const predict::RowParts& parties, const TrainControl& control) {
  if (auto status = options.validate(); !status) return status.error();
  // The data contract is checked here, not only in trainMultiparty: the sweep and the audit
  // train local models directly (to reuse them across repetitions), and a sweep once ran
  // multiparty on 3-class iris and on rows of norm in the thousands without a word.
  if (auto status = requireBinary(train); !status) return status.error();
  auto bounded = predict::unitRows(train);
  if (!bounded) return bounded.error();
  const Dataset& rows = bounded.value().rows(train);
  Index smallest = rows.rows();
  for (const auto& part : parties) smallest = std::min(smallest, static_cast<Index>(part.size()));
  const double tolerance = localGradientTolerance(options, smallest);
  auto trained = predict::trainParts(
      rows, parties,
      [&options, tolerance](const Dataset& part, const TrainControl& each) {
        return trainExact(options, part, tolerance, each);
      },
      control);
  if (!trained) return trained.error();
  std::vector<LocalModel> locals;
  for (std::size_t j = 0; j < parties.size(); ++j)
    locals.push_back({std::move(trained.value()[j].theta), static_cast<Index>(parties[j].size())});
  return locals;
}

Result<LocalModel> trainPartyModel(const MultipartyOptions& options, const Dataset& train, const std::vector<Index>& part,
                                   Index smallestParty, const TrainControl& control) {
  if (auto status = options.validate(); !status) return status.error();
  if (auto status = requireBinary(train); !status) return status.error();
  auto bounded = predict::unitRows(train);
  if (!bounded) return bounded.error();
  const double tolerance = localGradientTolerance(options, smallestParty);
  auto trained = predict::trainParts(
      bounded.value().rows(train), predict::RowParts{part},
      [&options, tolerance](const Dataset& rows, const TrainControl& each) {
        return trainExact(options, rows, tolerance, each);
      },
      control);
  if (!trained) return trained.error();
  return LocalModel{std::move(trained.value().front().theta), static_cast<Index>(part.size())};
}

Result<Eigen::VectorXd> trainAllData(const MultipartyOptions& options, const Dataset& train,
                                     const TrainControl& control) {
  auto trained = trainExact(options, train, localGradientTolerance(options, train.rows()), control);
  if (!trained) return trained.error();
  return std::move(trained.value().theta);
}

Result<std::vector<LocalModel>> trainLocalModels(const MultipartyOptions& options, const Dataset& train,
                                                 const TrainControl& control) {
  auto parties = partyRows(train.rows(), options);
  if (!parties) return parties.error();
  return trainLocalModels(options, train, parties.value(), control);
}

Result<MultipartyResult> aggregateLocalModels(const MultipartyOptions& options, const Dataset& train,
                                              const std::vector<LocalModel>& locals, const Eigen::VectorXd* allData,
                                              privacy::NoiseSource& noise, const AggregationProtocol& protocol,
                                              const Progress& progress, Index clippedRows) {
  auto release = aggregate(locals, options, protocol, noise, progress);
  if (!release) return release.error();
  MultipartyResult out;
  for (const LocalModel& party : locals) out.partySizes.push_back(party.rows);
  out.average = plainAverage(locals);
  if (allData) {
    out.allData = *allData;
    out.distance = (out.average - out.allData).norm();
  }
  out.report = std::move(release.value().report);
  out.transcriptJson = std::move(release.value().transcriptJson);
  if (noise.kind() == privacy::NoiseKind::Release) mech::withholdDrawnNoise(out.report);
  mech::detail::noteClippedRows(out.report, clippedRows);
  out.bound = out.report.calibrated(mech::Calibrated::TheoremBound);
  if (allData)
    out.report.set("distance_to_all_data", out.distance,
                   "‖ŵ − w*‖ measured on the pooled data: NOT private, an experiment diagnostic");
  auto made = makeModel(options.localLearner(), train.features(), 2);
  if (!made) return made.error();
  out.released.model = made.value();
  out.released.theta = std::move(release.value().released);

  if (!options.allDataBaseline || !allData) return out;
  // The all-data DP baseline, asked for: the same mechanism with one party holding all n
  // rows — a second ε-DP release from the same rows.
  MultipartyOptions pooled = options;
  pooled.parties = 1;
  pooled.fractions.clear();
  const TrustedCurator curator;
  auto baseline = aggregate({LocalModel{out.allData, train.rows()}}, pooled, curator, noise);
  if (!baseline) return baseline.error();
  MultipartyResult::AllDataRelease drawn{std::move(baseline.value().released), std::move(baseline.value().report)};
  if (noise.kind() == privacy::NoiseKind::Release) mech::withholdDrawnNoise(drawn.report);
  drawn.report.mechanism = "multiparty all-data baseline";
  drawn.report.statement = "baseline, a second release: " + drawn.report.statement +
                           " — the all-data model needs the data pooled in one place; with the aggregate, the "
                           "experiment spends its ε twice";
  out.allDataPrivate = std::move(drawn);
  return out;
}

Result<MultipartyResult> trainMultiparty(const MultipartyOptions& options, const Dataset& train,
                                         privacy::NoiseSource& noise, const TrainControl& control,
                                         const AggregationProtocol* protocol) {
  // Everything that can be refused is refused before any training or noise.
  if (auto status = options.validate(); !status) return status.error();
  if (auto status = requireBinary(train); !status) return status.error();
  auto bounded = predict::unitRows(train);
  if (!bounded) return bounded.error();
  const Dataset& rows = bounded.value().rows(train);
  if (auto sizes = partySizes(rows.rows(), options); !sizes) return sizes.error();
  const TrustedCurator curator;
  const PaillierProtocol paillier;
  const AggregationProtocol& named =
      options.protocol == AggregationProtocolKind::Paillier ? static_cast<const AggregationProtocol&>(paillier) : curator;
  const AggregationProtocol& chosen = protocol ? *protocol : named;

  // The trusted curator's average is instant; Paillier's comparisons take most of the run.
  const double training = options.protocol == AggregationProtocolKind::Paillier ? 0.2 : 1.0;
  auto locals = trainLocalModels(options, rows, scaledControl(control, 0.0, 0.8 * training));
  if (!locals) return locals.error();
  auto allData = trainAllData(options, rows, scaledControl(control, 0.8 * training, 0.2 * training));
  if (!allData) return allData.error();
  return aggregateLocalModels(options, train, locals.value(), &allData.value(), noise, chosen,
                              scaledControl(control, training, 1.0 - training).progress, bounded.value().count);
}

}  // namespace dpstudio::multiparty

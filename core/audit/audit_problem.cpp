#include "core/audit/audit_problem.h"

#include <algorithm>
#include <cmath>

#include "core/audit/data_canary.h"
#include "core/audit/vote_canary.h"
#include "core/audit/worst_case.h"
#include "core/prediction/multiparty.h"
#include "core/random/rng.h"
#include "core/util/number_text.h"

namespace dpstudio::audit {
namespace {

Dataset emptyProblem(Index n, Index d, Index classes, const std::string& source) {
  Dataset data;
  data.X = Eigen::MatrixXd::Zero(n, d);
  data.y = Eigen::VectorXi::Zero(n);
  for (Index c = 0; c < classes; ++c) data.classNames.push_back(std::to_string(c));
  for (Index j = 0; j < d; ++j) data.featureNames.push_back("x" + std::to_string(j + 1));
  data.provenance.source = source;
  data.provenance.format = "generator";
  return data;
}

// Two clusters centred at ±(0.45, −0.25) with spread 0.15, clipped to the unit ball.
Dataset twoClusters(Index n, std::uint64_t seed) {
  Dataset data = emptyProblem(n, 2, 2, "audit:two-clusters");
  Rng rng(mixSeed(seed) ^ 0x6175646974ULL);  // "audit": its own stream, apart from the runs'
  for (Index i = 0; i < n; ++i) {
    const int label = static_cast<int>(i % 2);
    const double sign = label == 1 ? 1.0 : -1.0;
    Eigen::Vector2d x(sign * 0.45 + 0.15 * rng.normal(), -sign * 0.25 + 0.15 * rng.normal());
    if (x.norm() > 1.0) x /= x.norm();
    data.X.row(i) = x.transpose();
    data.y[i] = label;
  }
  return data;
}

// The canary rule of the header, against (model, θ) on D, replacing one of `rows` (empty:
// any row): the candidate pair whose loss gradients at θ differ most.
Result<AuditProblem> chooseCanary(const Dataset& D, const Model& model, const Eigen::VectorXd& theta,
                                  const std::vector<Index>& rows, const std::string& what,
                                  const Dataset& testPoints) {
  const std::vector<CanaryCandidate> candidates = canaryCandidates(D, theta, testPoints);
  const std::vector<GradientPair> pairs = gradientPairs(model, theta, D, rows, candidates);
  const auto best = std::max_element(pairs.begin(), pairs.end(),
                                     [](const GradientPair& a, const GradientPair& b) { return a.change < b.change; });
  if (best == pairs.end() || best->change <= 0)
    return Error{ErrorKind::BadData, "no canary moves the model's gradient: the audit would see nothing", {}, 0,
                 "canary"};
  const CanaryCandidate& canary = candidates[best->candidate];
  const std::string among = testPoints.rows() > 0 ? "unit vectors and test points" : "unit vectors";
  std::string description = what + "; D' replaces row " + std::to_string(best->row + 1) + " by the canary " +
                            canary.origin + " with label " + std::to_string(canary.label) + ", of " +
                            std::to_string(candidates.size()) + " candidates (" + among +
                            ", each with every label) the one whose loss gradient at the noise-free model differs "
                            "most from a row's (by " + briefNumber(best->change) + ")";
  return withCanary(D, best->row, canary.x, canary.label, std::move(description));
}

Result<AuditProblem> problemFor(const AuditOptions& options, const Dataset& D, const std::string& what,
                                const Dataset& testPoints = Dataset{}) {
  if (auto status = options.validate(); !status) return status.error();
  if (options.target == AuditTarget::Multiparty) {
    if (D.classes() != 2)
      return Error{ErrorKind::InvalidPrivacy, "multiparty aggregation trains a binary classifier (paper 004)",
                   D.provenance.source, 0, "classes"};
    auto parties = multiparty::partyRows(D.rows(), options.multiparty);
    if (!parties) return parties.error();
    const auto smallest = std::min_element(parties.value().begin(), parties.value().end(),
                                           [](const auto& a, const auto& b) { return a.size() < b.size(); });
    auto locals = multiparty::trainLocalModels(options.multiparty, D, {*smallest});
    if (!locals) return locals.error();
    auto model = makeModel(options.multiparty.localLearner(), D.features(), 2);
    if (!model) return model.error();
    return chooseCanary(D, *model.value(), locals.value().front().w, *smallest,
                        what + " (canary in the smallest party, " + std::to_string(smallest->size()) + " rows)",
                        testPoints);
  }
  const LearnerSpec learner =
      options.target == AuditTarget::Training ? options.training.learner : options.prediction.learner;
  auto trained = trainModel(learner, D.X, D.y, D.classes());
  if (!trained) return trained.error();
  return chooseCanary(D, *trained.value().model, trained.value().theta, {}, what, testPoints);
}

bool binaryLinear(ModelKind kind) { return kind == ModelKind::LogisticRegression || kind == ModelKind::HuberSvm; }

}  // namespace

Result<AuditProblem> builtinAuditProblem(const AuditOptions& options) {
  if (auto status = options.validate(); !status) return status.error();
  // The worst cases of worst_case.h where one exists for the mechanism and model.
  if (options.target == AuditTarget::Prediction && options.prediction.kind == predict::PredictionKind::Subsample) {
    const Index T = options.prediction.teachers;
    auto calibration = predict::calibratePrediction(options.prediction, {3 * T, 2, 2});
    if (!calibration) return calibration.error();
    const auto certify = static_cast<long long>(static_cast<double>(options.trials) * (1.0 - options.selectionFraction));
    return voteSplit(T, bestVoteSplit(T, calibration.value().noiseScale(), certify), options.prediction.partitionSeed);
  }
  if (options.target == AuditTarget::Training && binaryLinear(options.training.learner.kind) &&
      (options.training.kind == mech::MechanismKind::Output || options.training.kind == mech::MechanismKind::Objective)) {
    const LearnerSpec& l = options.training.learner;
    const double reach = options.training.kind == mech::MechanismKind::Objective ? 1.0 + 6.0 / options.training.epsilon : 1.0;
    return oneDecisiveRow(decisiveRowCount(l.lambda, l.huber, reach), 0, "");
  }
  if (options.target == AuditTarget::Training && options.training.kind == mech::MechanismKind::Loss &&
      binaryLinear(options.training.learner.kind)) {
    // Loss perturbation's worst case (worst_case.h): the decisive row
    // with one companion at the origin, so that nλ is small beside ρ.
    return oneDecisiveRow(2, 0,
                          "loss perturbation: D's row sits on the loss's curved part where D''s flipped row is "
                          "linear, so the noise that explains an output moves by 2K and the Jacobian by up to "
                          "1 + L/ρ at once");
  }
  if (options.target == AuditTarget::Training && options.training.learner.kind == ModelKind::Softmax &&
      (options.training.kind == mech::MechanismKind::DpSgd || options.training.kind == mech::MechanismKind::Loss)) {
    // Softmax without intercept has no gradient at the origin either, and with two classes the
    // decisive row's gradient x(p − e_y) lies along (1, −1) whatever θ is: flipping its label
    // moves DP-SGD's clipped sum by exactly 2ν at every step (while ‖p − e_y‖ > ν) and the
    // noise that explains a loss-perturbation output by e₁ − e₀. DP-SGD: rows ≤ the batch, so
    // that every step samples the row (q = 1) and the release is the Gaussian mechanism of
    // the composed steps, which the accountant bounds nearly exactly.
    const Index rows = options.training.kind == mech::MechanismKind::DpSgd
                           ? std::clamp<Index>(options.training.sgd.batchSize, 2, 40)
                           : 40;
    return oneDecisiveRow(rows, 0, "softmax, two classes");
  }
  if (options.target == AuditTarget::Prediction && binaryLinear(options.prediction.learner.kind)) {
    const LearnerSpec& l = options.prediction.learner;
    return oneDecisiveRow(decisiveRowCount(l.lambda, l.huber), 0, "the query is x = 1");
  }
  if (options.target == AuditTarget::Multiparty) {
    // The decisive row in the smallest party, whose local model moves the average most.
    const multiparty::MultipartyOptions& o = options.multiparty;
    const Index perParty = decisiveRowCount(2.0 * o.lambda, 0.0);
    auto parties = multiparty::partyRows(perParty * o.partyCount(), o);
    if (!parties) return parties.error();
    const auto smallest = std::min_element(parties.value().begin(), parties.value().end(),
                                           [](const auto& a, const auto& b) { return a.size() < b.size(); });
    return oneDecisiveRow(perParty * o.partyCount(), smallest->front(),
                          "the decisive row is in the smallest party (" + std::to_string(smallest->size()) + " rows)");
  }
  const Index n = 40;
  return problemFor(options, twoClusters(n, options.seed),
                    "two Gaussian clusters, " + std::to_string(n) + " rows in d = 2");
}

namespace {

// Every audit on the user's data says what it is, whichever search built it.
Result<AuditProblem> markedAsExperiment(Result<AuditProblem> problem) {
  if (problem)
    problem.value().description += "; an experiment on this data, not a release: nothing is charged to the ledger";
  return problem;
}

}  // namespace

Result<AuditProblem> auditProblemFromData(const AuditOptions& options, const Dataset& D, const Dataset& testPoints) {
  if (D.rows() < 2) return Error::badData("the audit needs at least two training rows", D.provenance.source);
  // The teachers are black boxes to subsample-and-aggregate's proof: no norm bound needed.
  if (options.target == AuditTarget::Prediction && options.prediction.kind == predict::PredictionKind::Subsample)
    return markedAsExperiment(voteCanaryFromData(options, D));
  if (D.maxRowNorm() > 1.0 + 1e-9)
    return Error{ErrorKind::InvalidPrivacy, "the audit's rows must satisfy ||x|| <= 1: declare a public norm bound",
                 D.provenance.source, 0, "norm-bound"};
  if (auto status = options.validate(); !status) return status.error();
  if (testPoints.rows() > 0 && testPoints.features() != D.features())
    return Error::badData("the audit's test points and training rows differ in their features",
                          testPoints.provenance.source);
  if (testPoints.rows() > 0 && testPoints.maxRowNorm() > 1.0 + 1e-9)
    return Error{ErrorKind::InvalidPrivacy, "the audit's test points must satisfy ||x|| <= 1 (preprocess them as the "
                 "training rows)", testPoints.provenance.source, 0, "norm-bound"};
  return markedAsExperiment(canarySearchApplies(options)
                                ? searchedCanaryFromData(options, D, testPoints)
                                : problemFor(options, D, D.provenance.source + ", " + std::to_string(D.rows()) + " rows",
                                             testPoints));
}

}  // namespace dpstudio::audit

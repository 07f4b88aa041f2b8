#include "core/audit/data_canary.h"

#include <algorithm>
#include <cstdio>

#include "core/audit/worst_case.h"

namespace dpstudio::audit {
namespace {

struct Canary {
  Eigen::VectorXd x;
  int label = 0;
  std::string origin;  // "test row 12", "test row 12 scaled to norm 1", "a unit vector along …"
  bool fromTest = false;
};

struct Pair {
  double firstOrder = 0;  // ‖∇ℓ(canary) − ∇ℓ(row)‖ at θ*(D)
  std::size_t canary = 0;
  Index row = 0;
};

std::string number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

std::vector<Canary> candidateCanaries(const Dataset& D, const Eigen::VectorXd& theta, const Dataset& testPoints) {
  const Index d = D.features();
  struct Point {
    Eigen::VectorXd x;
    std::string origin;
    bool fromTest = false;
  };
  std::vector<Point> points;
  if (theta.size() % d == 0) {
    const Eigen::Map<const Eigen::MatrixXd> columns(theta.data(), d, theta.size() / d);
    for (Index c = 0; c < columns.cols(); ++c)
      if (columns.col(c).norm() > 0) {
        points.push_back({columns.col(c).normalized(), "the unit vector along the model's column " + std::to_string(c + 1)});
        points.push_back({-columns.col(c).normalized(), "the unit vector against the model's column " + std::to_string(c + 1)});
      }
  }
  for (Index j = 0; j < std::min<Index>(d, 8); ++j) {
    points.push_back({Eigen::VectorXd::Unit(d, j), "the unit vector e" + std::to_string(j + 1)});
    points.push_back({-Eigen::VectorXd::Unit(d, j), "the unit vector -e" + std::to_string(j + 1)});
  }
  for (Index i = 0; i < std::min(testPoints.rows(), kTestPointsSearched); ++i) {
    const Eigen::VectorXd x = testPoints.X.row(i).transpose();
    points.push_back({x, "test row " + std::to_string(i + 1), true});
    if (x.norm() > 0 && x.norm() < 1.0 - 1e-9)
      points.push_back({x.normalized(), "test row " + std::to_string(i + 1) + " scaled to norm 1", true});
  }
  std::vector<Canary> canaries;
  for (const Point& p : points)
    for (int k = 0; k < static_cast<int>(D.classes()); ++k) canaries.push_back({p.x, k, p.origin, p.fromTest});
  return canaries;
}

// The kCandidatesRetrained best pairs by the first-order move among the unit vectors, and
// as many among the test points (so that adding test points never loses a unit-vector
// candidate), one per canary point and label.
std::vector<Pair> rankedPairs(const Model& model, const Eigen::VectorXd& theta, const Dataset& D,
                              const std::vector<Canary>& canaries) {
  const Eigen::MatrixXd rowGradients = model.perExampleGradients(theta, D.X, D.y);
  std::vector<Pair> kept;
  for (const bool fromTest : {false, true}) {
    std::vector<Pair> pairs;
    for (std::size_t c = 0; c < canaries.size(); ++c) {
      if (canaries[c].fromTest != fromTest) continue;
    const Eigen::RowVectorXd g =
        model.perExampleGradients(theta, canaries[c].x.transpose(), Eigen::VectorXi::Constant(1, canaries[c].label))
            .row(0);
      Index row = 0;
      const double score = (rowGradients.rowwise() - g).rowwise().norm().maxCoeff(&row);
      pairs.push_back({score, c, row});
    }
    const auto keep = std::min<std::size_t>(pairs.size(), kCandidatesRetrained);
    std::partial_sort(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(keep), pairs.end(),
                      [](const Pair& a, const Pair& b) { return a.firstOrder > b.firstOrder; });
    kept.insert(kept.end(), pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(keep));
  }
  return kept;
}

}  // namespace

bool canarySearchApplies(const AuditOptions& options) {
  if (options.target == AuditTarget::Training)
    return options.training.kind == mech::MechanismKind::Output && options.training.learner.kind != ModelKind::Lmgc;
  return options.target == AuditTarget::Prediction && options.prediction.kind == predict::PredictionKind::Sensitivity &&
         options.prediction.learner.kind != ModelKind::Lmgc;
}

Result<AuditProblem> searchedCanaryFromData(const AuditOptions& options, const Dataset& D, const Dataset& testPoints) {
  if (!canarySearchApplies(options))
    return Error{ErrorKind::Internal, "the canary search is for output perturbation and prediction sensitivity", {}, 0,
                 "mechanism"};
  const bool prediction = options.target == AuditTarget::Prediction;
  const LearnerSpec& learner = prediction ? options.prediction.learner : options.training.learner;
  TrainControl tight;
  tight.tolerance = 1e-10;
  auto onD = trainModel(learner, D.X, D.y, D.classes(), tight);
  if (!onD) return onD.error();
  const Model& model = *onD.value().model;
  const Eigen::VectorXd& theta = onD.value().theta;
  const std::vector<Canary> canaries = candidateCanaries(D, theta, testPoints);
  const std::vector<Pair> pairs = rankedPairs(model, theta, D, canaries);

  // Queries (F): the test points searched and each candidate canary itself.
  Eigen::MatrixXd queries(std::min(testPoints.rows(), kTestPointsSearched), D.features());
  for (Index i = 0; i < queries.rows(); ++i) queries.row(i) = testPoints.X.row(i);
  const Eigen::MatrixXd scoresOnD = model.scores(theta, queries);

  double best = -1;
  const Pair* bestPair = nullptr;
  Index bestQuery = -1;  // −1: the canary itself
  for (const Pair& pair : pairs) {
    const Canary& canary = canaries[pair.canary];
    AuditProblem candidate = withCanary(D, pair.row, canary.x, canary.label, "");
    TrainControl warm = tight;
    warm.warmStart = theta;
    auto onDprime = trainModel(learner, candidate.Dprime.X, candidate.Dprime.y, D.classes(), warm);
    if (!onDprime) return onDprime.error();
    const Eigen::VectorXd& moved = onDprime.value().theta;
    double move = (moved - theta).norm();
    Index query = -1;
    if (prediction) {
      const auto atCanary = [&](const Eigen::VectorXd& th) { return model.scores(th, canary.x.transpose()); };
      move = (atCanary(moved) - atCanary(theta)).norm();
      if (queries.rows() > 0) {
        Index i = 0;
        const double atTest = (model.scores(moved, queries) - scoresOnD).rowwise().norm().maxCoeff(&i);
        if (atTest > move) {
          move = atTest;
          query = i;
        }
      }
    }
    if (move > best) {
      best = move;
      bestPair = &pair;
      bestQuery = query;
    }
  }
  if (!bestPair || best <= 0)
    return Error{ErrorKind::BadData, "no canary moves the model: the audit would see nothing", {}, 0, "canary"};

  const Canary& canary = canaries[bestPair->canary];
  const double n = static_cast<double>(D.rows());
  const double Delta = 2.0 * model.constants().gradientBound / (n * learner.lambda);
  std::string description =
      D.provenance.source + ", " + std::to_string(D.rows()) + " rows; D' replaces training row " +
      std::to_string(bestPair->row + 1) + " (label " + std::to_string(D.y[bestPair->row]) + ") by the canary " +
      canary.origin + " with label " + std::to_string(canary.label) + ", the pair among " +
      std::to_string(pairs.size()) + " retrained (of " + std::to_string(canaries.size()) + " canaries, ranked by the "
      "gradient change) that moves ";
  AuditProblem problem = withCanary(D, bestPair->row, canary.x, canary.label, "");
  if (prediction) {
    if (bestQuery >= 0) problem.query = queries.row(bestQuery).transpose();
    description += "the noise-free scores at the query furthest: query " +
                   (bestQuery >= 0 ? "test row " + std::to_string(bestQuery + 1) : std::string("the canary")) +
                   ", scores moved by " + number(best) + " (at most Δ·‖q‖, Δ = 2K/(nλ) = " + number(Delta) + ")";
  } else {
    description += "θ* furthest: by " + number(best) + " = " + number(best / Delta) + "·Δ (Δ = 2K/(nλ) = " +
                   number(Delta) + ")";
  }
  description += "; an experiment on this data, not a release: nothing is charged to the ledger";
  problem.description = std::move(description);
  return problem;
}

}  // namespace dpstudio::audit

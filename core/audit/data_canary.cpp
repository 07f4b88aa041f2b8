#include "core/audit/data_canary.h"

#include <algorithm>

#include "core/audit/worst_case.h"
#include "core/util/number_text.h"

namespace dpstudio::audit {

std::vector<CanaryCandidate> canaryCandidates(const Dataset& D, const Eigen::VectorXd& theta,
                                              const Dataset& testPoints) {
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
        const std::string column = "the model's column " + std::to_string(c + 1);
        points.push_back({columns.col(c).normalized(), "the unit vector along " + column});
        points.push_back({-columns.col(c).normalized(), "the unit vector against " + column});
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
  std::vector<CanaryCandidate> candidates;
  for (const Point& p : points)
    for (int k = 0; k < static_cast<int>(D.classes()); ++k) candidates.push_back({p.x, k, p.origin, p.fromTest});
  return candidates;
}

std::vector<GradientPair> gradientPairs(const Model& model, const Eigen::VectorXd& theta, const Dataset& D,
                                        const std::vector<Index>& rows,
                                        const std::vector<CanaryCandidate>& candidates) {
  Eigen::MatrixXd rowGradients;
  if (rows.empty()) {
    rowGradients = model.perExampleGradients(theta, D.X, D.y);
  } else {
    Eigen::MatrixXd rowX(static_cast<Index>(rows.size()), D.features());
    Eigen::VectorXi rowY(static_cast<Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rowX.row(static_cast<Index>(i)) = D.X.row(rows[i]);
      rowY[static_cast<Index>(i)] = D.y[rows[i]];
    }
    rowGradients = model.perExampleGradients(theta, rowX, rowY);
  }
  std::vector<GradientPair> pairs;
  pairs.reserve(candidates.size());
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const Eigen::RowVectorXd g =
        model.perExampleGradients(theta, candidates[c].x.transpose(), Eigen::VectorXi::Constant(1, candidates[c].label))
            .row(0);
    Index i = 0;
    const double change = (rowGradients.rowwise() - g).rowwise().norm().maxCoeff(&i);
    pairs.push_back({change, c, rows.empty() ? i : rows[static_cast<std::size_t>(i)]});
  }
  return pairs;
}

namespace {

// The kCandidatesRetrained best pairs by the first-order move among the unit vectors, and
// as many among the test points (so that adding test points never loses a unit-vector
// candidate), one per canary point and label.
std::vector<GradientPair> rankedPairs(const Model& model, const Eigen::VectorXd& theta, const Dataset& D,
                                      const std::vector<CanaryCandidate>& candidates) {
  const std::vector<GradientPair> all = gradientPairs(model, theta, D, {}, candidates);
  std::vector<GradientPair> kept;
  for (const bool fromTest : {false, true}) {
    std::vector<GradientPair> pairs;
    for (const GradientPair& pair : all)
      if (candidates[pair.candidate].fromTest == fromTest) pairs.push_back(pair);
    const auto keep = std::min<std::size_t>(pairs.size(), kCandidatesRetrained);
    std::partial_sort(pairs.begin(), pairs.begin() + static_cast<std::ptrdiff_t>(keep), pairs.end(),
                      [](const GradientPair& a, const GradientPair& b) { return a.change > b.change; });
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
  const std::vector<CanaryCandidate> canaries = canaryCandidates(D, theta, testPoints);
  const std::vector<GradientPair> pairs = rankedPairs(model, theta, D, canaries);

  // Queries (F): the test points searched and each candidate canary itself.
  Eigen::MatrixXd queries(std::min(testPoints.rows(), kTestPointsSearched), D.features());
  for (Index i = 0; i < queries.rows(); ++i) queries.row(i) = testPoints.X.row(i);
  const Eigen::MatrixXd scoresOnD = model.scores(theta, queries);

  double best = -1;
  const GradientPair* bestPair = nullptr;
  Index bestQuery = -1;  // −1: the canary itself
  for (const GradientPair& pair : pairs) {
    const CanaryCandidate& canary = canaries[pair.candidate];
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

  const CanaryCandidate& canary = canaries[bestPair->candidate];
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
                   ", scores moved by " + briefNumber(best) + " (at most Δ·‖q‖, Δ = 2K/(nλ) = " +
                   briefNumber(Delta) + ")";
  } else {
    description += "θ* furthest: by " + briefNumber(best) + " = " + briefNumber(best / Delta) + "·Δ (Δ = 2K/(nλ) = " +
                   briefNumber(Delta) + ")";
  }
  problem.description = std::move(description);
  return problem;
}

}  // namespace dpstudio::audit

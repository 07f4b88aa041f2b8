#include "core/audit/worst_case.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/audit/rates.h"
#include "core/prediction/part_training.h"

namespace dpstudio::audit {
namespace {

Dataset zeros(Index n, Index d, const std::string& source) {
  Dataset data;
  data.X = Eigen::MatrixXd::Zero(n, d);
  data.y = Eigen::VectorXi::Zero(n);
  data.classNames = {"0", "1"};
  for (Index j = 0; j < d; ++j) data.featureNames.push_back("x" + std::to_string(j + 1));
  data.provenance.source = source;
  data.provenance.format = "generator";
  return data;
}

// P(answer = target) for answers drawn ∝ exp(β·votes), computed stably.
double probabilityOf(const Eigen::VectorXi& votes, Index target, double beta) {
  const Eigen::ArrayXd scaled = beta * votes.cast<double>().array();
  const Eigen::ArrayXd weights = (scaled - scaled.maxCoeff()).exp();
  return weights[target] / weights.sum();
}

}  // namespace

AuditProblem withCanary(const Dataset& D, Index row, const Eigen::VectorXd& canary, int label,
                        std::string description) {
  AuditProblem problem;
  problem.D = D;
  problem.Dprime = D;
  problem.Dprime.X.row(row) = canary.transpose();
  problem.Dprime.y[row] = label;
  problem.Dprime.provenance.source = D.provenance.source + " with one row replaced by the canary";
  problem.replaced = row;
  problem.canary = canary;
  problem.canaryLabel = label;
  problem.query = canary;
  problem.description = std::move(description);
  return problem;
}

Index decisiveRowCount(double lambda, double huber, double reach) {
  constexpr double kCap = 200000;
  const double wanted = std::ceil(1.25 * reach / (lambda * std::max(1e-3, 1.0 - huber)));
  if (!std::isfinite(wanted)) return static_cast<Index>(kCap);
  return static_cast<Index>(std::clamp(wanted, 40.0, kCap));
}

AuditProblem oneDecisiveRow(Index n, Index row, const std::string& why) {
  Dataset D = zeros(n, 1, "audit:one-decisive-row");
  for (Index i = 0; i < n; ++i) D.y[i] = static_cast<int>(i % 2);
  D.X(row, 0) = 1.0;
  D.y[row] = 1;
  AuditProblem problem =
      withCanary(D, row, Eigen::VectorXd::Ones(1), 0,
                 "one decisive row: " + std::to_string(n) + " rows in d = 1, all at the origin (no gradient for a "
                 "linear model without intercept) but row " + std::to_string(row + 1) + " = (x = 1, label 1); D' "
                 "flips its label" + (why.empty() ? std::string() : "; " + why));
  return problem;
}

double certifiableEpsilon(const Eigen::VectorXi& votesD, const Eigen::VectorXi& votesDprime, Index target, double beta,
                          long long certifyRuns) {
  const long long N = std::max<long long>(1, certifyRuns);
  const auto count = [N](double q) { return static_cast<long long>(std::llround(q * static_cast<double>(N))); };
  const double p = probabilityOf(votesD, target, beta), pPrime = probabilityOf(votesDprime, target, beta);
  return epsilonFromRates(clopperPearsonUpper(count(p), N, kRateConfidence),
                          clopperPearsonUpper(count(1.0 - pPrime), N, kRateConfidence), 0.0);
}

Index bestVoteSplit(Index teachers, double beta, long long certifyRuns) {
  Index best = teachers;
  double bestEpsilon = -std::numeric_limits<double>::infinity();
  for (Index k = 1; k <= teachers; ++k) {
    // D: k teachers vote 0, T − k vote 1; on D' one of the k votes 1.
    const Eigen::Vector2i onD(static_cast<int>(k), static_cast<int>(teachers - k));
    const Eigen::Vector2i onDprime(static_cast<int>(k - 1), static_cast<int>(teachers - k + 1));
    const double epsilon = certifiableEpsilon(onD, onDprime, 1, beta, certifyRuns);
    if (epsilon > bestEpsilon) {
      bestEpsilon = epsilon;
      best = k;
    }
  }
  return best;
}

AuditProblem voteSplit(Index teachers, Index zeroVotes, std::uint64_t partitionSeed) {
  const Index n = 3 * teachers;
  Dataset D = zeros(n, 2, "audit:vote-split");
  const predict::RowParts parts = predict::equalRandomParts(n, teachers, partitionSeed);
  for (Index t = 0; t < teachers; ++t)
    for (Index row : parts[static_cast<std::size_t>(t)]) {
      const bool votesZero = t < zeroVotes;
      D.X(row, votesZero ? 0 : 1) = 1.0;
      D.y[row] = votesZero ? 0 : 1;
    }
  const Index replaced = parts.front().front();
  AuditProblem problem = withCanary(
      D, replaced, Eigen::Vector2d(0.0, 1.0), 1,
      "vote split: " + std::to_string(n) + " rows, " + std::to_string(teachers) + " teachers of 3 rows; " +
          std::to_string(zeroVotes) + " teachers hold x = e1 with label 0 and vote 0 at the query (0.2, 0.98)/norm, "
          "the others x = e2 with label 1 and vote 1; D' replaces row " + std::to_string(replaced + 1) +
          " (of a teacher voting 0) by the canary x = e2 with label 1, which turns that teacher's vote; the split "
          "is the one whose single answer the runs can tell apart best");
  problem.query = Eigen::Vector2d(0.2, 0.98).normalized();
  return problem;
}

}  // namespace dpstudio::audit

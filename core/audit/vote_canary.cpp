#include "core/audit/vote_canary.h"

#include <algorithm>
#include <cmath>

#include "core/audit/worst_case.h"
#include "core/prediction/part_training.h"
#include "core/prediction/subsample_aggregate.h"

namespace dpstudio::audit {
namespace {

constexpr Index kMaxQueries = 2000;
constexpr int kQueriesTried = 40;

struct Candidate {
  Index row = 0;      // of D, the query
  Index leading = 0;  // class with the most votes at the query
  Index runnerUp = 0;
  double certifiable = 0;  // ε the runs could certify if a teacher turned (higher is better)
  int margin = 0;          // leading votes − runner-up votes
};

// The rows of one part, with row `replaced` (an index into D) set to the canary.
Dataset partWithCanary(const Dataset& D, const std::vector<Index>& rows, Index replaced, const Eigen::VectorXd& canary,
                       int label) {
  Dataset part;
  part.X.resize(static_cast<Index>(rows.size()), D.features());
  part.y.resize(static_cast<Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto r = static_cast<Index>(i);
    part.X.row(r) = rows[i] == replaced ? Eigen::RowVectorXd(canary.transpose()) : D.X.row(rows[i]);
    part.y[r] = rows[i] == replaced ? label : D.y[rows[i]];
  }
  return part;
}

}  // namespace

Result<AuditProblem> voteCanaryFromData(const AuditOptions& options, const Dataset& D) {
  const predict::PredictionOptions& o = options.prediction;
  auto calibration = predict::calibratePrediction(o, {D.rows(), D.features(), D.classes()});
  if (!calibration) return calibration.error();
  auto teachers = predict::trainTeachers(o, D);
  if (!teachers) return teachers.error();
  const Index T = o.teachers;
  const auto certify = static_cast<long long>(static_cast<double>(options.trials) * (1.0 - options.selectionFraction));
  const double beta = calibration.value().noiseScale();

  // Each candidate query ranked by what N runs could certify if the canary turned one teacher
  // from the leading class to the runner-up.
  const Index step = std::max<Index>(1, D.rows() / kMaxQueries);
  std::vector<Candidate> candidates;
  for (Index row = 0; row < D.rows(); row += step) {
    const Eigen::VectorXi votes = teachers.value()->votes(D.X.row(row)).row(0).transpose();
    Candidate c;
    c.row = row;
    votes.maxCoeff(&c.leading);
    Eigen::VectorXi others = votes;
    others[c.leading] = -1;
    others.maxCoeff(&c.runnerUp);
    Eigen::VectorXi turned = votes;
    --turned[c.leading];
    ++turned[c.runnerUp];
    c.certifiable = certifiableEpsilon(votes, turned, c.runnerUp, beta, certify);
    c.margin = votes[c.leading] - votes[c.runnerUp];
    candidates.push_back(c);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     // Ties (nothing certifiable anywhere): the closest vote first.
                     return a.certifiable != b.certifiable ? a.certifiable > b.certifiable : a.margin < b.margin;
                   });

  const predict::RowParts parts = predict::equalRandomParts(D.rows(), T, o.partitionSeed);
  const Model& model = *teachers.value()->model;
  const int tried = std::min<int>(kQueriesTried, static_cast<int>(candidates.size()));
  for (int k = 0; k < tried; ++k) {
    const Candidate& c = candidates[static_cast<std::size_t>(k)];
    const Eigen::VectorXd q = D.X.row(c.row).transpose();
    if (!(q.norm() > 0)) continue;
    for (Index t = 0; t < T; ++t) {
      const Eigen::VectorXd& theta = teachers.value()->thetas[static_cast<std::size_t>(t)];
      if (model.predict(theta, q.transpose())[0] != c.leading) continue;
      const std::vector<Index>& rows = parts[static_cast<std::size_t>(t)];
      for (double scale : {1.0, 4.0, 16.0, 64.0, 256.0}) {
        const Eigen::VectorXd canary = scale * q;
        const Dataset part = partWithCanary(D, rows, rows.front(), canary, static_cast<int>(c.runnerUp));
        auto retrained = trainModel(o.learner, part.X, part.y, D.classes());
        if (!retrained) return retrained.error();
        if (model.predict(retrained.value().theta, q.transpose())[0] != c.runnerUp) continue;
        AuditProblem problem = withCanary(D, rows.front(), canary, static_cast<int>(c.runnerUp), "");
        problem.query = q;
        problem.description = D.provenance.source + ", " + std::to_string(D.rows()) + " rows; query: row " +
                              std::to_string(c.row + 1) + " (of those whose vote, turned by one teacher, the runs could tell apart best); D' replaces row " +
                              std::to_string(rows.front() + 1) + " of teacher " + std::to_string(t + 1) +
                              " by the canary " + (scale == 1.0 ? std::string("x = query") : "x = " +
                              std::to_string(static_cast<int>(scale)) + "·query") + " with label " +
                              std::to_string(c.runnerUp) + ", which turns that teacher's vote";
        return problem;
      }
    }
  }
  return Error{ErrorKind::BadData,
               "no canary found that turns a teacher's vote at the " + std::to_string(tried) +
                   " most promising queries: the audit would see nothing (try fewer teachers)",
               D.provenance.source, 0, "canary"};
}

}  // namespace dpstudio::audit

#include "core/models/lmgc_mixture_solver.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <span>

#include "core/linalg/symmetric_eigen.h"
#include "core/models/lmgc.h"
#include "core/models/lmgc_factored.h"
#include "core/models/lmgc_mixture_loss.h"
#include "core/optim/lbfgs.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using Index = Eigen::Index;

// Rows a chunk: small enough that digits' 1 347 rows keep two threads busy, large enough
// for its products to run at matrix speed.
constexpr Index kChunkRows = 256;
// The schedule (lmgc_mixture_solver.h), measured on digits with M = 3 (R = 128, λ = 10⁻²,
// whole process): 10 projected-gradient steps leave the warm start's blocks at rank ~28 of 65
// (Σr = 835), the minimizer's are ~9 (Σr = 263); so a short first round (200 L-BFGS
// iterations: 100 needs a third round, 300–800 cost more than they save) and 10 polishing
// steps only to read the ranks again (50: +1 s), then rounds of 400. Eigenvalues below 10⁻⁶ of
// the largest do not count. The line search gets 10 trials: near the minimizer L-BFGS's
// steps stall on rounding, and 40 trials spent 700 evaluations on 27 iterations there.
// L-BFGS keeps 20 pairs (its two-loop recursion over Σr·D numbers a pair is a sizeable share
// of an iteration: with square factors and 50 pairs, a fifth of the time).
// Square factors and 600 iterations, then projected gradient to the end: 14.2–15.5 s; this
// schedule 3.9–4.6 s, the same J to 10 digits.
constexpr int kRankFindingSteps = 10;
constexpr double kRankThreshold = 1e-6;
constexpr Index kSpareColumns = 1;
constexpr int kFirstRoundIterations = 200;
constexpr int kFirstPolishSteps = 10;
constexpr int kLaterRoundIterations = 400;
constexpr int kPolishSteps = 50;
constexpr int kMaxRounds = 20;
constexpr int kFactoredMemory = 20;
constexpr int kLineSearchTrials = 10;

// x_b = L_bL_bᵀ for every block.
Eigen::VectorXd productsOf(const Eigen::MatrixXd& L, const std::vector<Index>& offsets, Index D) {
  const Index B = static_cast<Index>(offsets.size()) - 1;
  Eigen::VectorXd x(B * D * D);
  for (Index b = 0; b < B; ++b) {
    const auto Lb = L.middleCols(offsets[static_cast<std::size_t>(b)],
                                 offsets[static_cast<std::size_t>(b + 1)] - offsets[static_cast<std::size_t>(b)]);
    Eigen::Map<Eigen::MatrixXd>(x.data() + b * D * D, D, D).noalias() = Lb * Lb.transpose();
  }
  return x;
}

// Each block's top eigenpairs as factor columns: L_b = V √Λ over its r_b largest eigenvalues.
Eigen::MatrixXd factorsOf(const Eigen::VectorXd& x, const std::vector<Index>& ranks,
                          const std::vector<Index>& offsets, Index D) {
  Eigen::MatrixXd L(D, offsets.back());
  for (std::size_t b = 0; b < ranks.size(); ++b) {
    const Eigen::Map<const Eigen::MatrixXd> phi(x.data() + static_cast<Index>(b) * D * D, D, D);
    const SymmetricEigen eig = symmetricEigen(0.5 * (phi + phi.transpose()));  // ascending
    const Index r = ranks[b];
    L.middleCols(offsets[b], r) = eig.vectors.rightCols(r) * eig.values.tail(r).cwiseMax(0.0).cwiseSqrt().asDiagonal();
    // L_b = 0 is a stationary point whatever J is: start beside it.
    if (L.middleCols(offsets[b], r).squaredNorm() == 0) L.middleCols(offsets[b], r).diagonal().setConstant(1e-3);
  }
  return L;
}

}  // namespace

LmgcMixtureFactoredObjective::LmgcMixtureFactoredObjective(const LmgcMixtureProblem& problem, std::vector<Index> ranks)
    : problem_(problem), ranks_(std::move(ranks)) {
  const Index n = problem.rows.rows(), D = problem.rows.cols() + 1;
  if (problem.sparse) {
    rowIndex_.resize(static_cast<std::size_t>(n));
    std::iota(rowIndex_.begin(), rowIndex_.end(), Index(0));
  } else {
    Xt_ = LmgcModel::augmentedRows(problem.rows);
  }
  offsets_.push_back(0);
  for (const Index r : ranks_) offsets_.push_back(offsets_.back() + r);
  const bool hasLinear = problem.linear.size() == static_cast<Index>(ranks_.size()) * D * D;
  for (std::size_t b = 0; b < ranks_.size(); ++b) {
    if (!hasLinear) {
      E_.emplace_back(Eigen::MatrixXd::Zero(D, D));
      continue;
    }
    const Eigen::Map<const Eigen::MatrixXd> e(problem.linear.data() + static_cast<Index>(b) * D * D, D, D);
    E_.emplace_back(e + e.transpose());  // ∂⟨E, LLᵀ⟩/∂L = (E + Eᵀ)L
  }
  chunks_.resize(static_cast<std::size_t>((n + kChunkRows - 1) / kChunkRows));
}

void LmgcMixtureFactoredObjective::lossChunk(Index k, const Eigen::MatrixXd& L) {
  Chunk& chunk = chunks_[static_cast<std::size_t>(k)];
  const Index first = k * kChunkRows, rows = std::min(kChunkRows, problem_.rows.rows() - first);
  const Index B = static_cast<Index>(ranks_.size());
  std::span<const Index> listed;  // the chunk's rows, for the sparse products
  if (problem_.sparse)
    listed = std::span<const Index>(rowIndex_).subspan(static_cast<std::size_t>(first), static_cast<std::size_t>(rows));
  if (problem_.sparse) {
    problem_.sparse->multiply(listed, pulled_, chunk.U);
  } else {
    chunk.U.noalias() = Xt_.middleRows(first, rows) * L;
  }
  chunk.S.resize(rows, B);
  for (Index b = 0; b < B; ++b)
    chunk.S.col(b) = chunk.U.middleCols(offsets_[static_cast<std::size_t>(b)], ranks_[static_cast<std::size_t>(b)])
                         .rowwise()
                         .squaredNorm();
  chunk.loss = lmgc_detail::mixtureLoss(chunk.S, problem_.y.segment(first, rows), problem_.own.segment(first, rows),
                                        problem_.components, problem_.huberWidth, &chunk.W);
  // ∂s_b/∂L_b = 2x̃x̃ᵀL_b: the chunk's gradient is 2X̃ᵀ(U_b scaled by W's column b, row by row).
  for (Index b = 0; b < B; ++b) {
    auto Ub = chunk.U.middleCols(offsets_[static_cast<std::size_t>(b)], ranks_[static_cast<std::size_t>(b)]);
    Ub = chunk.W.col(b).asDiagonal() * Ub;
  }
  if (problem_.sparse) {
    problem_.sparse->transposeProduct(listed, chunk.U, chunk.gradient);
    chunk.gradient *= 2.0;
  } else {
    chunk.gradient.noalias() = 2.0 * Xt_.middleRows(first, rows).transpose() * chunk.U;
  }
}

double LmgcMixtureFactoredObjective::operator()(const Eigen::VectorXd& factors, Eigen::VectorXd& grad) {
  const Index D = problem_.rows.cols() + 1, R = width(), B = static_cast<Index>(ranks_.size());
  const double q = problem_.quadratic;
  const Eigen::Map<const Eigen::MatrixXd> Lmap(factors.data(), D, R);
  const Eigen::MatrixXd L = Lmap;
  if (problem_.sparse) pulled_ = problem_.sparse->pullFactors(L);
  parallelFor(static_cast<Index>(chunks_.size()), [&](Index k) { lossChunk(k, L); });
  grad.resize(factors.size());
  Eigen::Map<Eigen::MatrixXd> G(grad.data(), D, R);
  RowMajorMatrix sum = RowMajorMatrix::Zero(D, R);
  double loss = 0;
  for (const Chunk& chunk : chunks_) {  // in chunk order: the same bits on any thread count
    loss += chunk.loss;
    sum += chunk.gradient;
  }
  if (problem_.sparse) {
    G = problem_.sparse->pushFactors(sum);
  } else {
    G = sum;
  }
  G *= problem_.weight;
  double value = problem_.weight * loss;
  for (Index b = 0; b < B; ++b) {
    const auto Lb = L.middleCols(offsets_[static_cast<std::size_t>(b)], ranks_[static_cast<std::size_t>(b)]);
    const Eigen::MatrixXd PL = problem_.metric * Lb;
    const Eigen::MatrixXd K = Lb.transpose() * PL;
    const Eigen::MatrixXd EL = E_[static_cast<std::size_t>(b)] * Lb;
    value += 0.5 * q * K.squaredNorm() + 0.5 * Lb.cwiseProduct(EL).sum();
    G.middleCols(offsets_[static_cast<std::size_t>(b)], ranks_[static_cast<std::size_t>(b)]) += 2.0 * q * PL * K + EL;
  }
  return value;
}

std::vector<Index> lmgcMixtureRanks(const Eigen::VectorXd& x, Index blocks, Index D, double relative, Index spare) {
  std::vector<Eigen::VectorXd> values;
  double largest = 0;
  for (Index b = 0; b < blocks; ++b) {
    const Eigen::Map<const Eigen::MatrixXd> phi(x.data() + b * D * D, D, D);
    values.push_back(symmetricEigenvalues(0.5 * (phi + phi.transpose())));
    largest = std::max(largest, values.back().maxCoeff());
  }
  std::vector<Index> ranks;
  for (const Eigen::VectorXd& v : values) {
    const Index above = (v.array() > relative * largest).count();
    ranks.push_back(std::clamp<Index>(above + spare, 1, D));
  }
  return ranks;
}

OptimizeSummary minimizeLmgcMixture(const LmgcMixtureProblem& problem, const SmoothFunction& objective,
                                    const ProjectionFunction& project, Eigen::VectorXd& x,
                                    const ProjectedGradientOptions& options, const IterationCallback& callback) {
  const auto start = std::chrono::steady_clock::now();
  const Index D = problem.rows.cols() + 1, B = problem.classes * problem.components;
  int used = 0, evaluations = 0;
  IterationCallback shifted;
  if (callback)
    shifted = [&](const IterationInfo& info) { return callback({info.iteration + used, info.objective, info.gradientNorm}); };

  ProjectedGradientOptions first = options;
  first.maxIterations = std::min(kRankFindingSteps, options.maxIterations);
  OptimizeSummary summary = minimizeProjectedGradient(objective, project, x, first, shifted);
  used += summary.iterations;
  evaluations += summary.evaluations;
  const auto goOn = [&] { return summary.termination == Termination::MaxIterations && used < options.maxIterations; };
  for (int round = 0; goOn(); ++round) {
    // L-BFGS over the factors of the ranks x shows; x takes the result if J goes down.
    const std::vector<Index> ranks = lmgcMixtureRanks(x, B, D, kRankThreshold, kSpareColumns);
    LmgcMixtureFactoredObjective overFactors(problem, ranks);
    std::vector<Index> offsets{0};
    for (const Index r : ranks) offsets.push_back(offsets.back() + r);
    const Eigen::MatrixXd L0 = factorsOf(x, ranks, offsets, D);
    Eigen::VectorXd factors = Eigen::Map<const Eigen::VectorXd>(L0.data(), L0.size());
    LbfgsOptions lbfgs;
    lbfgs.maxIterations = std::min(round == 0 ? kFirstRoundIterations : kLaterRoundIterations, options.maxIterations - used);
    lbfgs.memory = kFactoredMemory;
    lbfgs.maxLineSearch = kLineSearchTrials;
    lbfgs.absoluteTolerance = 0;
    lbfgs.relativeTolerance = 1e-12;  // projected gradient's measure decides; this only stops a stalled run
    const double measure = summary.gradientNorm;
    // The caller sees the last measure falling as a round usually takes it (lmgc_factored.h).
    const IterationCallback factoredCallback = [&](const IterationInfo& info) {
      return !callback || callback({used + info.iteration, info.objective,
                                    lmgcMeasureDuringRound(measure, info.iteration, lbfgs.maxIterations,
                                                           kLmgcRoundFall)});
    };
    const OptimizeSummary descent = minimizeLbfgs(
        [&](const Eigen::VectorXd& f, Eigen::VectorXd& g) { return overFactors(f, g); }, factors, lbfgs,
        factoredCallback);
    used += descent.iterations;
    evaluations += descent.evaluations;
    if (descent.termination == Termination::Cancelled) {
      summary.termination = Termination::Cancelled;
      break;
    }
    const Eigen::VectorXd reached =
        productsOf(Eigen::Map<const Eigen::MatrixXd>(factors.data(), D, overFactors.width()), offsets, D);
    Eigen::VectorXd unused;
    ++evaluations;
    if (const double value = reached.allFinite() ? objective(reached, unused) : summary.objective;
        value < summary.objective) {
      x = reached;
      summary.objective = value;
    }
    if (used >= options.maxIterations) break;

    ProjectedGradientOptions polish = options;
    const int polishSteps = round == 0 ? kFirstPolishSteps : kPolishSteps;
    polish.maxIterations = round + 1 < kMaxRounds ? std::min(polishSteps, options.maxIterations - used)
                                                  : options.maxIterations - used;
    summary = minimizeProjectedGradient(objective, project, x, polish, shifted);
    used += summary.iterations;
    evaluations += summary.evaluations;
  }
  summary.iterations = used;
  summary.evaluations = evaluations;
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace dpstudio

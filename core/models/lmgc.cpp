#include "core/models/lmgc.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include <Eigen/Cholesky>

#include "core/linalg/psd.h"
#include "core/models/lmgc_components.h"
#include "core/models/lmgc_mixture_loss.h"
#include "core/models/lmgc_pairs.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

constexpr double kInvSqrt2 = 1.0 / std::numbers::sqrt2;

Error invalidModel(std::string message, std::string field) {
  return Error{ErrorKind::InvalidPrivacy, std::move(message), {}, 0, std::move(field)};
}

// Rows per chunk: a chunk's scores product (rows × C(d+1)) stays under 8 MB, so memory does
// not grow with n (MNIST-sized inputs) while the products stay large enough for BLAS-3
// speed. The partition depends only on (C, d), never on the thread count, so sums over
// chunks give the same bits on any machine (core/util/parallel.h).
Index rowsPerChunk(Index C, Index D) {
  return std::clamp<Index>((Index{1} << 20) / std::max<Index>(1, C * D), 64, 512);
}

// Below this many multiply-adds per call, threads cost more than they save.
constexpr double kParallelWork = 1 << 22;

// The working memory of one chunk: augmented rows and their products with every Φ_c.
struct Workspace {
  RowMatrix Xt;       // b × D: augmented rows x̃ᵀ
  RowMatrix T;        // b × CD: x̃ᵀ[Φ_0 … Φ_{C−1}]
  Eigen::MatrixXd S;  // b × C: s_c(x_i)
  Eigen::MatrixXd W;  // b × C: ∂ℓ_i/∂s_c

  Workspace(Index b, Index D, Index C) : Xt(b, D), T(b, C * D), S(b, C), W(b, C) {}
};

void augmentRows(const Eigen::MatrixXd& X, Index first, RowMatrix& Xt) {
  const Index d = X.cols();
  Xt.leftCols(d) = X.middleRows(first, Xt.rows()) * kInvSqrt2;
  Xt.col(d).setConstant(kInvSqrt2);
}

// S(i, c) = x̃_iᵀ Φ_c x̃_i for the chunk: one product for all classes, then row-wise dots.
void chunkScores(const Eigen::VectorXd& theta, Index C, Workspace& w) {
  const Index D = w.Xt.cols();
  const Eigen::Map<const Eigen::MatrixXd> phis(theta.data(), D, C * D);
  w.T.noalias() = w.Xt * phis;
  for (Index c = 0; c < C; ++c)
    w.S.col(c) = w.T.middleCols(c * D, D).cwiseProduct(w.Xt).rowwise().sum();
}

// Scores s (n × C, C the blocks) of every row and, with labels, the loss sum and (if W) the
// weights ∂ℓ_i/∂s_c; `chunkLoss` gives a chunk's loss from its scores. Chunks of rows run in
// parallel; each writes its own rows and its own partial loss, and the partials are added in
// chunk order.
using ChunkLoss = std::function<double(const Eigen::MatrixXd& S, Index first, Eigen::MatrixXd* W)>;
double evaluateRows(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi* y,
                    Index C, const ChunkLoss& chunkLoss, Eigen::MatrixXd& S, Eigen::MatrixXd* W) {
  const Index n = X.rows(), D = X.cols() + 1;
  const Index rows = rowsPerChunk(C, D);
  const Index chunks = (n + rows - 1) / rows;
  S.resize(n, C);
  if (W) W->resize(n, C);
  std::vector<double> partial(static_cast<std::size_t>(chunks), 0.0);
  parallelFor(chunks, [&](Index chunk) {
    const Index first = chunk * rows;
    Workspace w(std::min(rows, n - first), D, C);
    augmentRows(X, first, w.Xt);
    chunkScores(theta, C, w);
    S.middleRows(first, w.S.rows()) = w.S;
    if (!y) return;
    partial[static_cast<std::size_t>(chunk)] = chunkLoss(w.S, first, W ? &w.W : nullptr);
    if (W) W->middleRows(first, w.W.rows()) = w.W;
  });
  double loss = 0;
  for (const double value : partial) loss += value;
  return loss;
}

// G = Σ_i w_i x̃_i x̃_iᵀ (full, symmetric), as symmetric rank-k updates of the lower triangle
// (positive and negative weights separately) over the rows whose weight is non-zero: most
// rows of a trained model sit beyond the margin and cost nothing. Rows in a fixed order.
// Each row's ‖∇_θ ℓ_i‖ from ∂ℓ_i/∂S (W): block b's gradient is W_ib·x̃x̃ᵀ, so the norm is
// ‖W_i‖·‖x̃_i‖², with ‖x̃‖² = (‖x‖² + 1)/2.
Eigen::VectorXd gradientNormsFromWeights(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W) {
  return W.rowwise().norm().cwiseProduct(0.5 * (X.rowwise().squaredNorm().array() + 1).matrix());
}

void weightedGram(const Eigen::MatrixXd& X, const Eigen::Ref<const Eigen::VectorXd>& w,
                  Eigen::Map<Eigen::MatrixXd> G) {
  const Index n = X.rows(), d = X.cols(), D = d + 1;
  const Index rows = std::min<Index>(n, 512);
  RowMatrix gathered(rows, D);
  G.setZero();
  for (Index first = 0; first < n; first += rows) {
    const Index b = std::min(rows, n - first);
    for (const double sign : {1.0, -1.0}) {
      Index k = 0;
      for (Index i = first; i < first + b; ++i) {
        const double wi = sign * w[i];
        if (!(wi > 0)) continue;
        const double scale = std::sqrt(wi) * kInvSqrt2;
        gathered.row(k).head(d) = scale * X.row(i);
        gathered(k++, d) = scale;
      }
      if (k > 0) G.selfadjointView<Eigen::Lower>().rankUpdate(gathered.topRows(k).transpose(), sign);
    }
  }
  const Eigen::MatrixXd lower = G;
  G = lower.selfadjointView<Eigen::Lower>();
}

// The smallest minimizer κ ≥ 0 of the loss at the scores κ·S: it is convex in κ, so its
// derivative is non-decreasing and we bisect for its sign change.
double bestRayScale(const Eigen::MatrixXd& S, const Eigen::VectorXi& y, double h) {
  const auto slope = [&](double kappa) { return lmgc_detail::pairLossSlopeAlongRay(S, y, h, kappa); };
  double lo = 1, hi = 1;
  if (slope(1) >= 0) {
    for (int k = 0; k < 80 && slope(lo) >= 0; ++k) lo *= 0.5;
    if (slope(lo) >= 0) return 0;  // the ray never helps: start from zero
  } else {
    for (int k = 0; k < 80 && slope(hi) < 0; ++k) hi *= 2;
  }
  for (int k = 0; k < 60; ++k) {
    const double mid = 0.5 * (lo + hi);
    (slope(mid) < 0 ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

Result<LmgcModel> LmgcModel::create(Index inputDim, Index classes, double huberWidth, Index components,
                                    Eigen::MatrixXd componentCentres) {
  LmgcModel model(inputDim, classes, huberWidth, components, std::move(componentCentres));
  if (auto status = model.validate(); !status) return status.error();
  return model;
}

LmgcModel::LmgcModel(Index inputDim, Index classes, double huberWidth, Index components,
                     Eigen::MatrixXd componentCentres)
    : Model(inputDim, classes), huberWidth_(huberWidth), components_(components), centres_(std::move(componentCentres)) {
  if (components_ > 1 && centres_.size() == 0 && inputDim >= 1 && classes >= 1)
    centres_ = publicComponentCentres(inputDim, classes, components_);
}

Status LmgcModel::validate() const {
  if (inputDim() < 1) return invalidModel("the input dimension must be >= 1", "inputDim");
  if (classes() < 2) return invalidModel("LMGC needs at least 2 classes", "classes");
  if (!std::isfinite(huberWidth_) || !(huberWidth_ > 0))
    return invalidModel("the Huber width h must be finite and > 0", "huber");
  if (components_ < 1) return invalidModel("LMGC needs at least one component per class", "components");
  if (components_ > 1 && (centres_.rows() != blocks() || centres_.cols() != inputDim()))
    return invalidModel("the component centres must be (classes x components) rows of the input dimension",
                        "components");
  return Ok{};
}

Index LmgcModel::parameterCount() const {
  return blocks() * augmentedDim() * augmentedDim();
}

double LmgcModel::evaluate(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi* y,
                           Eigen::MatrixXd& S, Eigen::MatrixXd* W, const Eigen::VectorXd* counts) const {
  const double h = huberWidth_;
  const Index M = components_;
  eigen_assert(!y || !owners_ || owners_->size() == X.rows());
  eigen_assert(!counts || (M == 1 && counts->size() == X.rows()));
  const ChunkLoss chunkLoss = [&](const Eigen::MatrixXd& chunk, Index first, Eigen::MatrixXd* weights) {
    const auto labels = y->segment(first, chunk.rows());
    if (M == 1) return lmgc_detail::pairLoss(chunk, labels, h, weights, nullptr, counts ? counts->data() + first : nullptr);
    if (owners_) return lmgc_detail::mixtureLoss(chunk, labels, owners_->segment(first, chunk.rows()), M, h, weights);
    const Eigen::VectorXi own = ownComponents(X.middleRows(first, chunk.rows()), labels, centres_, M);
    return lmgc_detail::mixtureLoss(chunk, labels, own, M, h, weights);
  };
  return evaluateRows(theta, X, y, blocks(), chunkLoss, S, W);
}

LmgcModel LmgcModel::withOwnComponentsOf(const Eigen::MatrixXd& X, const Eigen::VectorXi& y) const {
  LmgcModel out = *this;
  if (components_ == 1) return out;
  out.owners_ = std::make_shared<const Eigen::VectorXi>(ownComponents(X, y, centres_, components_));
  return out;
}

double LmgcModel::lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                          const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  return countedLossSum(theta, X, y, grad, nullptr);
}

double LmgcModel::countedLossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                 Eigen::VectorXd* grad, const Eigen::VectorXd* counts) const {
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim() && y.size() == X.rows());
  Eigen::MatrixXd S, W;
  const double loss = evaluate(theta, X, &y, S, grad ? &W : nullptr, counts);
  if (grad) gradientFromWeights(X, W, *grad);
  return loss;
}

double LmgcModel::lossSumAndScores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                                   Eigen::MatrixXd& scores, Eigen::VectorXd* grad, const Eigen::VectorXd* counts) const {
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim() && y.size() == X.rows());
  Eigen::MatrixXd S, W;
  const double loss = evaluate(theta, X, &y, S, grad ? &W : nullptr, counts);
  if (grad) gradientFromWeights(X, W, *grad);
  scores = components_ == 1 ? Eigen::MatrixXd(-S) : Eigen::MatrixXd(-lmgc_detail::classSoftMinimum(S, components_));
  return loss;
}

void LmgcModel::gradientFromWeights(const Eigen::MatrixXd& X, const Eigen::MatrixXd& W,
                                    Eigen::VectorXd& grad) const {
  // ∂/∂Φ_c = Σ_i W(i, c)·x̃_i x̃_iᵀ: one weighted Gram matrix per class, classes in parallel
  // (each class's sum keeps its own fixed row order).
  const Index n = X.rows(), C = blocks(), D = augmentedDim();
  grad.resize(parameterCount());
  const auto classGradient = [&](Index c) {
    weightedGram(X, W.col(c), Eigen::Map<Eigen::MatrixXd>(grad.data() + c * D * D, D, D));
  };
  if (static_cast<double>(n) * static_cast<double>(D * D * C) >= kParallelWork) {
    parallelFor(C, classGradient);
  } else {
    for (Index c = 0; c < C; ++c) classGradient(c);
  }
}

Eigen::VectorXd LmgcModel::perExampleGradientNorms(const Eigen::VectorXd& theta,
                                                   const Eigen::MatrixXd& X,
                                                   const Eigen::VectorXi& y) const {
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim() && y.size() == X.rows());
  Eigen::MatrixXd S, W;
  evaluate(theta, X, &y, S, &W);
  return gradientNormsFromWeights(X, W);
}

Eigen::VectorXd LmgcModel::weightedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                               const Eigen::VectorXi& y,
                                               const Eigen::VectorXd& rowWeights) const {
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim() && y.size() == X.rows() &&
               rowWeights.size() == X.rows());
  Eigen::MatrixXd S, W;
  evaluate(theta, X, &y, S, &W);
  W = rowWeights.asDiagonal() * W;
  Eigen::VectorXd grad;
  gradientFromWeights(X, W, grad);
  return grad;
}

Eigen::VectorXd LmgcModel::clippedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                              const Eigen::VectorXi& y, double clip) const {
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim() && y.size() == X.rows());
  Eigen::MatrixXd S, W;
  evaluate(theta, X, &y, S, &W);
  W = clipWeights(gradientNormsFromWeights(X, W), clip).asDiagonal() * W;
  Eigen::VectorXd grad;
  gradientFromWeights(X, W, grad);
  return grad;
}

Eigen::MatrixXd LmgcModel::augmentedRows(const Eigen::MatrixXd& X) {
  Eigen::MatrixXd Xt(X.rows(), X.cols() + 1);
  Xt << X * kInvSqrt2, Eigen::VectorXd::Constant(X.rows(), kInvSqrt2);
  return Xt;
}

Eigen::MatrixXd LmgcModel::perExampleGradients(const Eigen::VectorXd& theta,
                                               const Eigen::MatrixXd& X,
                                               const Eigen::VectorXi& y) const {
  const Index n = X.rows(), C = blocks(), D = augmentedDim();
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim() && y.size() == n);
  Eigen::MatrixXd S, W;
  evaluate(theta, X, &y, S, &W);
  const Eigen::MatrixXd Xc = augmentedRows(X);  // column-major: contiguous per coordinate
  // Column by column (coordinate (j, k) of every class), vectorized over the examples, so
  // the n × C(d+1)² output is written contiguously.
  Eigen::MatrixXd G(n, parameterCount());
  for (Index c = 0; c < C; ++c)
    for (Index k = 0; k < D; ++k)
      for (Index j = 0; j < D; ++j)
        G.col(c * D * D + k * D + j) = W.col(c).cwiseProduct(Xc.col(j)).cwiseProduct(Xc.col(k));
  return G;
}

Eigen::MatrixXd LmgcModel::scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const {
  eigen_assert(theta.size() == parameterCount() && X.cols() == inputDim());
  Eigen::MatrixXd S;
  evaluate(theta, X, nullptr, S, nullptr);
  if (components_ == 1) return -S;
  return -lmgc_detail::classSoftMinimum(S, components_);
}

ModelConstants lmgcConstants(Index classes, double huberWidth, Index components) {
  const double C = static_cast<double>(classes);
  if (components == 1) return {std::sqrt(C * (C - 1)), C / (2 * huberWidth), classes - 1};
  // Mixtures: the soft minimum adds curvature of at most ½ in the scores (|H'| ≤ 1 times
  // diag(π) − ππᵀ, ≤ ½ by Gershgorin) and M − 1 directions per competing class; the
  // gradient bound is unchanged (Σ_m π² ≤ 1).
  return {std::sqrt(C * (C - 1)), C / (2 * huberWidth) + 0.5, (classes - 1) * components};
}

ModelConstants LmgcModel::constants() const { return lmgcConstants(classes(), huberWidth_, components_); }

void LmgcModel::project(Eigen::VectorXd& theta) const {
  const Index C = blocks(), D = augmentedDim();
  const auto projectClass = [&](Index c) {
    Eigen::Map<Eigen::MatrixXd> phi(theta.data() + c * D * D, D, D);
    projectPsdInPlace(phi);
  };
  // A symmetric eigen-decomposition costs about 9D³ flops; classes are independent.
  if (9.0 * static_cast<double>(C * D * D * D) >= kParallelWork) {
    parallelFor(C, projectClass);
  } else {
    for (Index c = 0; c < C; ++c) projectClass(c);
  }
}

Eigen::VectorXd LmgcModel::initialParameters(const Eigen::MatrixXd& X,
                                             const Eigen::VectorXi& y) const {
  const Index n = X.rows(), d = inputDim(), C = classes(), D = augmentedDim();
  eigen_assert(X.cols() == d && y.size() == n);
  if (n == 0) return Eigen::VectorXd::Zero(parameterCount());
  if (components_ > 1) {
    // Each component's rows as a class of their own: the single-Gaussian warm start of the
    // C·M-class problem, a regularized quadratic discriminant per component.
    const Eigen::VectorXi own = y * static_cast<int>(components_) + ownComponents(X, y, centres_, components_);
    return LmgcModel(d, blocks(), huberWidth_).initialParameters(X, own);
  }
  constexpr double kShrinkage = 0.1;  // α: enough to make a 64-pixel class covariance usable

  Eigen::VectorXd counts = Eigen::VectorXd::Zero(C);
  Eigen::MatrixXd means = Eigen::MatrixXd::Zero(C, d);
  for (Index i = 0; i < n; ++i) {
    counts[y[i]] += 1;
    means.row(y[i]) += X.row(i);
  }
  const Eigen::RowVectorXd overall = X.colwise().mean();
  for (Index c = 0; c < C; ++c)
    means.row(c) = counts[c] > 0 ? Eigen::RowVectorXd(means.row(c) / counts[c]) : overall;
  Eigen::MatrixXd centred(n, d);
  for (Index i = 0; i < n; ++i) centred.row(i) = X.row(i) - means.row(y[i]);
  const Eigen::MatrixXd pooled = centred.transpose() * centred / static_cast<double>(n);
  // τ floors at a tiny positive value so constant data still give an invertible Σ̂.
  const double tau = std::max(pooled.trace() / static_cast<double>(d), 1e-12);

  std::vector<Eigen::MatrixXd> phis(static_cast<std::size_t>(C));
  Eigen::VectorXd offsets(C);
  for (Index c = 0; c < C; ++c) {
    Eigen::MatrixXd cov = pooled;
    if (counts[c] > 0) {
      Eigen::MatrixXd rows(static_cast<Index>(counts[c]), d);
      for (Index i = 0, k = 0; i < n; ++i)
        if (y[i] == c) rows.row(k++) = centred.row(i);
      cov = rows.transpose() * rows / counts[c];
    }
    cov = (1 - kShrinkage) * cov + kShrinkage * tau * Eigen::MatrixXd::Identity(d, d);
    const Eigen::LLT<Eigen::MatrixXd> llt(cov);
    const Eigen::MatrixXd psi = llt.solve(Eigen::MatrixXd::Identity(d, d));
    const double logDet = 2 * llt.matrixL().toDenseMatrix().diagonal().array().log().sum();
    const double prior = (counts[c] + 1) / static_cast<double>(n + C);  // never log 0
    offsets[c] = logDet - 2 * std::log(prior);

    const Eigen::VectorXd mu = means.row(c).transpose();
    const Eigen::VectorXd psiMu = psi * mu;
    Eigen::MatrixXd& phi = phis[static_cast<std::size_t>(c)];
    phi.resize(D, D);
    phi.topLeftCorner(d, d) = 0.5 * (psi + psi.transpose());
    phi.topRightCorner(d, 1) = -psiMu;
    phi.bottomLeftCorner(1, d) = -psiMu.transpose();
    phi(d, d) = mu.dot(psiMu);
  }
  // A common shift of the offsets changes no margin; shifting to min 0 keeps every θ_c ≥ 0,
  // which with Ψ_c ≻ 0 makes Φ_c ⪰ 0 (its Schur complement is θ_c).
  for (Index c = 0; c < C; ++c)
    phis[static_cast<std::size_t>(c)](d, d) += offsets[c] - offsets.minCoeff();
  Eigen::VectorXd theta = packParameters(phis);

  // One common scale κ for all classes: margins are linear in κ.
  theta *= bestRayScale(-scores(theta, X), y, huberWidth_);
  project(theta);  // removes rounding-level negative eigenvalues
  return theta;
}

Eigen::VectorXd LmgcModel::traceRegularizer(double lambda) const {
  const Index d = inputDim(), D = augmentedDim();
  Eigen::VectorXd c = Eigen::VectorXd::Zero(parameterCount());
  for (Index k = 0; k < blocks(); ++k)
    for (Index j = 0; j < d; ++j) c[k * D * D + j * D + j] = lambda;
  return c;
}

Eigen::Map<const Eigen::MatrixXd> LmgcModel::classMatrix(const Eigen::VectorXd& theta, Index c) const {
  eigen_assert(components_ == 1 && c >= 0 && c < classes());
  return blockMatrix(theta, c);
}

Eigen::Map<const Eigen::MatrixXd> LmgcModel::blockMatrix(const Eigen::VectorXd& theta, Index b) const {
  const Index D = augmentedDim();
  eigen_assert(theta.size() == parameterCount() && b >= 0 && b < blocks());
  return Eigen::Map<const Eigen::MatrixXd>(theta.data() + b * D * D, D, D);
}

Eigen::VectorXd LmgcModel::packParameters(const std::vector<Eigen::MatrixXd>& phis) const {
  const Index D = augmentedDim();
  eigen_assert(static_cast<Index>(phis.size()) == blocks());
  Eigen::VectorXd theta(parameterCount());
  for (Index c = 0; c < blocks(); ++c) {
    eigen_assert(phis[static_cast<std::size_t>(c)].rows() == D && phis[static_cast<std::size_t>(c)].cols() == D);
    Eigen::Map<Eigen::MatrixXd>(theta.data() + c * D * D, D, D) = phis[static_cast<std::size_t>(c)];
  }
  return theta;
}

}  // namespace dpstudio

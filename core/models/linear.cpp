#include "core/models/linear.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/models/huber.h"
#include "core/util/parallel.h"

namespace dpstudio {
namespace {

// ±1 labels: class 1 → +1, anything else → −1.
Eigen::ArrayXd signedLabels(const Eigen::VectorXi& y, Index begin, Index size, int positive) {
  return (y.segment(begin, size).array() == positive).cast<double>() * 2.0 - 1.0;
}

// log(1 + e^{−z}) without overflow for large |z|.
double softplusNeg(double z) { return z > 0 ? std::log1p(std::exp(-z)) : -z + std::log1p(std::exp(z)); }

Eigen::Map<const Eigen::MatrixXd> asMatrix(const Eigen::VectorXd& theta, Index rows, Index cols) {
  return Eigen::Map<const Eigen::MatrixXd>(theta.data(), rows, cols);
}

// ‖vec(x_i r_iᵀ)‖ = ‖x_i‖·‖r_i‖.
Eigen::VectorXd factoredNorms(const Eigen::MatrixXd& X, const Eigen::MatrixXd& R) {
  return (X.rowwise().norm().array() * R.rowwise().norm().array()).matrix();
}

// Σ_i a_i vec(x_i r_iᵀ) = vec(Xᵀ diag(a) R), column-major like θ.
Eigen::VectorXd factoredWeightedSum(const Eigen::MatrixXd& X, const Eigen::MatrixXd& R, const Eigen::VectorXd& a) {
  const Eigen::MatrixXd G = X.transpose() * (a.asDiagonal() * R);
  return Eigen::Map<const Eigen::VectorXd>(G.data(), G.size());
}

// Row i: vec(x_i r_iᵀ).
Eigen::MatrixXd factoredGradients(const Eigen::MatrixXd& X, const Eigen::MatrixXd& R) {
  const Index d = X.cols();
  Eigen::MatrixXd out(X.rows(), d * R.cols());
  for (Index c = 0; c < R.cols(); ++c) out.middleCols(c * d, d) = R.col(c).asDiagonal() * X;
  return out;
}

// X·W for scoring (accuracy, predictions) in fixed chunks of rows, in parallel: one Eigen
// product over MNIST's 60 000 × 784 rows and 10 columns ran on one thread, mostly packing
// the rows (0.5 s of a 6 s training run). Each chunk's product is the same whatever the
// thread count.
Eigen::MatrixXd rowsTimes(const Eigen::MatrixXd& X, const Eigen::Ref<const Eigen::MatrixXd>& W) {
  Eigen::MatrixXd out(X.rows(), W.cols());
  const RowChunks chunks{X.rows()};
  parallelFor(chunks.count(), [&](Index c) {
    out.middleRows(chunks.begin(c), chunks.size(c)).noalias() = X.middleRows(chunks.begin(c), chunks.size(c)) * W;
  });
  return out;
}

// Σ log1p(e_i) for e_i ∈ [0, 1]. Eigen's log1p is a scalar call per element and was half of
// a logistic loss evaluation on a9a; since 1 + e_i ∈ [1, 2], a block of 512 factors has a
// product below 2^512, so one log per block gives the same sum (to ~1e-15 relative) at
// vectorized cost. Only the objective value uses it; the gradient does not.
double sumLog1p(const Eigen::ArrayXd& e) {
  constexpr Index kBlock = 512;
  double sum = 0;
  for (Index begin = 0; begin < e.size(); begin += kBlock)
    sum += std::log((1.0 + e.segment(begin, std::min(kBlock, e.size() - begin))).prod());
  return sum;
}

// Σ_i ℓ(y_i·wᵀx_i) and its gradient for one binary problem (positive class `positive`),
// over fixed row chunks so the sum does not depend on the thread count.
double binaryLossSum(const MarginLoss& loss, const Eigen::Ref<const Eigen::VectorXd>& w,
                     const FeatureMatrix& X, const Eigen::VectorXi& y, int positive,
                     Eigen::Ref<Eigen::VectorXd> grad, bool wantGradient) {
  const RowChunks chunks{X.rows()};
  std::vector<double> losses(static_cast<std::size_t>(chunks.count()), 0.0);
  Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(wantGradient ? X.cols() : 0, chunks.count());
  parallelFor(chunks.count(), [&](Index c) {
    const Index begin = chunks.begin(c), size = chunks.size(c);
    const Eigen::ArrayXd ys = signedLabels(y, begin, size, positive);
    Eigen::VectorXd scoresOfRows(size);
    X.multiplyRows(begin, size, w, scoresOfRows);
    const Eigen::ArrayXd z = ys * scoresOfRows.array();
    Eigen::ArrayXd dz(size);
    losses[static_cast<std::size_t>(c)] = loss.evaluate(z, dz);
    dz *= ys;
    if (wantGradient) X.transposeMultiplyRows(begin, size, dz.matrix(), partial.col(c));
  });
  double total = 0;
  for (double l : losses) total += l;
  if (wantGradient) grad = partial.rowwise().sum();
  return total;
}

}  // namespace

double MarginLoss::value(double z) const {
  return type == BinaryLoss::Logistic ? softplusNeg(z) : huber::loss(z, huber);
}

double MarginLoss::derivative(double z) const {
  if (type == BinaryLoss::Huber) return huber::derivative(z, huber);
  return -1.0 / (1.0 + std::exp(z));  // −σ(−z), exact for all z
}

double MarginLoss::evaluate(const Eigen::ArrayXd& z, Eigen::ArrayXd& derivatives) const {
  if (type == BinaryLoss::Logistic) {
    // One exp per margin, vectorized: with e = exp(−|z|),
    // ℓ = max(−z, 0) + log1p(e) and ℓ' = −σ(−z) = −e/(1+e) (z ≥ 0) or −1/(1+e) (z < 0).
    const Eigen::ArrayXd e = (-z.abs()).exp();
    const Eigen::ArrayXd inv = 1.0 / (1.0 + e);
    derivatives = (z >= 0).select(-e * inv, -inv);
    return (-z).max(0.0).sum() + sumLog1p(e);
  }
  const double h = huber;
  const Eigen::ArrayXd t = 1.0 + h - z;  // > 0 where the loss is active
  derivatives = (z > 1.0 + h).select(0.0, (z < 1.0 - h).select(-1.0, -t / (2.0 * h)));
  return (z > 1.0 + h).select(0.0, (z < 1.0 - h).select(1.0 - z, t * t / (4.0 * h))).sum();
}

double MarginLoss::curvatureBound() const {
  return type == BinaryLoss::Logistic ? 0.25 : 1.0 / (2.0 * huber);
}

// ---- the shared part -------------------------------------------------------------------

Eigen::MatrixXd LinearModel::perExampleGradients(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                 const Eigen::VectorXi& y) const {
  return factoredGradients(X, gradientFactors(theta, X, y));
}

Eigen::VectorXd LinearModel::perExampleGradientNorms(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                     const Eigen::VectorXi& y) const {
  return factoredNorms(X, gradientFactors(theta, X, y));
}

Eigen::VectorXd LinearModel::weightedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                 const Eigen::VectorXi& y, const Eigen::VectorXd& rowWeights) const {
  return factoredWeightedSum(X, gradientFactors(theta, X, y), rowWeights);
}

Eigen::VectorXd LinearModel::clippedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                const Eigen::VectorXi& y, double clip) const {
  const Eigen::MatrixXd R = gradientFactors(theta, X, y);
  return factoredWeightedSum(X, R, clipWeights(factoredNorms(X, R), clip));
}

// ---- binary ----------------------------------------------------------------------------

BinaryLinearModel::BinaryLinearModel(Index inputDim, MarginLoss loss)
    : LinearModel(inputDim, 2), loss_(loss) {}

ModelKind BinaryLinearModel::kind() const {
  return loss_.type == BinaryLoss::Logistic ? ModelKind::LogisticRegression : ModelKind::HuberSvm;
}

double BinaryLinearModel::lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                  const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  return lossSumOnRows(theta, FeatureMatrix(X), y, grad);
}

double BinaryLinearModel::lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& X,
                                        const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  Eigen::VectorXd scratch;
  if (grad) grad->resize(theta.size());
  return binaryLossSum(loss_, theta, X, y, 1, grad ? *grad : scratch, grad != nullptr);
}

Eigen::MatrixXd BinaryLinearModel::gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                   const Eigen::VectorXi& y) const {
  const Eigen::ArrayXd ys = signedLabels(y, 0, y.size(), 1);
  const Eigen::ArrayXd z = ys * (X * theta).array();
  Eigen::MatrixXd dz(X.rows(), 1);
  for (Index i = 0; i < X.rows(); ++i) dz(i, 0) = loss_.derivative(z[i]) * ys[i];
  return dz;
}

Eigen::MatrixXd BinaryLinearModel::scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const {
  Eigen::MatrixXd s(X.rows(), 2);
  s.col(0).setZero();
  s.col(1) = rowsTimes(X, theta);
  return s;
}

ModelConstants BinaryLinearModel::constants() const { return {1.0, loss_.curvatureBound(), 1}; }

// ---- one-vs-rest -----------------------------------------------------------------------

OneVsRestModel::OneVsRestModel(Index inputDim, Index classes, MarginLoss loss)
    : LinearModel(inputDim, classes), loss_(loss) {}

ModelKind OneVsRestModel::kind() const {
  return loss_.type == BinaryLoss::Logistic ? ModelKind::LogisticRegression : ModelKind::HuberSvm;
}

Eigen::VectorXi OneVsRestModel::binaryLabels(const Eigen::VectorXi& y, int c) {
  return (y.array() == c).cast<int>();
}

double OneVsRestModel::lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                               const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  return lossSumOnRows(theta, FeatureMatrix(X), y, grad);
}

double OneVsRestModel::lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& X,
                                     const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  const Index d = inputDim();
  if (grad) grad->resize(theta.size());
  Eigen::VectorXd scratch;
  double total = 0;
  for (Index c = 0; c < classes(); ++c) {
    const auto w = theta.segment(c * d, d);
    if (grad) {
      total += binaryLossSum(loss_, w, X, y, static_cast<int>(c), grad->segment(c * d, d), true);
    } else {
      total += binaryLossSum(loss_, w, X, y, static_cast<int>(c), scratch, false);
    }
  }
  return total;
}

Eigen::MatrixXd OneVsRestModel::gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                                const Eigen::VectorXi& y) const {
  const Index d = inputDim();
  Eigen::MatrixXd R(X.rows(), classes());
  const BinaryLinearModel binary = binaryModel();
  for (Index c = 0; c < classes(); ++c)
    R.col(c) = binary.gradientFactors(theta.segment(c * d, d), X, binaryLabels(y, static_cast<int>(c)));
  return R;
}

Eigen::MatrixXd OneVsRestModel::scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const {
  return rowsTimes(X, asMatrix(theta, inputDim(), classes()));
}

ModelConstants OneVsRestModel::constants() const {
  return {std::sqrt(static_cast<double>(classes())), loss_.curvatureBound(), classes()};
}

// ---- softmax ---------------------------------------------------------------------------

SoftmaxModel::SoftmaxModel(Index inputDim, Index classes) : LinearModel(inputDim, classes) {}

double SoftmaxModel::lossSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                             const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  return lossSumOnRows(theta, FeatureMatrix(X), y, grad);
}

double SoftmaxModel::lossSumOnRows(const Eigen::VectorXd& theta, const FeatureMatrix& X,
                                   const Eigen::VectorXi& y, Eigen::VectorXd* grad) const {
  using RowMajor = FeatureMatrix::RowMajorMatrix;
  const Index d = inputDim(), C = classes();
  const RowMajor W = asMatrix(theta, d, C);  // row j: the C weights a feature j meets
  const RowChunks chunks{X.rows()};
  std::vector<double> losses(static_cast<std::size_t>(chunks.count()), 0.0);
  std::vector<RowMajor> partial(grad ? static_cast<std::size_t>(chunks.count()) : 0);
  parallelFor(chunks.count(), [&](Index c) {
    const Index begin = chunks.begin(c), size = chunks.size(c);
    thread_local RowMajor A;  // logits, then ∂ℓ/∂logits; reused across evaluations
    X.multiplyRows(begin, size, W, A);
    // Row-wise over contiguous rows, and one vectorized exp over the whole block.
    const Eigen::VectorXd top = A.rowwise().maxCoeff();
    double labelGaps = 0;
    // From the logit, not log(e^{a_y − top}): that underflows to log 0 once the label's
    // logit trails by ~745 (raw pixels 0–255 do that in the first line-search trial).
    for (Index i = 0; i < size; ++i) labelGaps += A(i, y[begin + i]) - top[i];
    A.colwise() -= top;
    A = A.array().exp();
    const Eigen::ArrayXd norm = A.rowwise().sum().array();
    losses[static_cast<std::size_t>(c)] = norm.log().sum() - labelGaps;
    if (!grad) return;
    A.array().colwise() /= norm;                            // softmax probabilities
    for (Index i = 0; i < size; ++i) A(i, y[begin + i]) -= 1.0;  // ∂ℓ/∂logits = p − e_y
    X.transposeMultiplyRows(begin, size, A, partial[static_cast<std::size_t>(c)]);
  });
  double total = 0;
  for (double l : losses) total += l;
  if (grad) {
    RowMajor G = RowMajor::Zero(d, C);
    for (const auto& p : partial) G += p;
    grad->resize(d * C);
    Eigen::Map<Eigen::MatrixXd>(grad->data(), d, C) = G;
  }
  return total;
}

Eigen::MatrixXd SoftmaxModel::gradientFactors(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                              const Eigen::VectorXi& y) const {
  Eigen::MatrixXd P = X * asMatrix(theta, inputDim(), classes());
  for (Index i = 0; i < P.rows(); ++i) {
    P.row(i).array() = (P.row(i).array() - P.row(i).maxCoeff()).exp();
    P.row(i) /= P.row(i).sum();
    P(i, y[i]) -= 1.0;
  }
  return P;  // p_i − e_{y_i}
}

Eigen::MatrixXd SoftmaxModel::scores(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const {
  return rowsTimes(X, asMatrix(theta, inputDim(), classes()));
}

ModelConstants SoftmaxModel::constants() const { return {std::sqrt(2.0), 0.5, classes()}; }

}  // namespace dpstudio

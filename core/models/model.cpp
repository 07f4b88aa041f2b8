#include "core/models/model.h"

namespace dpstudio {

std::string modelKindName(ModelKind kind) {
  switch (kind) {
    case ModelKind::LogisticRegression: return "logreg";
    case ModelKind::HuberSvm: return "huber";
    case ModelKind::Softmax: return "softmax";
    case ModelKind::Lmgc: return "lmgc";
  }
  return "unknown";
}

std::string modelLongName(ModelKind kind) {
  switch (kind) {
    case ModelKind::LogisticRegression: return "Logistic regression";
    case ModelKind::HuberSvm: return "Huber SVM";
    case ModelKind::Softmax: return "Softmax regression";
    case ModelKind::Lmgc: return "LMGC";
  }
  return "unknown";
}

Eigen::VectorXi Model::predict(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X) const {
  const Eigen::MatrixXd s = scores(theta, X);
  Eigen::VectorXi labels(s.rows());
  for (Index i = 0; i < s.rows(); ++i) s.row(i).maxCoeff(&labels[i]);
  return labels;
}

Eigen::VectorXd Model::perExampleGradientNorms(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                               const Eigen::VectorXi& y) const {
  return perExampleGradients(theta, X, y).rowwise().norm();
}

Eigen::VectorXd Model::weightedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                           const Eigen::VectorXi& y, const Eigen::VectorXd& rowWeights) const {
  return perExampleGradients(theta, X, y).transpose() * rowWeights;
}

Eigen::VectorXd Model::clippedGradientSum(const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                                          const Eigen::VectorXi& y, double clip) const {
  const Eigen::VectorXd norms = perExampleGradientNorms(theta, X, y);
  return weightedGradientSum(theta, X, y, clipWeights(norms, clip));
}

Eigen::VectorXd Model::initialParameters(const Eigen::MatrixXd& /*X*/,
                                         const Eigen::VectorXi& /*y*/) const {
  return Eigen::VectorXd::Zero(parameterCount());
}

double accuracy(const Model& model, const Eigen::VectorXd& theta, const Eigen::MatrixXd& X,
                const Eigen::VectorXi& y) {
  if (y.size() == 0) return 0.0;
  const Eigen::VectorXi predicted = model.predict(theta, X);
  return static_cast<double>((predicted.array() == y.array()).count()) / static_cast<double>(y.size());
}

}  // namespace dpstudio

#include "core/models/feature_matrix.h"

namespace dpstudio {

FeatureMatrix FeatureMatrix::withSparseIfWorthIt(const Eigen::MatrixXd& X, double maxDensity) {
  FeatureMatrix out(X);
  const auto nonZeros = (X.array() != 0.0).count();
  if (X.size() == 0 || static_cast<double>(nonZeros) > maxDensity * static_cast<double>(X.size()))
    return out;
  out.sparse_ = X.sparseView();
  out.sparse_.makeCompressed();
  out.sparseChosen_ = true;
  return out;
}

void FeatureMatrix::multiplyRows(Eigen::Index begin, Eigen::Index size,
                                 const Eigen::Ref<const Eigen::MatrixXd>& W,
                                 Eigen::Ref<Eigen::MatrixXd> out) const {
  if (sparseChosen_)
    out.noalias() = sparse_.middleRows(begin, size) * W;
  else
    out.noalias() = dense_->middleRows(begin, size) * W;
}

void FeatureMatrix::transposeMultiplyRows(Eigen::Index begin, Eigen::Index size,
                                          const Eigen::Ref<const Eigen::MatrixXd>& R,
                                          Eigen::Ref<Eigen::MatrixXd> out) const {
  if (sparseChosen_)
    out.noalias() = sparse_.middleRows(begin, size).transpose() * R;
  else
    out.noalias() = dense_->middleRows(begin, size).transpose() * R;
}

}  // namespace dpstudio

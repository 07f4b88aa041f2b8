#include "core/bundle/bundle_parameters.h"

#include "core/models/linear.h"
#include "core/models/lmgc.h"

namespace dpstudio::bundle {
namespace {

bool isBinary(const Model& model) { return dynamic_cast<const BinaryLinearModel*>(&model) != nullptr; }
bool isLmgc(const Model& model) { return model.kind() == ModelKind::Lmgc; }

// LMGC's matrices Φ: one per class, or M per class for a mixture.
Index lmgcBlocks(const Model& model) {
  const auto* lmgc = dynamic_cast<const LmgcModel*>(&model);
  return lmgc ? lmgc->blocks() : model.classes();
}

// rows × cols of the stored array; cols 0 for a 1-D array.
std::pair<Index, Index> storedShape(const Model& model) {
  const Index d = model.inputDim(), C = model.classes();
  if (isBinary(model)) return {d, 0};
  if (isLmgc(model)) return {lmgcBlocks(model) * (d + 1), d + 1};
  return {d, C};
}

}  // namespace

QString modelStructure(const Model& model) {
  if (isBinary(model)) return "binary";
  if (isLmgc(model)) return "lmgc";
  if (model.kind() == ModelKind::Softmax) return "multiclass";
  return "one-vs-rest";
}

std::string parameterArrayName(const Model& model) { return isLmgc(model) ? "phi" : "weights"; }

QString scoreRule(const Model& model) {
  if (isBinary(model)) return "label = 1 if x . w > 0 else 0 (w = weights)";
  if (isLmgc(model) && lmgcBlocks(model) > model.classes())
    return "xt = [x, 1] / sqrt(2); M = components; Phi_b = phi[b*(d+1):(b+1)*(d+1)] for b = c*M + m; "
           "s_c = -log sum_m exp(-xt' Phi_(c*M+m) xt); label = argmin_c s_c";
  if (isLmgc(model))
    return "xt = [x, 1] / sqrt(2); Phi_c = phi[c*(d+1):(c+1)*(d+1)]; label = argmin_c xt' Phi_c xt";
  return "label = argmax_c (x @ W)[c] (W = weights, d x C)";
}

NpyArray parametersToArray(const Model& model, const Eigen::VectorXd& theta) {
  const auto [rows, cols] = storedShape(model);
  if (isBinary(model)) return NpyArray{theta, true};
  if (isLmgc(model)) {
    const Index a = model.inputDim() + 1;
    Eigen::MatrixXd stacked(rows, cols);
    for (Index c = 0; c < lmgcBlocks(model); ++c)
      stacked.block(c * a, 0, a, a) = Eigen::Map<const Eigen::MatrixXd>(theta.data() + c * a * a, a, a);
    return NpyArray{stacked, false};
  }
  return NpyArray{Eigen::Map<const Eigen::MatrixXd>(theta.data(), rows, cols), false};
}

Result<Eigen::VectorXd> parametersFromArray(const Model& model, const NpyArray& array, const std::string& member) {
  const auto [rows, cols] = storedShape(model);
  const bool oneD = cols == 0;
  if (array.oneDimensional != oneD || array.values.rows() != rows || (!oneD && array.values.cols() != cols)) {
    const std::string expected = oneD ? "(" + std::to_string(rows) + ",)"
                                      : "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
    return Error{ErrorKind::BadBundle,
                 "has shape " + array.shapeText() + ", but a " + modelStructure(model).toStdString() + " " +
                     modelKindName(model.kind()) + " model of this bundle needs " + expected,
                 {}, 0, member};
  }
  Eigen::VectorXd theta(model.parameterCount());
  if (isLmgc(model)) {
    const Index a = model.inputDim() + 1;
    for (Index c = 0; c < lmgcBlocks(model); ++c)
      Eigen::Map<Eigen::MatrixXd>(theta.data() + c * a * a, a, a) = array.values.block(c * a, 0, a, a);
    return theta;
  }
  return Eigen::VectorXd(Eigen::Map<const Eigen::VectorXd>(array.values.data(), array.values.size()));
}

}  // namespace dpstudio::bundle

#include "core/experiment/trial_measures.h"

#include <limits>

#include "core/models/lmgc.h"
#include "core/models/objective.h"

namespace dpstudio::experiment {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The binary linear learners: one parameter vector, mean scale (not one-vs-rest, not softmax).
bool binaryLinear(const LearnerSpec& learner, const Model& model) {
  return (learner.kind == ModelKind::LogisticRegression || learner.kind == ModelKind::HuberSvm) &&
         model.classes() == 2 && model.parameterCount() == model.inputDim();
}

}  // namespace

double TrialMeasures::value(BoundedQuantity quantity) const {
  switch (quantity) {
    case BoundedQuantity::ParameterDistance: return distance;
    case BoundedQuantity::EmpiricalExcessRisk: return empiricalExcess;
    case BoundedQuantity::TrueExcessRisk: return trueExcess;
  }
  return kNaN;
}

double learnerObjective(const LearnerSpec& learner, const Model& model, const Eigen::VectorXd& theta,
                        const Dataset& data) {
  if (data.rows() == 0 || theta.size() != model.parameterCount()) return kNaN;
  if (const auto* lmgc = dynamic_cast<const LmgcModel*>(&model))
    return Objective(model, data.X, data.y, {LossScale::Sum, learner.lambda, lmgc->traceRegularizer(learner.lambda)})
        .value(theta);
  if (binaryLinear(learner, model))
    return Objective(model, data.X, data.y, {LossScale::Mean, learner.lambda, {}}).value(theta);
  return kNaN;
}

double heldOutRisk(const LearnerSpec& learner, const Model& model, const Eigen::VectorXd& theta, const Dataset& data) {
  if (data.rows() == 0 || theta.size() != model.parameterCount()) return kNaN;
  if (dynamic_cast<const LmgcModel*>(&model))
    return model.lossSum(theta, data.X, data.y, nullptr) / static_cast<double>(data.rows());
  if (binaryLinear(learner, model))
    return Objective(model, data.X, data.y, {LossScale::Mean, learner.lambda, {}}).value(theta);
  return kNaN;
}

TrialMeasures measureExcessRisk(const LearnerSpec& learner, const Model& model, const Eigen::VectorXd& released,
                                const Eigen::VectorXd& reference, const Dataset& train, const Dataset& test) {
  TrialMeasures measures;
  measures.shape = {train.rows(), train.features(), train.classes()};
  measures.empiricalExcess =
      learnerObjective(learner, model, released, train) - learnerObjective(learner, model, reference, train);
  measures.trueExcess = heldOutRisk(learner, model, released, test) - heldOutRisk(learner, model, reference, test);
  return measures;
}

}  // namespace dpstudio::experiment

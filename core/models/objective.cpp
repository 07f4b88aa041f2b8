#include "core/models/objective.h"

namespace dpstudio {

Objective::Objective(const Model& model, const Eigen::MatrixXd& X, const Eigen::VectorXi& y,
                     ObjectiveTerms terms)
    : Objective(model, FeatureMatrix::withSparseIfWorthIt(X), y, std::move(terms)) {}

Objective::Objective(const Model& model, FeatureMatrix rows, const Eigen::VectorXi& y, ObjectiveTerms terms)
    : model_(model), rows_(std::move(rows)), y_(y), terms_(std::move(terms)),
      weight_(terms_.scale == LossScale::Sum ? 1.0 : 1.0 / static_cast<double>(std::max<Index>(1, rows_.rows()))) {}

double Objective::operator()(const Eigen::VectorXd& theta, Eigen::VectorXd& grad) const {
  double value = weight_ * model_.lossSumOnRows(theta, rows_, y_, &grad);
  grad *= weight_;
  if (terms_.quadratic != 0) {
    value += 0.5 * terms_.quadratic * theta.squaredNorm();
    grad += terms_.quadratic * theta;
  }
  if (terms_.linear.size() > 0) {
    value += terms_.linear.dot(theta);
    grad += terms_.linear;
  }
  return value;
}

double Objective::value(const Eigen::VectorXd& theta) const {
  double value = weight_ * model_.lossSumOnRows(theta, rows_, y_, nullptr);
  if (terms_.quadratic != 0) value += 0.5 * terms_.quadratic * theta.squaredNorm();
  if (terms_.linear.size() > 0) value += terms_.linear.dot(theta);
  return value;
}

}  // namespace dpstudio

#pragma once
// Central finite differences for gradient checks (Ceres' GradientChecker idea, small).

#include <Eigen/Core>

#include <functional>

namespace dpstudio::test {

// Largest |analytic − numeric| over coordinates, relative to max(1, |numeric|).
inline double gradientError(const std::function<double(const Eigen::VectorXd&)>& f,
                            const Eigen::VectorXd& x, const Eigen::VectorXd& analytic,
                            double step = 1e-6) {
  double worst = 0;
  Eigen::VectorXd probe = x;
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    probe[j] = x[j] + step;
    const double up = f(probe);
    probe[j] = x[j] - step;
    const double down = f(probe);
    probe[j] = x[j];
    const double numeric = (up - down) / (2 * step);
    worst = std::max(worst, std::abs(analytic[j] - numeric) / std::max(1.0, std::abs(numeric)));
  }
  return worst;
}

// n rows with norms spread over (0, 1], as privacy constants assume.
inline Eigen::MatrixXd randomUnitBallRows(Eigen::Index n, Eigen::Index d, unsigned seed) {
  std::srand(seed);
  Eigen::MatrixXd X = Eigen::MatrixXd::Random(n, d);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double target = 0.05 + 0.95 * (0.5 + 0.5 * Eigen::MatrixXd::Random(1, 1)(0, 0));
    X.row(i) *= target / X.row(i).norm();
  }
  return X;
}

}  // namespace dpstudio::test

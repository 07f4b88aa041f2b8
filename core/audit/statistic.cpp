#include "core/audit/statistic.h"

#include <cmath>

namespace dpstudio::audit {
namespace {

Status requireMovement(const Eigen::VectorXd& from, const Eigen::VectorXd& to, const std::string& what) {
  if ((to - from).norm() > 1e-12 * (1.0 + from.norm())) return Ok{};
  return Error{ErrorKind::BadData,
               "the canary does not move the noise-free " + what + ": the audit would see nothing (choose another "
               "problem or a smaller lambda)",
               {}, 0, "canary"};
}

}  // namespace

double onLikelihoodGrid(double value, double unit) {
  if (!(unit > 0)) return value;
  const double q = unit * kLikelihoodGrid;
  return std::round(value / q) * q;
}

Result<Statistic> projectionStatistic(const Eigen::VectorXd& onD, const Eigen::VectorXd& onDprime,
                                      const std::string& what) {
  if (auto moved = requireMovement(onD, onDprime, what); !moved) return moved.error();
  const Eigen::VectorXd u = (onDprime - onD).normalized();
  return Statistic{[u](const Eigen::VectorXd& o) { return u.dot(o); },
                   "the released " + what + " projected on the unit direction from the noise-free one on D to the "
                   "one on D'"};
}

Result<Statistic> likelihoodStatistic(const Eigen::VectorXd& onD, const Eigen::VectorXd& onDprime, mech::NoiseLaw law,
                                      Index blockSize, const std::string& what) {
  if (law != mech::NoiseLaw::L2Laplace && law != mech::NoiseLaw::LaplacePerCoordinate)
    return projectionStatistic(onD, onDprime, what);
  if (auto moved = requireMovement(onD, onDprime, what); !moved) return moved.error();
  if (blockSize < 1 || onD.size() % blockSize != 0)
    return Error{ErrorKind::Internal, "the " + what + " is not a whole number of noise draws", {}, 0, "noise"};
  const bool l1 = law == mech::NoiseLaw::LaplacePerCoordinate;
  const Index blocks = onD.size() / blockSize;
  auto of = [onD, onDprime, l1, blockSize, blocks](const Eigen::VectorXd& o) {
    double s = 0;
    for (Index k = 0; k < blocks; ++k) {
      const auto toD = o.segment(k * blockSize, blockSize) - onD.segment(k * blockSize, blockSize);
      const auto toDprime = o.segment(k * blockSize, blockSize) - onDprime.segment(k * blockSize, blockSize);
      const auto shift = onDprime.segment(k * blockSize, blockSize) - onD.segment(k * blockSize, blockSize);
      s += onLikelihoodGrid(l1 ? toD.lpNorm<1>() - toDprime.lpNorm<1>() : toD.norm() - toDprime.norm(),
                            l1 ? shift.lpNorm<1>() : shift.norm());
    }
    return s;
  };
  return Statistic{of, std::string("the log-likelihood ratio of D' to D for the released ") + what + " (" +
                           (l1 ? "ℓ1" : "ℓ2") + " distance to the noise-free one on D minus that on D'" +
                           (blocks > 1 ? ", summed over its " + std::to_string(blocks) + " draws" : std::string()) +
                           "), in units of the noise's 1/β"};
}

}  // namespace dpstudio::audit

#pragma once
// A mechanism report as JSON (the CLI's "report" object, and later the bundle manifest's
// privacy statement). Keys: mechanism, model, calibration, noise, noise_source, epsilon,
// delta, noise_dimension, noise_norm (first draw), noise_norms (all draws),
// expected_noise_norm, gradient_norm, release_granularity, statement, warning (when as
// published), formulas (key → formula), and every derived value under its own key
// (beta, Delta, epsilon_prime, rho, sigma, …).

#include <QJsonObject>

#include "core/mechanisms/mechanism.h"

namespace dpstudio::mech {

QJsonObject reportToJson(const MechanismReport& report);

}  // namespace dpstudio::mech

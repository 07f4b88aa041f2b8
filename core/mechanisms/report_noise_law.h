#pragma once
// The law of ‖b‖ for the noise a mechanism report describes (noise_norm_law.h), or why there
// is no single-draw law to show. Every entry of report.noiseNorms follows the returned law:
//
//  - NoiseLaw::L2Laplace (scale β) and NoiseLaw::Gaussian (scale σ), over noiseDimension
//    coordinates: output, objective and loss perturbation, DP-LMGC, multiparty (corrected),
//    the tuned model's own report. One-vs-rest makes one draw per class, each of the same
//    law (noiseDimension is then the coordinates of one class's draw).
//  - Prediction sensitivity (§3 F): the law of each answer's noise; its training draws none.
//
// Refused, with an InvalidPrivacy error whose message says why (field "noise"):
//  - DP-SGD: Gaussian noise at each of its T steps; its report holds the mean norm per
//    step, not one draw of a released noise vector.
//  - per-coordinate Laplace (multiparty as published): the norm of m independent Laplace
//    coordinates has no simple closed-form law.
//  - the exponential mechanism (subsample-and-aggregate) and "none": no noise vector.

#include "core/mechanisms/mechanism.h"
#include "core/privacy/noise_norm_law.h"

namespace dpstudio::mech {

Result<privacy::NoiseNormLaw> noiseNormLaw(const MechanismReport& report);

}  // namespace dpstudio::mech

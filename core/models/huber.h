#pragma once
// The Huber hinge of docs/algorithms.md §2.2 (paper 002 eq. 23; Chapelle 2007), h > 0, target margin 1:
//   H_h(z) = 0                   if z > 1 + h
//          = (1 + h − z)²/(4h)   if |1 − z| ≤ h
//          = 1 − z               if z < 1 − h
// |H'| ≤ 1 and H'' ≤ 1/(2h). Shared by the Huber SVM (z = y·wᵀx) and LMGC (z = margin).

namespace dpstudio::huber {

inline double loss(double z, double h) {
  if (z > 1.0 + h) return 0.0;
  if (z < 1.0 - h) return 1.0 - z;
  const double t = 1.0 + h - z;
  return t * t / (4.0 * h);
}

inline double derivative(double z, double h) {
  if (z > 1.0 + h) return 0.0;
  if (z < 1.0 - h) return -1.0;
  return -(1.0 + h - z) / (2.0 * h);
}

inline double secondDerivative(double z, double h) {
  return (z > 1.0 + h || z < 1.0 - h) ? 0.0 : 1.0 / (2.0 * h);
}

// H_h(z) = max over α ∈ [0, 1] of α(1 + h − z) − hα²: the part without z, α(1 + h) − hα²,
// which LMGC's Lagrangian dual sums over the pairs (lmgc_dual.h, lmgc_dual_descent.h).
inline double conjugateTerm(double alpha, double h) { return alpha * (1.0 + h) - h * alpha * alpha; }

}  // namespace dpstudio::huber

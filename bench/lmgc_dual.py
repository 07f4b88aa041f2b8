"""LMGC's Lagrangian dual solved by L-BFGS-B: a prototype that counts evaluations (issue 34).

The problem (core/models/lmgc.h, sum scale, the CLI's defaults): minimize over Φ_c ⪰ 0
    J(Φ) = Σ_p H_h(m_p(Φ)) + (q/2) Σ_c ‖Φ_c‖²_F + λ Σ_c tr(Ψ_c),   q = λ, h = 1/2,
with m_p = s_c(x_i) − s_{y_i}(x_i) for the pairs p = (i, c ≠ y_i), s_c(x) = x̃ᵀΦ_c x̃ and
x̃ = [x; 1]/√2. Its dual (the one core/models/lmgc_dual.h bounds the minimum with) is
    max over α ∈ [0, 1]^pairs of  g(α) = Σ_p ((1 + h)α_p − hα_p²) − (1/2q) Σ_c ‖[S_c(α) − Λ]₊‖²_F,
S_c(α) = Σ_{p=(i,c)} α_p x̃_ix̃_iᵀ − Σ_{i: y_i=c} (Σ_{c'≠c} α_{ic'}) x̃_ix̃_iᵀ, Λ = λ·diag(1, …, 1, 0),
and Φ_c(α) = [S_c(α) − Λ]₊/q is feasible, so J(Φ(α)) − g(α) bounds both sides' distance
from the minimum. ∂g/∂α_p = 1 + h − 2hα_p − m_p(Φ(α)).

Why it is worth a prototype: the dual is strongly concave with modulus 2h along every
direction, and its curvature is at most ~‖x̃‖⁴/q. Its conditioning does not depend on the
directions that only the regularizer sees, which keep the primal's first-order methods slow.
One evaluation is three D × D products over the rows, an eigendecomposition a class and the
scores through the positive part (~10 ms in C++ for DNA on two cores, 1 792 × 181, C = 3).

Usage: /usr/bin/python3 bench/lmgc_dual.py CSV [LAMBDA] [START]
  CSV: numeric features, the label last, a header row (bench/uci_csv.R writes such files).
  The rows are divided by their RMS norm, as `train` does without a bound. A fixed 3/4 of
  them (seed 1) are used: not the CLI's split, so J* differs from `train`'s objective.
  START: every α_p's initial value (default 0: Φ = 0).
Prints J, g and the relative gap every 25 evaluations, and the minimizer's ranks.
"""
import sys
import time

import numpy as np
from scipy.optimize import minimize


def load(path):
    raw = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=str)
    X = raw[:, :-1].astype(float)
    names = sorted(set(raw[:, -1]))
    y = np.array([names.index(label) for label in raw[:, -1]])
    kept = np.random.default_rng(1).permutation(len(y))[: int(0.75 * len(y))]
    X, y = X[kept], y[kept]
    return X / np.sqrt((X**2).sum(1).mean()), y, len(names)


def main():
    path = sys.argv[1]
    lam = float(sys.argv[2]) if len(sys.argv) > 2 else 1e-2
    start = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    X, y, C = load(path)
    n, d = X.shape
    h, q = 0.5, lam
    Xt = np.hstack([X, np.ones((n, 1))]) / np.sqrt(2)
    Lam = lam * np.diag(np.r_[np.ones(d), 0.0])
    pairs = np.ones((n, C))
    pairs[np.arange(n), y] = 0
    rows = np.arange(n)

    def classMatrices(alpha):
        weights = alpha * pairs
        weights[rows, y] = -weights.sum(1)
        out = []
        for c in range(C):
            values, vectors = np.linalg.eigh((Xt * weights[:, c : c + 1]).T @ Xt - Lam)
            out.append((vectors * (np.maximum(values, 0) / q)) @ vectors.T)
        return out

    def margins(phis):
        scores = np.stack([((Xt @ phi) * Xt).sum(1) for phi in phis], 1)
        return scores - scores[rows, y][:, None]

    def primal(phis):
        slack = 1 + h - margins(phis)
        huber = np.where(slack <= 0, 0, np.where(slack <= 2 * h, slack**2 / (4 * h), slack - h))
        return (huber * pairs).sum() + sum(0.5 * q * (phi**2).sum() + (Lam * phi).sum() for phi in phis)

    evaluations = 0

    def negativeDual(flat):
        nonlocal evaluations
        evaluations += 1
        alpha = flat.reshape(n, C) * pairs
        phis = classMatrices(alpha)
        value = ((1 + h) * alpha - h * alpha**2).sum() - sum((phi**2).sum() for phi in phis) * q / 2
        grad = (1 + h - 2 * h * alpha - margins(phis)) * pairs
        return -value, -grad.ravel()

    began = time.time()
    last = [0]

    def report(flat):
        if evaluations - last[0] < 25:
            return
        last[0] = evaluations
        alpha = flat.reshape(n, C) * pairs
        phis = classMatrices(alpha)
        J = primal(phis)
        g = ((1 + h) * alpha - h * alpha**2).sum() - sum((phi**2).sum() for phi in phis) * q / 2
        print(f"evaluations {evaluations:5d}  J {J:.12g}  g {g:.12g}  relative gap {(J - g) / abs(J):.3g}  "
              f"({time.time() - began:.1f} s in NumPy)", flush=True)

    result = minimize(negativeDual, np.full(n * C, start), jac=True, method="L-BFGS-B", bounds=[(0, 1)] * (n * C),
                      callback=report, options={"maxiter": 5000, "maxfun": 10000, "ftol": 1e-15, "gtol": 1e-10,
                                                "maxcor": 20})
    alpha = result.x.reshape(n, C) * pairs
    phis = classMatrices(alpha)
    J = primal(phis)
    print(f"final: {evaluations} evaluations, J {J:.12g}, g {-result.fun:.12g}, "
          f"relative gap {(J + result.fun) / abs(J):.3g} ({result.message})")
    ranks = []
    for phi in phis:
        values = np.linalg.eigvalsh(phi)
        ranks.append(int((values > 1e-9 * max(values.max(), 1e-300)).sum()))
    inside = int(((alpha > 1e-12) & (alpha < 1 - 1e-12)).sum())
    print(f"ranks {ranks}; multipliers strictly inside (0, 1): {inside}, at 1: {int((alpha >= 1 - 1e-12).sum())}, "
          f"of {int(pairs.sum())} pairs")


if __name__ == "__main__":
    main()

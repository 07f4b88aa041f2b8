#!/usr/bin/python3
"""scikit-learn on the problems of bench_learners.cpp (same data, same regularization).

LogisticRegression(solver="lbfgs", fit_intercept=False, tol=1e-4) with C = 1/(n*lambda):
a9a with lambda = 1/n (C = 1); MNIST softmax with lambda = 1e-5, rows scaled to [0, 1] and
then to unit norm. Run with Debian's /usr/bin/python3 (python3-sklearn from apt).

scikit-learn's L-BFGS-B (scipy) stops on gtol = tol (max-norm of the sum-scale gradient)
*or* on a relative objective decrease below ftol; on these problems the ftol rule ends it
first. So the script also prints the 2-norm of the mean-scale gradient J(w) =
(1/n)Σℓ + (λ/2)‖w‖² where scikit-learn stopped (grad_norm=…): compare_sklearn.sh asks
dpstudio to reach at least that optimization accuracy.
Usage: sklearn_baseline.py DATA_DIR [a9a|mnist|all] [repeats]
"""
import gzip
import struct
import sys
import time

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    magic, count = struct.unpack(">II", data[:8])
    if magic == 2051:
        rows, cols = struct.unpack(">II", data[8:16])
        return np.frombuffer(data, dtype=np.uint8, offset=16).reshape(count, rows * cols)
    return np.frombuffer(data, dtype=np.uint8, offset=8)


def mean_gradient_norm(model, X, y, lam):
    """‖∇J‖₂ of the mean-scale objective at the fitted weights (binary or multinomial)."""
    n = X.shape[0]
    W = model.coef_  # classes × d (binary: 1 × d)
    if W.shape[0] == 1:
        w = W.ravel()
        s = np.where(y == model.classes_[1], 1.0, -1.0)
        margin = s * (X @ w)
        grad = -(X.T @ (s / (1.0 + np.exp(margin)))) / n + lam * w
        return float(np.linalg.norm(grad))
    Z = X @ W.T
    Z -= Z.max(axis=1, keepdims=True)
    P = np.exp(Z)
    P /= P.sum(axis=1, keepdims=True)
    P[np.arange(n), np.searchsorted(model.classes_, y)] -= 1.0
    grad = (X.T @ P).T / n + lam * W
    return float(np.linalg.norm(grad))


def fit(name, X, y, Xt, yt, lam, repeats):
    n = X.shape[0]
    C = 1.0 / (n * lam)
    best = float("inf")
    for _ in range(repeats):
        model = LogisticRegression(solver="lbfgs", C=C, fit_intercept=False, tol=1e-4, max_iter=10000)
        start = time.perf_counter()
        model.fit(X, y)
        best = min(best, time.perf_counter() - start)
    acc = model.score(Xt, yt)
    print(f"sklearn  {name:6s} lambda={lam:.4g} C={C:.4g}  test_accuracy={acc:.4f}  "
          f"fit_seconds={best:.3f}  iterations={int(np.max(model.n_iter_))}  "
          f"grad_norm={mean_gradient_norm(model, X, y, lam):.6e}", flush=True)


def main():
    base = sys.argv[1]
    which = sys.argv[2] if len(sys.argv) > 2 else "all"
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if which in ("a9a", "all"):
        X, y = load_svmlight_file(f"{base}/a9a", n_features=123)
        Xt, yt = load_svmlight_file(f"{base}/a9a.t", n_features=123)
        fit("a9a", X, y, Xt, yt, 1.0 / X.shape[0], repeats)
    if which in ("mnist", "all"):
        def prep(images):
            Z = images.astype(np.float64) / 255.0
            return Z / np.maximum(np.linalg.norm(Z, axis=1, keepdims=True), 1e-300)
        X = prep(read_idx(f"{base}/train-images-idx3-ubyte.gz"))
        y = read_idx(f"{base}/train-labels-idx1-ubyte.gz")
        Xt = prep(read_idx(f"{base}/t10k-images-idx3-ubyte.gz"))
        yt = read_idx(f"{base}/t10k-labels-idx1-ubyte.gz")
        fit("mnist", X, y, Xt, yt, 1e-5, repeats)


if __name__ == "__main__":
    main()

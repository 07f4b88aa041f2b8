"""`--mechanism auto` (docs/algorithms.md §3 K) against an oracle (issue 32).

For each dataset and ε, the mean test accuracy over REPEATS runs (release noise) of
`train --mechanism auto` (the public rule's mechanism at the whole ε) with δ = 1e-6 and with
δ = 0, and of `--mechanism auto --tune` (private selection among every mechanism, its cost
included), beside the best single mechanism and λ of the same grids chosen in hindsight (each
at the whole ε: NOT private, for comparison only), the most common class and the
non-private model.

Usage: private_selection.py CLI DATA_DIR [REPEATS] [--quick] [--only NAME,...] [--uci DIR] [--paired]
  --uci DIR: also the UCI sets satellite, sonar, ionosphere as CSV files in DIR (label last).
  --paired: run r of every column uses split seed r and experiment noise seed r (NOT private),
            so that auto and the oracle's same candidate see the same split and noise, and the
            oracle's lead is what another candidate gains, not run-to-run noise.
"""
import json
import statistics
import subprocess
import sys

# (name, data arguments, model): ranges from the datasets' definitions, not their rows.
DATASETS = [
    ("digits", ["--train", "builtin:digits", "--feature-range", "0,16"], "softmax"),
    ("a9a", ["--train", "{data}/a9a", "--test", "{data}/a9a.t", "--feature-range", "0,1"], "logreg"),
    ("mnist", ["--train", "{data}/train-images-idx3-ubyte.gz", "--labels", "{data}/train-labels-idx1-ubyte.gz",
               "--test", "{data}/t10k-images-idx3-ubyte.gz", "--test-labels", "{data}/t10k-labels-idx1-ubyte.gz",
               "--feature-range", "0,255"], "softmax"),
]
# Breast cancer: each feature in [0, its largest value rounded up], ranges a user reads off the
# measurements' definitions (the same as test_mechanism_sgd_step's).
BREAST_CANCER_HIGHS = [30, 40, 200, 3000, 0.2, 0.4, 0.5, 0.3, 0.4, 0.1, 3, 5, 30, 600, 0.04,
                       0.2, 0.4, 0.06, 0.08, 0.03, 40, 50, 300, 5000, 0.3, 2, 2, 0.3, 0.7, 0.3]
DATASETS.append(("breast_cancer", ["--train", "builtin:breast_cancer", "--feature-ranges",
                                   ",".join(f"0:{h}" for h in BREAST_CANCER_HIGHS)], "logreg"))
UCI = [
    ("satellite", ["--train", "{uci}/satellite.csv", "--feature-range", "0,255"], "softmax"),
    ("sonar", ["--train", "{uci}/sonar.csv", "--feature-range", "0,1"], "logreg"),
    ("ionosphere", ["--train", "{uci}/ionosphere.csv", "--feature-range", "-1,1"], "logreg"),
]
DELTA = "1e-6"
# The oracle's grid: the selection's own candidates (selection.cpp's default λ grids).
ORACLE = {
    "logreg": [("objective", l) for l in ("1e-4", "1e-3", "1e-2")] + [("output", l) for l in ("1e-3", "1e-2", "1e-1")]
              + [("loss", l) for l in ("1e-4", "1e-3", "1e-2")] + [("dpsgd", "1e-4")],
    "softmax": [("loss", l) for l in ("1e-4", "1e-3", "1e-2")] + [("output", l) for l in ("1e-3", "1e-2", "1e-1")]
               + [("dpsgd", "1e-4")],
}
EPSILONS = ["1", "0.5"]


PAIRED = "--paired" in sys.argv


def train(cli, args):
    out = subprocess.run([cli, "train", *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return json.loads(out.stdout)


def mean_accuracy(cli, args, repeats):
    seeded = lambda r: ["--noise", "experiment", "--seed", str(r), "--split-seed", str(r)] if PAIRED else []
    runs = [train(cli, args + seeded(r)) for r in range(1, repeats + 1)]
    runs = [r for r in runs if r]
    return (statistics.mean(r["test_accuracy"] for r in runs), runs) if runs else (float("nan"), [])


def main():
    cli, data = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else 3
    sets = list(DATASETS)
    if "--uci" in sys.argv:
        uci = sys.argv[sys.argv.index("--uci") + 1]
        sets += [(n, [a.replace("{uci}", uci) for a in args], m) for n, args, m in UCI]
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1].split(",")
        sets = [s for s in sets if s[0] in only]
    elif "--quick" in sys.argv:
        sets = [s for s in sets if s[0] != "mnist"]
    print("| data | ε | most common | non-private | auto, δ = 1e-6 | auto, δ = 0 | auto --tune, δ = 1e-6 | "
          "tune chose | oracle (hindsight) | oracle's choice |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, data_args, model in sets:
        base = [a.format(data=data) for a in data_args] + ["--model", model]
        for eps in EPSILONS:
            auto, runs = mean_accuracy(cli, base + ["--mechanism", "auto", "--epsilon", eps, "--delta", DELTA], repeats)
            pure, _ = mean_accuracy(cli, base + ["--mechanism", "auto", "--epsilon", eps], repeats)
            tuned, tuned_runs = mean_accuracy(
                cli, base + ["--mechanism", "auto", "--tune", "--epsilon", eps, "--delta", DELTA], repeats)
            chosen = ", ".join(sorted({r["selection"]["chosen"].split(",")[0] for r in tuned_runs}))
            best, best_name = float("-inf"), ""
            for mechanism, lam in ORACLE[model]:
                args = base + ["--mechanism", mechanism, "--lambda", lam, "--epsilon", eps]
                if mechanism in ("dpsgd", "output"):
                    args += ["--delta", DELTA] + (["--distribution", "gaussian"] if mechanism == "output" else [])
                acc, _ = mean_accuracy(cli, args, repeats)
                if acc == acc and acc > best:
                    best, best_name = acc, f"{mechanism} λ={lam}"
            ref = runs[0]["baselines"] if runs else {}
            print(f"| {name} | {eps} | {ref.get('most_common_class_test_accuracy', float('nan')):.3f} | "
                  f"{ref.get('nonprivate_test_accuracy', float('nan')):.3f} | {auto:.3f} | {pure:.3f} | {tuned:.3f} | {chosen} | "
                  f"{best:.3f} | {best_name} |", flush=True)


if __name__ == "__main__":
    main()

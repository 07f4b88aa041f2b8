"""Private accuracy on public data with the product's defaults (issue 32's targets table).

For each dataset and ε, trains every training mechanism with declared feature ranges (the
recommended preprocessing: centred, R derived from the ranges) and prints a Markdown table
beside the most common class and the non-private model, as `dpstudio-cli train` reports them.
Each cell is the mean test accuracy over REPEATS runs with release noise.

Usage: private_utility.py CLI DATA_DIR [REPEATS] [--quick]
  --quick: digits and a9a only (MNIST's DP-SGD takes minutes on two cores).
"""
import json
import statistics
import subprocess
import sys

# (name, data arguments, model, λ): ranges from the datasets' definitions, not their rows.
DATASETS = [
    ("digits", ["--train", "builtin:digits", "--feature-range", "0,16"], "softmax", "1e-3"),
    ("a9a", ["--train", "{data}/a9a", "--test", "{data}/a9a.t", "--feature-range", "0,1"], "logreg", "1e-3"),
    ("mnist", ["--train", "{data}/train-images-idx3-ubyte.gz", "--labels", "{data}/train-labels-idx1-ubyte.gz",
               "--test", "{data}/t10k-images-idx3-ubyte.gz", "--test-labels", "{data}/t10k-labels-idx1-ubyte.gz",
               "--feature-range", "0,255"], "softmax", "1e-3"),
]
# (column, mechanism arguments, models it applies to)
MECHANISMS = [
    ("output", ["--mechanism", "output"], {"softmax", "logreg"}),
    ("objective", ["--mechanism", "objective"], {"logreg"}),
    ("loss", ["--mechanism", "loss"], {"softmax"}),
    ("dpsgd", ["--mechanism", "dpsgd", "--model", "softmax", "--delta", "1e-6"], {"softmax", "logreg"}),
]
EPSILONS = ["1", "0.5"]


def train(cli, args):
    out = subprocess.run([cli, "train", *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"dpstudio-cli train {' '.join(args)} failed ({out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout)


def main():
    cli, data = sys.argv[1], sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else 3
    quick = "--quick" in sys.argv
    print("| data | ε | most common | non-private | " + " | ".join(m[0] for m in MECHANISMS) +
          " | DP-SGD without noise |")
    print("|---" * (5 + len(MECHANISMS)) + "|")
    for name, data_args, model, lam in DATASETS:
        if quick and name == "mnist":
            continue
        base = [a.format(data=data) for a in data_args] + ["--lambda", lam]
        for eps in EPSILONS:
            cells, majority, nonprivate, noise_free = [], None, None, None
            for column, mech_args, models in MECHANISMS:
                if model not in models:
                    cells.append("—")
                    continue
                args = base + ["--model", model] + mech_args + ["--epsilon", eps]
                runs = [train(cli, args) for _ in range(repeats)]
                cells.append(f"{statistics.mean(r['test_accuracy'] for r in runs):.3f}")
                b = runs[0]["baselines"]
                majority = b["most_common_class_test_accuracy"]
                if column != "dpsgd":
                    nonprivate = b["nonprivate_test_accuracy"]
                noise_free = b.get("noise_free_dpsgd_test_accuracy", noise_free)
            print(f"| {name} | {eps} | {majority:.3f} | {nonprivate:.3f} | " + " | ".join(cells) +
                  f" | {noise_free:.3f} |", flush=True)


if __name__ == "__main__":
    main()

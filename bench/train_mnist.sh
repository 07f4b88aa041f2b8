#!/usr/bin/env bash
# Issue 14's whole-process rows: `dpstudio-cli train` on MNIST as a user runs it (load the
# four IDX files, unit rows, fit, accuracy on both parts), timed with /usr/bin/time:
#   softmax, non-private, λ = 1e-5                      (target ≤ 4 s)
#   one loss-perturbation release, ε = 10, λ = 1e-4    (target ≤ 5 s)
# Each run is repeated; prints wall seconds, peak RSS, the fit's own seconds and iterations,
# and the test accuracy, one line per run. The machine should be otherwise idle.
# Usage: bench/train_mnist.sh [DATA_DIR] [REPEATS (3)]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$(cd "${1:-$root/../shared/data}" && pwd)"
repeats="${2:-3}"
cli="$root/build/release/app/cli/dpstudio-cli"
[[ -x "$cli" ]] || { echo "build dpstudio-cli first (cmake --build --preset release --target dpstudio-cli)" >&2; exit 2; }
mnist=(--train "$data/train-images-idx3-ubyte.gz" --labels "$data/train-labels-idx1-ubyte.gz"
       --test "$data/t10k-images-idx3-ubyte.gz" --test-labels "$data/t10k-labels-idx1-ubyte.gz" --unit-rows)
field() { /usr/bin/python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
run() {
  local name=$1
  shift
  local json timing errors
  json=$(mktemp) timing=$(mktemp) errors=$(mktemp)
  for ((k = 1; k <= repeats; k++)); do
    /usr/bin/time -f "%e %M" -o "$timing" "$cli" train "${mnist[@]}" "$@" --json >"$json" 2>"$errors" ||
      { cat "$errors" >&2; exit 1; }
    read -r wall rss <"$timing"
    printf '%-22s run %d: %6.2f s wall, peak %4d MB, fit %.2f s, %s iterations, test accuracy %s\n' "$name" "$k" \
      "$wall" $((rss / 1024)) "$(field "$json" seconds)" "$(field "$json" iterations)" "$(field "$json" test_accuracy)"
  done
  rm -f "$json" "$timing" "$errors"
}
run "softmax λ=1e-5" --model softmax --lambda 1e-5 --mechanism none
run "loss ε=10 λ=1e-4" --model softmax --lambda 1e-4 --mechanism loss --epsilon 10 --noise experiment --seed 1

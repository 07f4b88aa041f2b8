#!/usr/bin/env bash
# Issue 34's whole-process rows: non-private LMGC (`train --model lmgc --mechanism none`,
# CLI defaults: λ = 1e-2, a quarter held out, rows divided by their RMS norm when no bound is
# given) on real data off the built-in sets, with softmax beside it, timed with /usr/bin/time.
# Targets: digits raw ≤ 1 s; DNA and shuttle ≤ 5 s; a9a ≤ 30 s; MNIST projected to 50
# dimensions ≤ 60 s; digits with M = 3 components ≤ 5 s (beside M = 1).
# The UCI sets come from R's mlbench (bench/uci_csv.R writes them); rows whose file is
# missing are skipped. The machine should be otherwise idle, and on a VM not stolen from
# (`vmstat 1`'s st column near 0: at 35 % every row ran 1.5–2.4× slower, docs/status.md).
# Usage: bench/lmgc_scale.sh [DATA_DIR] [UCI_DIR] [ROW...]   rows: digits dna shuttle a9a
#        mnist50 mnist-pca50 mixtures (default: all)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$(cd "${1:-$root/../shared/data}" && pwd)"
uci="${2:-/tmp/uci}"
shift $(($# < 2 ? $# : 2))
rows=("$@")
[[ ${#rows[@]} -gt 0 ]] || rows=(digits dna shuttle a9a mnist50 mnist-pca50 mixtures)
cli="${DPSTUDIO_CLI:-$root/build/release/app/cli/dpstudio-cli}"
[[ -x "$cli" ]] || { echo "build dpstudio-cli first (cmake --build --preset release --target dpstudio-cli)" >&2; exit 2; }
mnist=(--train "$data/train-images-idx3-ubyte.gz" --labels "$data/train-labels-idx1-ubyte.gz"
       --test "$data/t10k-images-idx3-ubyte.gz" --test-labels "$data/t10k-labels-idx1-ubyte.gz")
a9a=(--train "$data/a9a" --test "$data/a9a.t")

field() { /usr/bin/python3 -c "import json, sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], '-'))" "$1" "$2"; }
run() {
  local name=$1 model=$2
  shift 2
  local json timing errors
  json=$(mktemp) timing=$(mktemp) errors=$(mktemp)
  if /usr/bin/time -f "%e %M" -o "$timing" "$cli" train --model "$model" --mechanism none "$@" --json >"$json" 2>"$errors"; then
    read -r wall rss <"$timing"
    printf '%-16s %-8s %7.2f s wall, peak %5d MB, %5s iterations, %-10s test accuracy %s\n' "$name" "$model" \
      "$wall" $((rss / 1024)) "$(field "$json" iterations)" "$(field "$json" termination)" "$(field "$json" test_accuracy)"
  else
    printf '%-16s %-8s failed: %s\n' "$name" "$model" "$(tail -1 "$errors")"
  fi
  rm -f "$json" "$timing" "$errors"
}
both() {
  local name=$1
  shift
  run "$name" lmgc "$@"
  run "$name" softmax "$@"
}

for row in "${rows[@]}"; do
  case "$row" in
    digits) both "digits raw" --train builtin:digits ;;
    dna) [[ -f "$uci/dna.csv" ]] && both "DNA" --train "$uci/dna.csv" ;;
    shuttle) [[ -f "$uci/shuttle.csv" ]] && both "shuttle" --train "$uci/shuttle.csv" ;;
    a9a) both "a9a" "${a9a[@]}" ;;
    mnist50) both "MNIST proj. 50" "${mnist[@]}" --unit-rows --project 50 ;;
    mnist-pca50) both "MNIST PCA 50" "${mnist[@]}" --unit-rows --pca 50 ;;
    mixtures)
      for m in 1 2 3; do run "digits R=128 M=$m" lmgc --train builtin:digits --norm-bound 128 --components "$m"; done ;;
    *) echo "unknown row: $row" >&2; exit 2 ;;
  esac
done

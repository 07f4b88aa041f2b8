#!/usr/bin/env bash
# Issue 36's rows, whole process where the issue says so (the machine should be idle):
#   reading: a9a, a9a.t, MNIST's four gzip IDX files, with MB/s     (target: MNIST ≤ 0.4 s)
#   a generated 2 GB CSV (4.4 M rows × 50), time and peak memory      (target ≤ 8 s, ≤ 5.5 GB)
#   MNIST softmax, λ = 1e-5, unit rows, train + test (train_mnist.sh) (target ≤ 3 s)
#   a9a + a9a.t logistic regression against scikit-learn's script     (target ≤ 0.2 of it)
# Usage: bench/load_speed.sh [DATA_DIR] [CSV_ROWS (4400000)]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$(cd "${1:-$root/../shared/data}" && pwd)"
rows="${2:-4400000}"
build="$root/build/release"
[[ -x "$build/bench/bench_load" && -x "$build/app/cli/dpstudio-cli" ]] ||
  { echo "build first: cmake --build --preset release" >&2; exit 2; }
DPSTUDIO_DATA_DIR="$data" "$build/bench/bench_load" 5
"$build/bench/bench_load" --csv "$rows" 1 >/dev/null  # writes the file once, outside the timing
"$build/bench/bench_load" --csv "$rows" 3
"$root/bench/train_mnist.sh" "$data" 3 | grep softmax
wall() {
  local timing
  timing=$(mktemp)
  /usr/bin/time -f "%e" -o "$timing" "$@" >/dev/null 2>&1
  cat "$timing"
  rm -f "$timing"
}
ours=$(wall "$build/app/cli/dpstudio-cli" train --train "$data/a9a" --test "$data/a9a.t" --model logreg \
  --lambda 3.0712e-5 --mechanism none)
theirs=$(wall /usr/bin/python3 "$root/bench/sklearn_baseline.py" "$data" a9a 1)
awk -v a="$ours" -v b="$theirs" 'BEGIN {printf "a9a + a9a.t logistic regression, whole process: dpstudio %.2f s, scikit-learn script %.2f s, ratio %.3f\n", a, b, a / b}'

#!/usr/bin/env bash
# dpstudio against scikit-learn on a9a and MNIST: accuracy, fit time and their ratio.
# Usage: bench/compare_sklearn.sh [DATA_DIR] [a9a|mnist|all] [repeats]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$(cd "${1:-$root/../shared/data}" && pwd)"
which="${2:-all}"
repeats="${3:-3}"
"$root/installer/deps.sh" --bench
"$root/installer/build.sh" release >/dev/null
# scikit-learn first: dpstudio is then asked for at least the optimization accuracy
# (mean-scale gradient norm) scikit-learn stopped at.
theirs=$(/usr/bin/python3 "$root/bench/sklearn_baseline.py" "$data" "$which" "$repeats")
field() { echo "$theirs" | awk -v n="$1" -v f="$2=" '$2 == n {for (i = 1; i <= NF; i++) if (index($i, f) == 1) {sub(f, "", $i); print $i}}'; }
targets=()
for name in a9a mnist; do
  g=$(field "$name" grad_norm)
  [[ -n "$g" ]] && targets+=("grad_$name=$g")
done
ours=$(DPSTUDIO_DATA_DIR="$data" "$root/build/release/bench/bench_learners" "$which" "$repeats" "${targets[@]}")
echo "$ours"
echo "$theirs"
for name in a9a mnist; do
  a=$(echo "$ours" | awk -v n="$name" '$2 == n {for (i = 1; i <= NF; i++) if ($i ~ /^fit_seconds=/) {sub("fit_seconds=", "", $i); print $i}}')
  b=$(echo "$theirs" | awk -v n="$name" '$2 == n {for (i = 1; i <= NF; i++) if ($i ~ /^fit_seconds=/) {sub("fit_seconds=", "", $i); print $i}}')
  [[ -n "$a" && -n "$b" ]] && awk -v n="$name" -v a="$a" -v b="$b" 'BEGIN {printf "%-6s dpstudio/sklearn fit time ratio = %.3f\n", n, a / b}'
done

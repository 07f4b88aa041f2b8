#!/usr/bin/env bash
# Paper 003 Figure 1a's protocol on full MNIST (issue 10 §5): `dpstudio-cli sweep --preset
# paper003-fig1a` (output and loss perturbation, prediction sensitivity, subsample-and-
# aggregate; ε ∈ {0.1, 0.3, 1, 3, 10}; δ = 0, B = 100, T = 256), timed as a whole, with each
# mechanism's share of the trials' seconds. The paper's protocol is 100 repetitions (the
# target: ≤ 10 minutes on a 2-core machine); with fewer, the script also extrapolates to 100:
# each mechanism's one-off shared work (its trials' seconds beyond the median trial) once,
# plus 100 × the median trial per ε.
#
# Wall-clock time is the machine's answer only when nothing else runs on it: the script also
# reports the CPU time and the load average, and CPU time ÷ cores as the idle-machine time
# (the worker pool keeps every core busy).
# Usage: bench/sweep_fig1a.sh [DATA_DIR] [REPEATS (100)] [THREADS (all cores)]
# Leaves the trials, JSON, log and figure in build/release/bench/fig1a-R.{csv,json,log,png}.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$(cd "${1:-$root/../shared/data}" && pwd)"
repeats="${2:-100}"
threads=()
[[ -n "${3:-}" ]] && threads=(--threads "$3")
cli="$root/build/release/app/cli/dpstudio-cli"
[[ -x "$cli" ]] || { echo "build dpstudio-cli first (cmake --build --preset release --target dpstudio-cli)" >&2; exit 2; }
out="$root/build/release/bench/fig1a-$repeats"
mkdir -p "$(dirname "$out")"
exec /usr/bin/python3 "$root/bench/sweep_timing.py" "$cli" paper003-fig1a "$data" "$repeats" "$out" "${threads[@]}"

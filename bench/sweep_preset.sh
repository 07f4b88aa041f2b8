#!/usr/bin/env bash
# Any paper preset's sweep on the real data, timed as a whole and per mechanism (the same
# report as sweep_fig1a.sh, which is this script for paper003-fig1a). Options after REPEATS go
# to `sweep` after the preset's and override them: a subset of its series
# (`--mechanisms output:gaussian,loss:gaussian`) when one series costs far more than the others
# (DP-SGD on MNIST: ~20 s a trial), so that they can be run at different repetitions.
# Usage: bench/sweep_preset.sh PRESET [DATA_DIR] [REPEATS (100)] [SWEEP OPTION...]
# Leaves the trials, JSON, log and figure in build/release/bench/PRESET-R[-TAG].{csv,json,log,png},
# TAG from $DPSTUDIO_BENCH_TAG (to keep runs of different series apart).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:?usage: bench/sweep_preset.sh PRESET [DATA_DIR] [REPEATS] [SWEEP OPTION...]}"
data="$(cd "${2:-$root/../shared/data}" && pwd)"
repeats="${3:-100}"
shift $(( $# < 3 ? $# : 3 ))
cli="$root/build/release/app/cli/dpstudio-cli"
[[ -x "$cli" ]] || { echo "build dpstudio-cli first (cmake --build --preset release --target dpstudio-cli)" >&2; exit 2; }
out="$root/build/release/bench/$preset-$repeats${DPSTUDIO_BENCH_TAG:+-$DPSTUDIO_BENCH_TAG}"
mkdir -p "$(dirname "$out")"
exec /usr/bin/python3 "$root/bench/sweep_timing.py" "$cli" "$preset" "$data" "$repeats" "$out" "$@"

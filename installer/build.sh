#!/usr/bin/env bash
# Configures and builds one CMake preset (release by default) in build/<preset>; further
# arguments name the targets to build (default: all of them — the tests and benchmarks too).
# start.sh builds only the GUI, so that the first window does not wait for 100 test programs.
set -euo pipefail
preset="${1:-release}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# DPSTUDIO_BUILD_BENCH=OFF leaves the benchmarks out (CI's test stage: they are not tests).
extra=()
[[ -n "${DPSTUDIO_BUILD_BENCH:-}" ]] && extra+=("-DDPSTUDIO_BUILD_BENCH=$DPSTUDIO_BUILD_BENCH")
cmake --preset "$preset" "${extra[@]}" >/dev/null
if (($# > 0)); then
  cmake --build --preset "$preset" --parallel "$(nproc)" --target "$@"
else
  cmake --build --preset "$preset" --parallel "$(nproc)"
fi

#!/usr/bin/env bash
# CI's fuzzing stage: installs clang and libFuzzer, builds the targets of fuzz/ (in the
# DPSTUDIO_FUZZ_PRESET tree: `fuzz` by default, `asan` in CI, after its unit tests built it)
# and runs each for a short time (default 30 s each, two at a time), from seeds made from
# tests/fixtures. Fails on any crash, leak, UB, timeout or out-of-memory; the input is left
# in build/PRESET/findings/TARGET. Longer runs: bench/fuzz.sh SECONDS.
# Usage: installer/fuzz_smoke.sh [SECONDS [TARGET…]]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/deps.sh" --fuzz
start=$SECONDS
DPSTUDIO_FUZZ_JOBS="${DPSTUDIO_FUZZ_JOBS:-2}" "$here/../bench/fuzz.sh" "${1:-30}" "${@:2}"
echo "dpstudio: fuzz stage (build and runs) took $((SECONDS - start)) s"

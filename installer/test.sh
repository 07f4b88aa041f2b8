#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, and run every test through CTest.
# Real-data tests (label "realdata") read DPSTUDIO_DATA_DIR and report themselves skipped
# when it is unset.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
start=$SECONDS
"$here/deps.sh"
"$here/build.sh" release
echo "dpstudio: installing and building took $((SECONDS - start)) s"
export QT_QPA_PLATFORM=offscreen
if [[ -n "${DPSTUDIO_DATA_DIR:-}" && ! -d "$DPSTUDIO_DATA_DIR" ]]; then
  # .ci/run points at ../shared/data beside the checkout; a clone elsewhere has none.
  echo "dpstudio: DPSTUDIO_DATA_DIR=$DPSTUDIO_DATA_DIR is not a folder: real-data tests will be skipped"
  unset DPSTUDIO_DATA_DIR
fi
if [[ -n "${DPSTUDIO_DATA_DIR:-}" ]]; then
  # Resolved before changing directory: a relative path means "from where you called me".
  DPSTUDIO_DATA_DIR="$(cd "$DPSTUDIO_DATA_DIR" && pwd)"
  export DPSTUDIO_DATA_DIR
  echo "dpstudio: real-data tests read $DPSTUDIO_DATA_DIR"
else
  echo "dpstudio: DPSTUDIO_DATA_DIR is unset: real-data tests will be skipped"
fi
cd "$here/../build/release"
ctest --output-on-failure --parallel "$(nproc)" "$@"

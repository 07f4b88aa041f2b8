#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build a release build, and launch the
# GUI (the first time: a private model on a built-in dataset). Extra arguments go to dpstudio
# (e.g. --dataset builtin:wine).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/deps.sh"
# Only the GUI and what it links: the tests and benchmarks (most of a full build) are
# installer/test.sh's to build.
"$here/build.sh" release dpstudio
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "dpstudio: built; no display found (DISPLAY/WAYLAND_DISPLAY unset)." >&2
  echo "dpstudio: run it under a display, e.g.  xvfb-run -a $here/start.sh" >&2
  exit 1
fi
# Without arguments the GUI opens the last dataset, or on a first start its teaching screen: a
# private model already trained on a built-in 2-D set (ui/startup_options.h).
exec "$here/../build/release/app/gui/dpstudio" "$@"

#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build a release build, and launch the
# GUI on a built-in dataset. Extra arguments go to dpstudio (e.g. --dataset builtin:wine).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/deps.sh"
"$here/build.sh" release
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "dpstudio: built; no display found (DISPLAY/WAYLAND_DISPLAY unset)." >&2
  echo "dpstudio: run it under a display, e.g.  xvfb-run -a $here/start.sh" >&2
  exit 1
fi
if [[ $# -eq 0 ]]; then
  set -- --dataset builtin:iris
fi
exec "$here/../build/release/app/gui/dpstudio" "$@"

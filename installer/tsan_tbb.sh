#!/usr/bin/env bash
# Builds oneTBB with ThreadSanitizer for the tsan stage (installer/sanitizers.sh), from
# Debian's own source of the installed libtbb-dev, into build/tsan-tbb/install. Debian's
# libtbb is not instrumented: TSan then cannot see a task handed from one thread to another
# inside it, and reports every hand-off of the sweep engine's and the audit's pools as a race.
# Idempotent: does nothing when the instrumented library is there. About 40 s on 2 cores.
# Usage: installer/tsan_tbb.sh   (prints the TBB_DIR to configure the tsan preset with)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$here/../build/tsan-tbb"
prefix="$work/install"
config="$prefix/lib/cmake/TBB"
if [[ -f "$config/TBBConfig.cmake" ]]; then
  echo "$config"
  exit 0
fi

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
version=$(dpkg-query -W -f='${source:Version}' libtbb-dev)
# apt-get source needs deb-src entries; Debian's image lists binary packages only.
if ! apt-get source --print-uris -qq "onetbb=$version" >/dev/null 2>&1; then
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    sed -e 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
      "${sudo[@]}" tee /etc/apt/sources.list.d/dpstudio-deb-src.sources >/dev/null
  else
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list |
      "${sudo[@]}" tee /etc/apt/sources.list.d/dpstudio-deb-src.list >/dev/null
  fi
  "${sudo[@]}" apt-get update -qq >&2
fi
rm -rf "$work"
mkdir -p "$work/src"
(cd "$work/src" && apt-get source -qq "onetbb=$version" >&2)
source_dir=$(find "$work/src" -mindepth 1 -maxdepth 1 -type d -name 'onetbb-*' | head -n 1)
cmake -S "$source_dir" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTBB_SANITIZE=thread \
  -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF \
  -DCMAKE_INSTALL_PREFIX="$prefix" >&2
ninja -C "$work/build" tbb >&2
cmake --install "$work/build" >&2
echo "$config"

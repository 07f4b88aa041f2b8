#!/usr/bin/env bash
# Installs what dpstudio needs to build, run and test on Debian 12, and nothing that is
# already there: when every package is present this takes well under a second.
# Usage: installer/deps.sh [--bench] [--fuzz]   (--bench adds what bench/ compares against;
# --fuzz adds clang and its libFuzzer/sanitizer runtimes for bench/fuzz.sh)
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev qt6-qpa-plugins libqt6opengl6-dev
  libgl-dev libvulkan-dev
  libeigen3-dev liblbfgspp-dev libboost-math-dev libboost-random-dev
  libquazip1-qt6-dev zlib1g-dev libdeflate-dev libtbb-dev libgmp-dev openssl
  fonts-dejavu-core
  python3-numpy
  dpkg-dev desktop-file-utils appstream
)
# python3-numpy: the test that runs docs/formats/bundle-format.md's NumPy snippet on a bundle.
# openssl: test_multiparty_paillier_tls makes its TLS certificates with it (libssl3 itself comes
# with libqt6network6, whose OpenSSL backend the party and curator commands use).
for flag in "$@"; do
  case "$flag" in
    --bench) packages+=(python3-sklearn) ;;
    # clang-14 only recommends libclang-rt-14-dev, which holds libFuzzer and ASan/UBSan.
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "usage: installer/deps.sh [--bench] [--fuzz]" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "dpstudio: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "dpstudio: need root or sudo to install packages" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Builds the .deb and .tar.gz from a built tree with CPack, then checks what a user gets: the
# .deb's Depends, its files (binaries, .desktop, metainfo, icons), that the .desktop and the
# metainfo validate, and that the CLI unpacked with dpkg-deb -x, and from the .tar.gz,
# runs from there and trains.
#
# Usage: test_package_deb.sh CPACK BUILD_DIR VERSION
#
# The tree is packaged as it was built (CPACK_DPSTUDIO_ALLOW_ANY_MARCH=ON): the test tree
# of CI and of installer/test.sh uses the local -march, and a second, portable build of the
# whole project inside the test run would take as long as the first. That the package preset
# is portable, and that cpack refuses a tree that is not, is test_package_march's job.
set -euo pipefail
cpack="$1"
build_dir="$2"
version="$3"
app_id="org.dpstudio.Workbench"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$cpack" --config "$build_dir/CPackConfig.cmake" -G "DEB;TGZ" -B "$work/out" \
  -D CPACK_DPSTUDIO_ALLOW_ANY_MARCH=ON >"$work/cpack.log" 2>&1 \
  || { cat "$work/cpack.log" >&2; fail "cpack could not build the packages"; }
deb="$(ls "$work"/out/dpstudio_"$version"_*.deb)"
tgz="$(ls "$work"/out/dpstudio-"$version"-*.tar.gz)"

# Depends: the Debian package of every library the binaries link (dpkg-shlibdeps' work:
# Qt 6, oneTBB, zlib, and QuaZip once core uses it), plus the plugin packages Qt loads at
# run time, which no linker sees.
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
names=", $(sed 's/ *([^)]*)//g' <<<"$depends"),"  # ", libc6, libqt6core6, ..., zlib1g,"
has_depend() { [[ "$names" == *", $1,"* ]]; }
dpkg-deb -x "$deb" "$work/root"
usr="$work/root/usr"
multiarch="$(dpkg-architecture -qDEB_HOST_MULTIARCH)"  # other architectures' copies do not count
for soname in $(readelf -d "$usr/bin/dpstudio" "$usr/bin/dpstudio-cli" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u); do
  package="$(dpkg -S "*/$multiarch/$soname" 2>/dev/null | head -n1 | cut -d: -f1)"
  [[ -n "$package" ]] || fail "no installed package holds the linked $soname"
  has_depend "$package" \
    || fail "Depends does not name $package, which holds the linked $soname"
done
for package in qt6-qpa-plugins libqt6svg6; do  # platform plugins; the SVG icon engine
  has_depend "$package" || fail "Depends does not name $package"
done

for file in bin/dpstudio bin/dpstudio-cli share/applications/$app_id.desktop \
            share/metainfo/$app_id.metainfo.xml share/icons/hicolor/scalable/apps/$app_id.svg \
            share/doc/dpstudio/README.md share/doc/dpstudio/LICENSE share/doc/dpstudio/copyright; do
  [[ -f "$usr/$file" ]] || fail "the .deb has no /usr/$file"
done
# One licence everywhere: the copyright file's, the AppStream metadata's and the LICENSE text.
grep -q '^License: MIT$' "$usr/share/doc/dpstudio/copyright" || fail "the copyright file does not name MIT"
grep -q '<project_license>MIT</project_license>' "$usr/share/metainfo/$app_id.metainfo.xml" \
  || fail "the metainfo's project_license is not MIT"
grep -q '^MIT License$' "$usr/share/doc/dpstudio/LICENSE" || fail "LICENSE is not the MIT text"
for size in 16 32 48 64 128 256; do
  png="$usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png"
  [[ -f "$png" ]] || fail "the .deb has no ${size}x${size} icon"
  # A PNG's width and height are the big-endian words at bytes 16 and 20.
  [[ "$(od -An -tx1 -j16 -N8 "$png" | tr -d ' \n')" == "$(printf '%08x%08x' "$size" "$size")" ]] \
    || fail "$png is not ${size}x${size}"
done
desktop-file-validate "$usr/share/applications/$app_id.desktop" || fail "the .desktop entry does not validate"
# validate-tree: the metainfo, and that it fits the installed tree (its .desktop launchable).
appstreamcli validate-tree --no-net "$work/root" >"$work/appstream.log" 2>&1 \
  || { cat "$work/appstream.log" >&2; fail "the AppStream metainfo does not validate"; }
grep -q "<release version=\"$version\"" "$usr/share/metainfo/$app_id.metainfo.xml" \
  || fail "the metainfo's <releases> does not name this version, $version"

# The CLI runs from where it was unpacked, finding every library on the default path: no
# RPATH (into the build tree, or $ORIGIN as Qt's project setup adds).
if readelf -d "$usr/bin/dpstudio" "$usr/bin/dpstudio-cli" | grep -E 'RPATH|RUNPATH'; then
  fail "the binaries carry an RPATH"
fi
run_cli() {  # run_cli PREFIX: --version, a private training exported as a bundle, and predict
  local cli="$1/bin/dpstudio-cli"
  [[ "$("$cli" --version)" == "dpstudio-cli $version" ]] || fail "$cli --version is not $version"
  rm -f "$work/m.dpmodel"
  "$cli" train --train builtin:iris --model logreg --mechanism output --epsilon 5 --norm-bound 20 \
    --out "$work/m.dpmodel" --json >"$work/train.json" || fail "$cli train failed"
  grep -q '"model": "logreg"' "$work/train.json" && grep -q '"test_accuracy"' "$work/train.json" \
    || fail "$cli train printed no logreg result"
  [[ -s "$work/m.dpmodel" ]] || fail "$cli train --out wrote no bundle"
  "$cli" predict --model "$work/m.dpmodel" --data builtin:iris --json >"$work/predict.json" \
    || fail "$cli predict failed"
  grep -q '"rows": 150' "$work/predict.json" && grep -q '"accuracy"' "$work/predict.json" \
    || fail "$cli predict printed no rows or accuracy"
}
run_cli "$usr"

mkdir "$work/tgz"
tar -xzf "$tgz" -C "$work/tgz"
run_cli "$(ls -d "$work"/tgz/dpstudio-"$version"-*)"
echo "PASS: $(basename "$deb") and $(basename "$tgz") install a working dpstudio-cli"

#!/usr/bin/env bash
# Runs the libFuzzer targets of fuzz/ under ASan + UBSan (the `fuzz` preset, clang).
#
#   bench/fuzz.sh SECONDS [TARGET…]      e.g. bench/fuzz.sh 600, bench/fuzz.sh 30 fuzz_csv
#
# Configures and builds the preset (only the targets asked for), makes each target's seed
# corpus from tests/fixtures in build/fuzz/corpus/TARGET (the bundle targets' seeds: a
# minimal bundle made here, and for fuzz_bundle and fuzz_bundle_manifest, which build the
# whole core anyway, bundles that the preset's dpstudio-cli trains on builtin:iris), runs
# each target for SECONDS, and prints its executions and findings from libFuzzer's final stats. A finding
# (crash, leak, UB, timeout, out of memory) leaves its input in build/fuzz/findings/TARGET
# and makes the script exit 1. Logs: build/fuzz/logs/TARGET.log.
#
# Environment: DPSTUDIO_FUZZ_JOBS targets at once (default 1; each uses one core),
# DPSTUDIO_FUZZ_NO_BUILD=1 to run what is built, DPSTUDIO_FUZZ_PRESET the preset whose tree
# builds and runs them (default fuzz: everything at -O1; CI uses asan, whose tree the unit
# tests have built already with the same sanitizers and coverage). Everything runs under `nice`.
set -euo pipefail

all_targets=(fuzz_csv fuzz_libsvm fuzz_idx fuzz_gzip fuzz_cli_numbers fuzz_npy fuzz_bundle_archive fuzz_bundle
             fuzz_bundle_manifest)
if [[ $# -lt 1 || ! "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: bench/fuzz.sh SECONDS [TARGET…]   targets: ${all_targets[*]}" >&2
  exit 2
fi
seconds="$1"
shift
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target '$target'" >&2; exit 2; }
done
jobs="${DPSTUDIO_FUZZ_JOBS:-1}"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${DPSTUDIO_FUZZ_PRESET:-fuzz}"
[[ "$preset" == fuzz || "$preset" == asan ]] || { echo "fuzz.sh: DPSTUDIO_FUZZ_PRESET must be fuzz or asan" >&2; exit 2; }
build="$root/build/$preset"
fixtures="$root/tests/fixtures"
cd "$root"

needs_cli=0  # the seeds of the targets that link the whole core come from dpstudio-cli
for target in "${targets[@]}"; do
  [[ "$target" == fuzz_bundle || "$target" == fuzz_bundle_manifest ]] && needs_cli=1
done

if [[ "${DPSTUDIO_FUZZ_NO_BUILD:-0}" != 1 ]]; then
  cmake --preset "$preset" >/dev/null
  build_targets=("${targets[@]}")
  [[ $needs_cli == 1 ]] && build_targets+=(dpstudio-cli)
  nice cmake --build "$build" --parallel "$(nproc)" --target "${build_targets[@]}"
fi

# ---- seed corpora -------------------------------------------------------------------------
corpus="$build/corpus"
mkdir -p "$corpus" "$build/findings" "$build/logs"
seed() {  # seed TARGET FILE…: copies the files (gunzipped when asked by GUNZIP=1)
  local target="$1"
  shift
  mkdir -p "$corpus/$target"
  local file
  for file in "$@"; do
    [[ -f "$file" ]] || continue
    if [[ "${GUNZIP:-0}" == 1 ]]; then
      gzip -dc "$file" >"$corpus/$target/$(basename "${file%.gz}")" 2>/dev/null || true
    else
      cp "$file" "$corpus/$target/"
    fi
  done
}
shopt -s nullglob
seed fuzz_csv "$fixtures"/csv/*.csv "$fixtures"/csv/*.txt "$fixtures"/malformed/csv_*
GUNZIP=1 seed fuzz_csv "$fixtures"/csv/*.csv.gz
seed fuzz_libsvm "$fixtures"/libsvm/sniffed "$fixtures"/libsvm/*.libsvm "$fixtures"/malformed/svm_*
head -c 4096 "$fixtures/a9a_head.libsvm" >"$corpus/fuzz_libsvm/a9a_head_4k.libsvm"
seed fuzz_gzip "$fixtures"/*/*.gz "$fixtures"/malformed/gzip_*
# IDX: 4 bytes (little-endian) = length of the images file, then images, then labels.
python3 - "$fixtures" "$corpus/fuzz_idx" <<'EOF'
import glob, gzip, os, struct, sys
fixtures, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
def read(path):
    data = open(path, "rb").read()
    return gzip.decompress(data) if path.endswith(".gz") else data
def pair(name, images, labels):
    open(os.path.join(out, name), "wb").write(struct.pack("<I", len(images)) + images + labels)
mnist = fixtures + "/mnist/train100-"
images, labels = read(mnist + "images-idx3-ubyte.gz"), read(mnist + "labels-idx1-ubyte.gz")
# The first 5 of the 100 rows, their counts in the headers patched to 5.
five = struct.pack(">I", 5)
pair("mnist_train5", images[:4] + five + images[8:16 + 5 * 784], labels[:4] + five + labels[8:13])
for path in sorted(glob.glob(fixtures + "/malformed/idx_*")):
    name = os.path.basename(path)
    other = sorted(glob.glob(fixtures + "/malformed/idx_helper*-" + ("labels-idx1" if "images" in name else "images-idx3") + "-ubyte"))
    for partner in other[:1]:
        a, b = (path, partner) if "images" in name else (partner, path)
        pair(name, read(a), read(b))
EOF
mkdir -p "$corpus/fuzz_cli_numbers"
n=0
for text in 2 1e-3 -0 0x10 inf nan " 3 " 1,2,3 "0.5,,2" 2/4 1/1 0/3 -1,1 "0:1,-1:1,0:255" 9223372036854775807 1e309; do
  printf '%s' "$text" >"$corpus/fuzz_cli_numbers/seed$((n++))"
done
seeds="$build/bundle_seeds"
mkdir -p "$seeds"
# A minimal bundle that passes the archive's integrity checks (bundle_archive.h), deflated
# and stored (stored members let mutations reach the manifest's and arrays' bytes).
python3 - "$seeds" <<'EOF'
import hashlib, json, struct, sys, zipfile
seeds = sys.argv[1]
def npy(rows, cols, values):  # NPY 1.0, '<f8', C order, header padded to 64 bytes
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<%dd" % len(values), *values)
members = {"theta.npy": npy(3, 2, [k / 7 for k in range(6)]), "MODEL_CARD.md": b"# seed\n"}
manifest = {"format": "dpstudio-model", "version": 1, "kind": "model", "classes": ["a", "b"], "input_dim": 3,
            "producer": {"name": "dpstudio"}, "model": {"kind": "logreg"}, "preprocessing": {}, "privacy": {},
            "training": {}, "arrays": {"theta": {"shape": [3, 2]}},
            "checksums": {name: hashlib.sha256(data).hexdigest() for name, data in members.items()}}
members["manifest.json"] = json.dumps(manifest, indent=1).encode()
for name, method in (("minimal", zipfile.ZIP_DEFLATED), ("minimal_stored", zipfile.ZIP_STORED)):
    with zipfile.ZipFile(f"{seeds}/{name}.dpmodel", "w", method) as z:
        for member, data in members.items():
            z.writestr(member, data)
EOF
if [[ $needs_cli == 1 ]]; then
  # Bundles of three kinds: a released model, a private predictor with its budget,
  # subsample-and-aggregate.
  cli="$build/app/cli/dpstudio-cli"
  export DPSTUDIO_LEDGER_FILE="$seeds/ledger.json"
  common=(--train builtin:iris --unit-rows --epsilon 2 --noise release)
  [[ -f "$seeds/loss.dpmodel" ]] || nice "$cli" train "${common[@]}" --model softmax --mechanism loss --out "$seeds/loss.dpmodel" >/dev/null
  [[ -f "$seeds/prediction.dpmodel" ]] || nice "$cli" train "${common[@]}" --model softmax --mechanism prediction --budget 100 --out "$seeds/prediction.dpmodel" >/dev/null
  [[ -f "$seeds/subsample.dpmodel" ]] || nice "$cli" train "${common[@]}" --model logreg --mechanism subsample --budget 20 --teachers 4 --out "$seeds/subsample.dpmodel" >/dev/null
fi
seed fuzz_bundle_archive "$seeds"/*.dpmodel
seed fuzz_bundle "$seeds"/*.dpmodel
seed fuzz_bundle_manifest "$fixtures"/malformed/manifest_*
# Each bundle's manifest and arrays, as seeds of their own.
python3 - "$seeds" "$corpus" <<'EOF'
import glob, os, sys, zipfile
seeds, corpus = sys.argv[1], sys.argv[2]
for d in ("fuzz_npy", "fuzz_bundle_manifest"):
    os.makedirs(os.path.join(corpus, d), exist_ok=True)
for path in sorted(glob.glob(seeds + "/*.dpmodel")):
    kind = os.path.basename(path)[:-len(".dpmodel")]
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            data = z.read(name)
            if name == "manifest.json":
                open(os.path.join(corpus, "fuzz_bundle_manifest", kind + ".json"), "wb").write(data)
            elif name.endswith(".npy") and len(data) <= 65536:
                open(os.path.join(corpus, "fuzz_npy", kind + "_" + name), "wb").write(data)
EOF

# ---- runs ---------------------------------------------------------------------------------
run_one() {  # run_one TARGET: one libFuzzer run; its summary line goes to logs/TARGET.summary
  local target="$1" binary="$build/fuzz/$1" log="$build/logs/$1.log"
  mkdir -p "$corpus/$target.new" "$build/findings/$target"
  # New inputs go to TARGET.new (the seeds stay as made); -timeout: an input taking > 30 s is
  # a hang (generous: ASan, and CI machines are shared); -rss_limit_mb: > 2 GiB is a finding; -max_len: 64 KiB inputs at most.
  local status=0 started=$SECONDS
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    nice "$binary" "$corpus/$target.new" "$corpus/$target" \
      -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$build/findings/$target/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  local ran=$((SECONDS - started)) runs execs_per_s findings
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  execs_per_s=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  findings=$(find "$build/findings/$target" -type f -newer "$log.start" | wc -l)
  if [[ $status -ne 0 && $findings -eq 0 ]]; then findings=1; fi  # crashed without an artifact
  local cov
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
  printf '%-22s %6ss  %12s execs  %8s/s  %-22s findings: %s%s\n' "$target" "$ran" "${runs:-?}" \
    "${execs_per_s:-?}" "${cov:-}" "$findings" "$([[ $findings -gt 0 ]] && echo "  (see $log)")" \
    >"$build/logs/$target.summary"
}

echo "fuzz.sh: ${#targets[@]} target(s), $seconds s each, $jobs at a time"
for target in "${targets[@]}"; do touch "$build/logs/$target.log.start"; done
running=0
for target in "${targets[@]}"; do
  run_one "$target" &
  running=$((running + 1))
  if [[ $running -ge $jobs ]]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

failed=0
for target in "${targets[@]}"; do
  cat "$build/logs/$target.summary"
  grep -q 'findings: 0$' "$build/logs/$target.summary" || failed=1
done
if [[ $failed -ne 0 ]]; then
  echo "fuzz.sh: findings above; inputs in $build/findings/TARGET/, reproduce with $build/fuzz/TARGET FILE"
  exit 1
fi

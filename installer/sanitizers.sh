#!/usr/bin/env bash
# CI's sanitizer stages, each in a build of its own beside build/release:
#   asan  every test that is not a GUI, real-data or package test, built under AddressSanitizer
#         + UndefinedBehaviorSanitizer (preset asan: clang, the core at -O1, the tests at -O0),
#         but for the six labelled "asan_slow" (test_learners, test_lmgc_builtin,
#         test_mechanism_training, test_audit_adversary, test_mechanism_dplmgc_whitebox,
#         test_privacy_pld: LMGC's eigendecompositions, the audit's 10^5 trainings and the
#         accountant's small-δ compositions run 30-60x slower than release there, 2.5-10
#         minutes each; test_lmgc, test_lmgc_training, test_audit, test_mechanism_calibration
#         and test_privacy_cli_accountant cover the same code under ASan);
#   asan-gui  the GUI tests labelled "sanitize" (cancelling every kind of job at random
#         moments), which build the whole window under ASan: by hand, not in CI (time);
#   tsan  the tests labelled "tsan", built with clang -O1 under ThreadSanitizer (preset tsan):
#         the privacy ledger recorded from several threads at once, the sweep engine, the
#         audit and the multiparty parts on oneTBB's pool, and the GUI's job adapter
#         (test_ui_jobs). oneTBB is rebuilt with TSan from Debian's source
#         (installer/tsan_tbb.sh), or TSan could not see its hand-offs; Qt is not, so TSan is
#         told to ignore what uninstrumented libraries do (ignore_noninstrumented_modules):
#         our code hands results to the GUI thread through its own mutex (ui/jobs/job.h), never
#         through Qt's event queue.
# Only what those tests need is built. Any report fails the stage (halt_on_error).
# Usage: installer/sanitizers.sh [asan] [asan-gui] [tsan]   (asan and tsan when none is named)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$here/.."
stages=("$@")
[[ ${#stages[@]} -gt 0 ]] || stages=(asan tsan)
"$here/deps.sh" --fuzz

export QT_QPA_PLATFORM=offscreen
# The real-data tests are not in these stages; no test here may read the user's data.
unset DPSTUDIO_DATA_DIR
suppressions="$root/tests/sanitizers"
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$suppressions/tsan.supp:print_suppressions=0"

# Builds preset $1's test executables selected by ctest's label filter $2… and runs them,
# configured with the cache entries in the array `configure` (may be empty).
run_stage() {
  local preset=$1
  shift
  local start=$SECONDS
  cmake --preset "$preset" -S "$root" "${configure[@]}" >/dev/null
  cd "$root/build/$preset"
  mapfile -t tests < <(ctest -N "$@" | sed -n 's/^ *Test *#[0-9]*: *//p')
  [[ ${#tests[@]} -gt 0 ]] || { echo "dpstudio: no tests selected for $preset" >&2; exit 1; }
  local targets=("${tests[@]}")
  # The tests with "cli" in their names run dpstudio-cli, sanitized as well.
  [[ " ${tests[*]}" == *cli* ]] && targets+=(dpstudio-cli)
  echo "dpstudio: $preset: building ${targets[*]}"
  ninja "${targets[@]}"
  echo "dpstudio: $preset: build took $((SECONDS - start)) s"
  # Sanitized code runs 2-20x slower than release: the presets stretch the tests' timeouts.
  ctest --output-on-failure --parallel "$(nproc)" "$@"
  echo "dpstudio: $preset stage took $((SECONDS - start)) s"
  cd - >/dev/null
}

for stage in "${stages[@]}"; do
  configure=()
  case "$stage" in
    asan) run_stage asan -LE "realdata|gui|package|asan_slow" ;;
    asan-gui) run_stage asan -L gui -L sanitize ;;
    tsan)
      configure=("-DTBB_DIR=$("$here/tsan_tbb.sh")")
      run_stage tsan -L '^tsan$' ;;
    *) echo "usage: installer/sanitizers.sh [asan] [asan-gui] [tsan]" >&2; exit 2 ;;
  esac
done

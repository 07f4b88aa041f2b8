#!/usr/bin/env bash
# CI's sanitizer stages, each in a build of its own beside build/release:
#   asan  every test that is not a GUI, real-data or package test, built under AddressSanitizer
#         + UndefinedBehaviorSanitizer (preset asan: clang, the core at -O1, the tests at -O0),
#         but for the four labelled "asan_slow" (test_learners, test_lmgc_builtin,
#         test_mechanism_training, test_audit_adversary: LMGC's eigendecompositions and the
#         audit's 10^5 trainings run 30-60x slower than release there, 4-10 minutes each;
#         test_lmgc, test_lmgc_training and test_audit cover the same code under ASan);
#   asan-gui  the GUI tests labelled "sanitize" (cancelling every kind of job at random
#         moments), which build the whole window under ASan: by hand, not in CI (time);
#   tsan  the tests labelled "tsan" (the privacy ledger recorded from several threads at
#         once), built with clang -O1 under ThreadSanitizer (preset tsan);
#   tsan-uninstrumented  by hand, not in CI: the tests labelled "tsan_tbb" (the sweep engine,
#         the audit, the trainings, the multiparty parts: threaded through oneTBB) and
#         "tsan_qt" (test_ui_jobs: results and progress posted to the GUI thread through Qt's
#         event queue). Debian builds neither oneTBB nor Qt with TSan, so TSan cannot see
#         their hand-offs (a task stolen by a TBB worker; a functor allocated by the worker
#         and run by the GUI thread) and reports each one as a race: they need oneTBB and Qt
#         built with -fsanitize=thread, or hand-offs through our own mutex-guarded queue.
# Only what those tests need is built. Any report fails the stage (halt_on_error).
# Usage: installer/sanitizers.sh [asan] [asan-gui] [tsan] [tsan-uninstrumented]   (asan and tsan when none is named)
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
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$suppressions/tsan.supp:print_suppressions=0"

# Builds preset $1's test executables selected by ctest's label filter $2… and runs them.
run_stage() {
  local preset=$1
  shift
  local start=$SECONDS
  cmake --preset "$preset" -S "$root" >/dev/null
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
  case "$stage" in
    asan) run_stage asan -LE "realdata|gui|package|asan_slow" ;;
    asan-gui) run_stage asan -L gui -L sanitize ;;
    tsan) run_stage tsan -L '^tsan$' ;;
    tsan-uninstrumented) run_stage tsan -L '^tsan_(tbb|qt)$' ;;
    *) echo "usage: installer/sanitizers.sh [asan] [asan-gui] [tsan] [tsan-uninstrumented]" >&2; exit 2 ;;
  esac
done

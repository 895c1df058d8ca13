#!/usr/bin/env bash
# sanitize.sh [build [TARGET...] | test] - the test command's sanitizer stage (docs/testing.md): the CPU paths built
# with clang, AddressSanitizer and UndefinedBehaviorSanitizer into build-sanitize/ (GSDK_SANITIZE_BUILD names
# another folder), and test executables of the suite run under them. The build is GSDK_FUZZ=ON, so it also holds
# the fuzz targets tests/fuzz/run.sh runs: one instrumented build serves both stages.
#   build [TARGET...]  configures, and builds the fuzz targets and the test executables below (or the TARGETs)
#   test               runs the cases of those test executables
# With no argument, both.
set -euo pipefail
# Built plugins must not be writable by group or others (scripts/build.sh says why).
umask 022
cd "$(dirname "$0")/.."
build=${GSDK_SANITIZE_BUILD:-build-sanitize}
step=${1:-all}
[[ $# -gt 0 ]] && shift

# The test executables run under the sanitizers: what a user's command line reaches (gsdk end to end through the
# plugins it loads) first. docs/testing.md lists those left out and why.
suite=(gsdk_config_tests gsdk_report_tests gsdk_cli_tests gsdk_shards_cli_tests)

build() {
  bash scripts/install-deps.sh
  # ccache where there is one, set when the folder is made: a launcher changed later would rebuild it all.
  local launcher=()
  if [[ ! -f $build/CMakeCache.txt ]] && command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGSDK_FUZZ=ON -DCMAKE_C_COMPILER=clang \
    -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
  local targets=("$@")
  ((${#targets[@]})) || targets=(gsdk_fuzz_targets "${suite[@]}")
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
}

run_tests() {
  # A sanitizer report aborts (SIGABRT) rather than exiting 1, which a test of a failing command would take for the
  # failure it expects. Leaks are reported too, at the exit of every test executable and of every gsdk it runs.
  # handle_segv=0, handle_sigbus=0: the tests' deliberately crashing plugins (tests/test_plugins/faulty/) raise
  # SIGSEGV, and `gsdk check` must see that signal, not ASan's abort; a real crash still kills its test.
  export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:handle_segv=0:handle_sigbus=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
  # Each test executable's name is a label of its cases (tests/GsdkTest.cmake).
  local labels
  labels=$(IFS='|' && echo "${suite[*]}")
  ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -L "^($labels)\$"
}

case $step in
  build) build "$@" ;;
  test) run_tests ;;
  all) build && run_tests ;;
  *)
    echo "usage: scripts/sanitize.sh [build [TARGET...] | test] (got '$step')" >&2
    exit 2
    ;;
esac

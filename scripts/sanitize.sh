#!/usr/bin/env bash
# sanitize.sh - the test command's sanitizer stage (docs/testing.md): the CPU paths built with AddressSanitizer
# and UndefinedBehaviorSanitizer into build-sanitize/, the test suite run under them (all but the package tests,
# label sdk: they install and build plugin templates rather than run our code), then every parser fuzzed for
# GSDK_FUZZ_SECONDS each (default 60; tests/fuzz/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=Release -DGSDK_SANITIZE=address,undefined "$@" >/dev/null
cmake --build build-sanitize -j "$(nproc)"
# A sanitizer report aborts (SIGABRT) rather than exiting 1, which a test of a failing command would take for the
# failure it expects. Leaks are reported too, at the exit of every test executable and of every gsdk it runs.
# handle_segv=0, handle_sigbus=0: the tests' deliberately crashing plugins (tests/test_plugins/faulty/) raise SIGSEGV,
# and `gsdk check` must see that signal, not ASan's abort; a real crash still kills its test.
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:check_initialization_order=1:handle_segv=0:handle_sigbus=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
ctest --test-dir build-sanitize --output-on-failure -j "$(nproc)" -LE '^sdk$'
bash tests/fuzz/run.sh "${GSDK_FUZZ_SECONDS:-60}"

#!/usr/bin/env bash
# test.sh - the README's test command (docs/testing.md), in named steps, each with its time:
#   build, suite             everything built into build/ and the whole test suite run (GPU cases skip without a GPU)
#   python package           `pip install .` into a fresh virtualenv, the Python tests run against what it installed
#   sanitizers build, suite  the CPU paths built with clang, ASan and UBSan into build-sanitize/ and the suite run
#                            under them, but for the tests docs/testing.md lists as left out (scripts/sanitize.sh)
#   fuzz                     every parser fuzzed for a fixed number of inputs from a fixed seed, in that same build
#                            (tests/fuzz/run.sh --ci)
set -euo pipefail
# What the tests build and install (plugins among them) must not be writable by group or others, which gsdk
# refuses to load (scripts/build.sh says why).
umask 022
cd "$(dirname "$0")/.."

step() {
  local name=$1
  shift
  echo "=== test.sh: $name"
  local start=$SECONDS
  "$@"
  local took=$((SECONDS - start))
  echo "=== test.sh: $name done in $((took / 60)) min $((took % 60)) s"
}

step build bash scripts/build.sh
step suite ctest --test-dir build --output-on-failure -j "$(nproc)"
step "python package" bash scripts/test_python_package.sh
step "sanitizers build" bash scripts/sanitize.sh build
step "sanitizers suite" bash scripts/sanitize.sh test
step fuzz bash tests/fuzz/run.sh --ci

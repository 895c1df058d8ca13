#!/usr/bin/env bash
# test.sh - the README's test command: build everything and run the whole test suite with CTest.
# Tests that need a GPU skip themselves where there is none. The sanitizer and fuzzing stages
# (scripts/sanitize.sh, tests/fuzz/run.sh) are run on their own until their time on CI is measured
# (docs/testing.md).
set -euo pipefail
# What the tests build and install (plugins among them) must not be writable by group or others, which gsdk
# refuses to load (scripts/build.sh says why).
umask 022
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"

#!/usr/bin/env bash
# test.sh - the README's test command: build everything and run the whole test suite with CTest, then the
# sanitizer stage (scripts/sanitize.sh: the suite under ASan and UBSan, and a minute of fuzzing per parser).
# Tests that need a GPU skip themselves where there is none.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
bash scripts/sanitize.sh

#!/usr/bin/env bash
# build.sh - configures and builds gsdk into build/ (Release, CUDA when a toolkit is found).
set -euo pipefail
# Built plugins must not be writable by group or others: gsdk refuses to load such files (docs/user_guide.md,
# "Trust: a plugin is native code"), and a umask of 002 would make every built plugin group-writable.
umask 022
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"

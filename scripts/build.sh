#!/usr/bin/env bash
# build.sh - configures and builds gsdk into build/ (Release, CUDA when a toolkit is found).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j "$(nproc)"

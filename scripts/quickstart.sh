#!/usr/bin/env bash
# quickstart.sh - the README's main command: build, then run the quickstart experiment on the best
# device here (a GPU when there is one) and plot its histogram against the exact distribution.
set -euo pipefail
umask 022 # plugins writable by others are refused (scripts/build.sh)
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/bin/gsdk list
./build/bin/gsdk run configs/quickstart.toml --plot results/quickstart.png

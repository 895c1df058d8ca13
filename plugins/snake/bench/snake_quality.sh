#!/usr/bin/env bash
# snake_quality.sh - issue 5's quality targets: the longest snake NMCS finds in the D-cube within SECONDS on
# one GPU (targets: d = 8 >= 97 in 600 s, d = 9 >= 188 and d = 10 >= 370 in 3600 s), with the best-measured
# shape for each cube (docs/perf/snake.md, "A better playout policy: tight"): `tight` playouts, symmetry
# breaking, level 3 with 8,192 searches side by side (d = 8 and 10), level 2 with 65,536 (d = 9). Prints the
# best length against time and checks the saved snake with `snake_check` (the snake plugin's tool). Logs go to $OUT (or
# ./bench-logs).
# Usage: plugins/snake/bench/snake_quality.sh [BUILD_BIN_DIR] [D] [SECONDS] [DEVICE]
# (defaults: build/bin, 9, 3600, cuda; DEVICE=cpu runs the same search on the CPU threads, e.g. as a smoke
# test with a small cube: plugins/snake/bench/snake_quality.sh build/bin 6 5 cpu)
set -uo pipefail
source "$(dirname "$0")/snake_common.sh"
bin=${1:-build/bin}
d=${2:-9}
seconds=${3:-3600}
device=${4:-cuda}
out=${OUT:-bench-logs}
mkdir -p "$out"
level=3
side_by_side=8192
if [[ $d == 9 ]]; then level=2 side_by_side=65536; fi
if [[ $device == cpu ]]; then side_by_side=2; fi
# The run stops early only at the longest snake known (optimal for d <= 8).
if (( d < 3 || d > 13 )); then echo "D must be 3 .. 13, got $d" >&2; exit 2; fi
run="$out/snake_quality_d$d"
"$bin/gsdk" run configs/snake_nmcs_gpu.toml --quiet --device "$device" --out "$run.json" \
  --set params.dimension="$d" --set nmcs.level="$level" --set nmcs.searches_in_parallel="$side_by_side" \
  --set nmcs.time_seconds="$seconds" --set nmcs.stop_at_score="${known[$d]}" --set output.events="$run.events.jsonl" \
  --set output.best="$run.best.json" --set output.plot="" > "$run.log" 2>&1
status=$?
cat "$run.log"
echo "== best length against time (s), then the saved snake checked apart from the search"
report_snake_run "$bin" "$run" || status=1
exit $status

#!/usr/bin/env bash
# snake_grow.sh - the longest snake in the D-cube grown cube by cube, within SECONDS on one GPU: NMCS finds
# an 8-cube snake from scratch, then each larger cube's search starts from the smaller cube's best snake
# ([nmcs] start_from: a snake of the (d-1)-cube is a snake of the d-cube that has not used its last
# dimension yet, and the search continues it into the new half of the cube). Issue 5's targets are d = 9
# >= 188 and d = 10 >= 370 within 3600 s. Shape of every stage: `tight` playouts, symmetry breaking, level
# 3, 8,192 searches side by side (docs/perf/snake.md, "Growing snakes cube by cube"). Time: the 8-cube gets
# 1/60 of SECONDS (it stops early at 98, the optimum), each later cube a share proportional to its vertex
# count (the 9-cube a third of what the 10-cube gets). Prints each stage's best length against time and
# checks every saved snake with `snake_check` (the snake plugin's tool). Logs go to $OUT (or ./bench-logs).
# Usage: plugins/snake/bench/snake_grow.sh [BUILD_BIN_DIR] [D] [SECONDS] [DEVICE]
# (defaults: build/bin, 10, 3600, cuda; a smoke test: plugins/snake/bench/snake_grow.sh build/bin 7 6 cpu)
set -uo pipefail
source "$(dirname "$0")/snake_common.sh"
bin=${1:-build/bin}
d=${2:-10}
seconds=${3:-3600}
device=${4:-cuda}
out=${OUT:-bench-logs}
mkdir -p "$out"
if (( d < 7 || d > 13 )); then echo "D must be 7 .. 13, got $d" >&2; exit 2; fi
first=$(( d < 8 ? d - 1 : 8 ))
side_by_side=8192
if [[ $device == cpu ]]; then side_by_side=2; fi
# Shares: the first cube 1/60 of the time, cube c > first weight 2^(c-first) ... normalised over the rest.
weights=0
for (( c = first + 1; c <= d; ++c )); do weights=$(( weights + (1 << (c - first)) )); done
status=0
previous=""
for (( c = first; c <= d; ++c )); do
  if (( c == first )); then
    share=$(awk -v s="$seconds" 'BEGIN { printf "%.3f", s / 60 }')
  else
    share=$(awk -v s="$seconds" -v w=$(( 1 << (c - first) )) -v t="$weights" 'BEGIN { printf "%.3f", s * 59 / 60 * w / t }')
  fi
  run="$out/snake_grow_d${d}_stage$c"
  start=()
  [[ -n $previous ]] && start=(--set nmcs.start_from="$previous")
  "$bin/gsdk" run configs/snake_nmcs_gpu.toml --quiet --device "$device" --out "$run.json" \
    --set params.dimension="$c" --set nmcs.level=3 --set nmcs.searches_in_parallel="$side_by_side" \
    --set nmcs.time_seconds="$share" --set nmcs.stop_at_score="${known[$c]}" "${start[@]}" \
    --set output.events="$run.events.jsonl" --set output.best="$run.best.json" --set output.plot="" > "$run.log" 2>&1 || status=1
  echo "== $c-cube, ${share} s${previous:+, from $previous}: best length against time (s)"
  report_snake_run "$bin" "$run" 6 || status=1
  previous="$run.best.json"
done
exit $status

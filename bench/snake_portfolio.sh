#!/usr/bin/env bash
# snake_portfolio.sh - the longest snake in the D-cube from a portfolio of short cube-by-cube NMCS runs, one
# seed each, within SECONDS on one GPU. A start: the 8-cube by NMCS level 2 for 1.5 s (93-95 moves, and a
# different snake for each seed, where level 3 converges on very few 97-snakes), then each larger cube up to
# D by level 2 with 65,536 searches side by side, continuing the smaller cube's snake ([nmcs] start_from),
# for 10 s in the 9-cube and three times as long in each cube after. Seeds FIRST_SEED, FIRST_SEED + 1, ...
# until SECONDS are spent (a start begun in time finishes). Starts are independent, so a run longer than a
# device call can be split into calls with different FIRST_SEEDs. Prints every start's lengths, keeps the
# best D-cube snake as $OUT/snake_portfolio_dD.best.json and checks it with `gsdk check-snake`. Issue 5's
# targets: d = 9 >= 188, d = 10 >= 370 within 3600 s (docs/perf/snake.md, "A portfolio of starts").
# Usage: bench/snake_portfolio.sh [BUILD_BIN_DIR] [D] [SECONDS] [FIRST_SEED] [DEVICE]
# (defaults: build/bin, 9, 3600, 1, cuda; a smoke test: bench/snake_portfolio.sh build/bin 9 4 1 cpu)
set -uo pipefail
source "$(dirname "$0")/snake_common.sh"
bin=${1:-build/bin}
d=${2:-9}
seconds=${3:-3600}
seed=${4:-1}
device=${5:-cuda}
out=${OUT:-bench-logs}
work="$out/snake_portfolio"
mkdir -p "$work"
if (( d < 9 || d > 13 )); then echo "D must be 9 .. 13, got $d" >&2; exit 2; fi
first_width=8192 width=65536
if [[ $device == cpu ]]; then first_width=2 width=2; fi

# stage CUBE SEED SECONDS WIDTH LEVEL [START_FILE]: one NMCS run; prints its best length.
stage() {
  local run="$work/s$2_d$1" start=()
  [[ -n ${6:-} ]] && start=(--set nmcs.start_from="$6")
  "$bin/gsdk" run configs/snake_nmcs_gpu.toml --quiet --device "$device" --out "$run.json" --set seed="$2" \
    --set params.dimension="$1" --set nmcs.level="$5" --set nmcs.searches_in_parallel="$4" \
    --set nmcs.time_seconds="$3" --set nmcs.stop_at_score="${known[$1]}" "${start[@]}" \
    --set output.events="$run.events.jsonl" --set output.best="$run.best.json" --set output.plot="" \
    > "$run.log" 2>&1 || { echo "seed $2, $1-cube: gsdk failed, see $run.log" >&2; return 1; }
  tail -n 1 "$run.events.jsonl" | sed -E 's/.*"score":([0-9]+).*/\1/'
}

best=0 best_seed="" status=0
deadline=$(( $(date +%s) + ${seconds%.*} ))
while (( $(date +%s) < deadline )); do
  lengths=$(stage 8 "$seed" 1.5 "$first_width" 2) || { status=1; break; }
  for (( c = 9, t = 10; c <= d; ++c, t *= 3 )); do
    length=$(stage "$c" "$seed" "$t" "$width" 2 "$work/s${seed}_d$((c - 1)).best.json") || { status=1; break 2; }
    lengths+=" -> $length"
  done
  echo "seed $seed: $lengths"
  if (( length > best )); then
    best=$length best_seed=$seed
    cp "$work/s${seed}_d$d.best.json" "$out/snake_portfolio_d$d.best.json"
  fi
  (( ++seed ))
done
echo "== best $d-cube snake: $best (seed $best_seed)"
"$bin/gsdk" check-snake "$out/snake_portfolio_d$d.best.json" || status=1
exit $status

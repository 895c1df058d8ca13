#!/usr/bin/env bash
# snake_portfolio.sh - the longest snake in the D-cube from a portfolio of cube-by-cube NMCS starts, thousands
# at once, within SECONDS on one GPU. A round (one seed for all its runs):
#   1. the 8-cube by NMCS level 2, 8,192 searches side by side until each has ended once; their 1,024 best
#      distinct snakes ([output] searches) are the round's starts (93-95 moves: short snakes differ, and a
#      shorter one often leaves the next cube more room than the longest);
#   2. each larger cube up to D by level 2, twice: wide, 65,536 searches side by side spread over the smaller
#      cube's kept snakes ([nmcs] starts_from: 64 searches for each of 1,024 starts), until each has ended once;
#      then deep, the same number spread over the 32 starts behind the wide run's best snakes (2,048 each:
#      64 searches rank the starts, but leave a start a length or two short of what it allows). The deep run's
#      64 best distinct snakes go on to the next cube; the D-cube's best is the round's result.
# Each run also stops at a time cap (a run cut short keeps its best). Rounds repeat with seeds FIRST_SEED,
# FIRST_SEED + 1, ... until SECONDS are spent (a round begun in time finishes); rounds are independent, so a run
# longer than a device call can be split into calls with different FIRST_SEEDs. Prints each round's lengths,
# keeps the best D-cube snake as $OUT/snake_portfolio_dD.best.json and checks it with `gsdk check-snake`.
# Issue 5's targets: d = 9 >= 188, d = 10 >= 370 within 3600 s (docs/perf/snake.md, "A portfolio of starts").
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
# Side by side, snakes kept for the next cube, starts searched deep, and time caps: the 8-cube's, the 9-cube's,
# and each cube after.
first_width=8192 first_kept=1024 width=65536 kept=64 deep=32 first_cap=20 cap=40 later_cap=120
if [[ $device == cpu ]]; then first_width=4 first_kept=4 width=8 kept=2 deep=2 first_cap=2 cap=4 later_cap=8; fi

# stage CUBE SEED WIDTH KEPT CAP [STARTS_FILE]: NMCS level 2 until WIDTH searches have ended (or CAP seconds),
# keeping its KEPT best distinct snakes; prints "best (searches that ended)".
stage() {
  local run="$work/s$2_d$1" start=()
  [[ -n ${6:-} ]] && start=(--set nmcs.starts_from="$6")
  "$bin/gsdk" run configs/snake_nmcs_gpu.toml --quiet --device "$device" --out "$run.json" --set seed="$2" \
    --set params.dimension="$1" --set nmcs.level=2 --set nmcs.searches_in_parallel="$3" \
    --set nmcs.restarts=$(($3 - 1)) --set nmcs.time_seconds="$5" --set nmcs.stop_at_score="${known[$1]}" \
    "${start[@]}" --set output.searches="$run.jsonl" --set output.searches_kept="$4" \
    --set output.events="$run.events.jsonl" --set output.best="$run.best.json" --set output.plot="" \
    > "$run.log" 2>&1 || { echo "seed $2, $1-cube: gsdk failed, see $run.log" >&2; return 1; }
  local best ended
  best=$(sed -nE 's/.*"best_score": ([0-9]+).*/\1/p' "$run.json")
  ended=$(sed -nE 's/.*"searches_finished": ([0-9]+).*/\1/p' "$run.json")
  echo "$best ($ended)"
}

# deep_starts RESULTS STARTS OUT: the lines of STARTS (one start each) behind RESULTS' best distinct snakes, best
# first (a results line's "start" numbers the STARTS line it began from, from 0), at most $deep of them.
deep_starts() {
  sed -nE 's/.*"start":([0-9]+).*/\1/p' "$1" | awk '!seen[$0]++' | head -n "$deep" |
    while read -r i; do sed -n "$((i + 1))p" "$2"; done > "$3"
}

best=0 best_seed="" status=0
began=$(date +%s)
deadline=$(( began + ${seconds%.*} ))
while (( $(date +%s) < deadline )); do
  lengths="8-cube $(stage 8 "$seed" "$first_width" "$first_kept" "$first_cap")" || { status=1; break; }
  for (( c = 9; c <= d; ++c )); do
    (( c == 9 )) && t=$cap || t=$later_cap
    run="$work/s${seed}_d$c"
    wide=$(stage "$c" "$seed" "$width" "$kept" "$t" "$work/s${seed}_d$((c - 1)).jsonl") || { status=1; break 2; }
    for f in jsonl best.json; do mv "$run.$f" "${run}_wide.$f"; done
    deep_starts "${run}_wide.jsonl" "$work/s${seed}_d$((c - 1)).jsonl" "${run}_deep_starts.jsonl"
    length=$(stage "$c" "$seed" "$width" "$kept" "$t" "${run}_deep_starts.jsonl") || { status=1; break 2; }
    lengths+=" -> $c-cube wide $wide, deep $length"
  done
  length=${length%% *}
  # The deep run searches the wide run's best starts again, but may miss what one of its searches found.
  if (( ${wide%% *} > length )); then length=${wide%% *}; cp "${run}_wide.best.json" "$run.best.json"; fi
  echo "seed $seed ($(( $(date +%s) - began )) s): $lengths"
  if (( length > best )); then
    best=$length best_seed=$seed
    cp "$work/s${seed}_d$d.best.json" "$out/snake_portfolio_d$d.best.json"
  fi
  (( ++seed ))
done
echo "== best $d-cube snake: $best (seed $best_seed) after $(( $(date +%s) - began )) s"
"$bin/gsdk" check-snake "$out/snake_portfolio_d$d.best.json" || status=1
exit $status

#!/usr/bin/env bash
# snake_portfolio.sh - the longest snake in the D-cube from a portfolio of cube-by-cube NMCS starts, thousands
# at once, within SECONDS on one GPU. A round (one seed for all its runs):
#   1. the 8-cube by NMCS level 2, 8,192 searches side by side until each has ended once; their 1,024 best
#      distinct snakes ([output] searches) are the round's starts (93-95 moves: short snakes differ, and a
#      shorter one often leaves the next cube more room than the longest);
#   2. from the 10-cube on, each cube's new half is first grown in a box: the smaller cube's snakes
#      go on in a box, the quarter of the cube where the new half meets the half their heads lie in (the other
#      quarter of the new half is a blocked sub-cube); the 1,024 best distinct of those go on in the whole
#      cube, less the ones with no way out of the box (skip_finished_starts). Without the box, one level-2
#      search over the ~180 moves of the new half stays a few short of what its start allows;
#   3. each larger cube up to D by level 2, twice: wide, 65,536 searches side by side spread over the starts
#      ([nmcs] starts_from: 64 searches for each of 1,024 starts), until each has ended once; then deep, the
#      same number spread over the 32 starts behind the wide run's best snakes (2,048 each: 64 searches rank
#      the starts, but leave a start a length or two short of what it allows). The deep run's 64 best
#      distinct snakes go on to the next cube; the D-cube's best is the round's result.
# Each run also stops at a time cap (a run cut short keeps its best). Rounds repeat with seeds FIRST_SEED,
# FIRST_SEED + 1, ... until SECONDS less a polish reserve are spent (a round begun in time finishes); rounds are
# independent, so a run longer than a device call can be split into calls with different FIRST_SEEDs. Then
#   4. polish: every round's best D-cube snakes within one of the best (at most 64) are turned round and cut
#      back by a quarter to seven tenths, and level 2 searches their ends again (65,536 searches over the cuts).
#      A snake read backwards is a snake from vertex 0 again (the moves reversed trace the same path moved by
#      the end vertex, a symmetry of the cube), so this re-searches the part the rounds never revisit: the
#      first cubes' beginning, grown in the small cube while the rest of the cube was still empty.
# Prints each round's lengths and the polish's, keeps the best D-cube snake as $OUT/snake_portfolio_dD.best.json
# and checks it with `snake_check` (the snake plugin's tool).
# Issue 5's targets: d = 9 >= 188, d = 10 >= 370 within 3600 s (docs/perf/snake.md, "A portfolio of starts").
# Usage: plugins/snake/bench/snake_portfolio.sh [BUILD_BIN_DIR] [D] [SECONDS] [FIRST_SEED] [DEVICE] [POOL]
# (defaults: build/bin, 9, 3600, 1, cuda; a smoke test: plugins/snake/bench/snake_portfolio.sh build/bin 10 4 1 cpu). POOL, a
# searches file of D-cube snakes, joins the polish (SECONDS of 60 or less polish POOL alone, with seed FIRST_SEED:
# plugins/snake/bench/snake_portfolio.sh build/bin 10 60 101 cuda docs/perf/snakes/d10_pool_368.jsonl).
set -uo pipefail
source "$(dirname "$0")/snake_common.sh"
bin=${1:-build/bin}
d=${2:-9}
seconds=${3:-3600}
seed=${4:-1}
device=${5:-cuda}
pool_from=${6:-}
out=${OUT:-bench-logs}
work="$out/snake_portfolio"
mkdir -p "$work"
if (( d < 9 || d > 13 )); then echo "D must be 9 .. 13, got $d" >&2; exit 2; fi
# Side by side, snakes kept for the next cube, starts searched deep, the box runs' side by side (for each half
# the heads lie in) and time caps: the 8-cube's, the 9-cube's, and each cube after.
first_width=8192 first_kept=1024 width=65536 kept=64 deep=32 box_width=32768 first_cap=20 cap=40 later_cap=120
polish_reserve=60
if [[ $device == cpu ]]; then
  first_width=4 first_kept=4 width=8 kept=2 deep=2 box_width=4 first_cap=2 cap=4 later_cap=8 polish_reserve=2
fi

# stage CUBE SEED WIDTH KEPT CAP [STARTS_FILE [RUN_NAME [SETTINGS...]]]: NMCS level 2 until WIDTH searches have
# ended (or CAP seconds), keeping its KEPT best distinct snakes; prints "best (searches that ended)".
stage() {
  local run="$work/${7:-s$2_d$1}" start=()
  [[ -n ${6:-} ]] && start=(--set nmcs.starts_from="$6")
  "$bin/gsdk" run configs/snake_nmcs_gpu.toml --quiet --device "$device" --out "$run.json" --set seed="$2" \
    --set params.dimension="$1" --set nmcs.level=2 --set nmcs.searches_in_parallel="$3" \
    --set nmcs.restarts=$(($3 - 1)) --set nmcs.time_seconds="$5" --set nmcs.stop_at_score="${known[$1]}" \
    "${start[@]}" --set output.searches="$run.jsonl" --set output.searches_kept="$4" \
    --set output.events="$run.events.jsonl" --set output.best="$run.best.json" --set output.plot="" "${@:8}" \
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

# box_stage CUBE SEED STARTS OUT: the snakes of STARTS (one (CUBE-1)-snake a line) grown on in the box of the
# CUBE-cube where the new half meets the half of dimension CUBE-2 their heads lie in, the other quarter of the
# new half blocked; writes the best distinct of them, for both halves, to OUT; prints "best best".
box_stage() {
  local c=$1 lengths=""
  : > "$4"
  for half in 0 1; do
    # A snake's head has bit c-2 set when the snake flipped dimension c-2 an odd number of times.
    local part="$work/s$2_d${c}_box$half" pattern
    awk -v k=$((c - 2)) -v half="$half" '{
        n = 0; m = $0; sub(/.*"moves":\[/, "", m); sub(/\].*/, "", m)
        count = split(m, moves, ","); for (i = 1; i <= count; ++i) if (moves[i] + 0 == k) ++n
        if (n % 2 == half) print }' "$3" > "$part.starts.jsonl"
    [[ -s $part.starts.jsonl ]] || continue
    pattern="1$((1 - half))$(printf '%*s' $((c - 2)) '' | tr ' ' '*')"
    lengths+=" $(stage "$c" "$2" "$box_width" $((first_kept / 2)) "$later_cap" "$part.starts.jsonl" \
      "s$2_d${c}_box$half" --set params.symmetry_breaking=false --set params.blocked_subcubes="$pattern")" || return 1
    cat "$part.jsonl" >> "$4"
  done
  echo "${lengths# }"
}

# reversed_cuts POOL OUT: the distinct snakes of POOL (searches files' lines) within one of its best, at most 64,
# best first (ties in POOL's order), each turned round and cut back by 258, 339, 421, 502, 583 and 705 thousandths
# of the best length (95, 125, 155, 185, 215 and 260 moves for 369, the cuts measured): one start a line.
reversed_cuts() {
  sed -nE 's/^\{"score":([0-9]+),.*"moves":\[([0-9,]*)\].*/\1 \2/p' "$1" | sort -s -k1,1nr | awk '!seen[$2]++' |
    awk 'NR == 1 { top = $1; split("258 339 421 502 583 705", permille, " ") }
      $1 >= top - 1 && ++n <= 64 {
        count = split($2, moves, ",")
        for (p = 1; p <= 6; ++p) {
          keep = count - int(top * permille[p] / 1000); line = ""
          for (i = count; i > count - keep; --i) line = line (line == "" ? "" : ",") moves[i]
          if (keep > 0) printf "{\"score\":%d,\"moves\":[%s]}\n", keep, line
        } }' > "$2"
}

best=0 best_seed="" status=0
began=$(date +%s)
deadline=$(( began + ${seconds%.*} - polish_reserve ))
pool="$work/pool_d$d.jsonl"
if [[ -n $pool_from ]]; then cp "$pool_from" "$pool"; else : > "$pool"; fi
while (( $(date +%s) < deadline )); do
  lengths="8-cube $(stage 8 "$seed" "$first_width" "$first_kept" "$first_cap")" || { status=1; break; }
  for (( c = 9; c <= d; ++c )); do
    (( c == 9 )) && t=$cap || t=$later_cap
    run="$work/s${seed}_d$c" starts="$work/s${seed}_d$((c - 1)).jsonl" skip=() boxed=""
    if (( c >= 10 )); then
      boxed=$(box_stage "$c" "$seed" "$starts" "${run}_box.jsonl") || { status=1; break 2; }
      starts="${run}_box.jsonl" skip=(--set nmcs.skip_finished_starts=true) boxed=" box $boxed,"
    fi
    wide=$(stage "$c" "$seed" "$width" "$kept" "$t" "$starts" "" "${skip[@]}") || { status=1; break 2; }
    for f in jsonl best.json; do mv "$run.$f" "${run}_wide.$f"; done
    deep_starts "${run}_wide.jsonl" "$starts" "${run}_deep_starts.jsonl"
    length=$(stage "$c" "$seed" "$width" "$kept" "$t" "${run}_deep_starts.jsonl") || { status=1; break 2; }
    lengths+=" -> $c-cube$boxed wide $wide, deep $length"
  done
  length=${length%% *}
  # The deep run searches the wide run's best starts again, but may miss what one of its searches found.
  if (( ${wide%% *} > length )); then length=${wide%% *}; cp "${run}_wide.best.json" "$run.best.json"; fi
  echo "seed $seed ($(( $(date +%s) - began )) s): $lengths"
  cat "$run.jsonl" "${run}_wide.jsonl" >> "$pool"
  if (( length > best )); then
    best=$length best_seed=$seed
    cp "$work/s${seed}_d$d.best.json" "$out/snake_portfolio_d$d.best.json"
  fi
  (( ++seed ))
done
if (( status == 0 )) && [[ -s $pool ]]; then
  reversed_cuts "$pool" "$work/polish_starts.jsonl"
  polished=$(stage "$d" "$seed" "$width" "$kept" "$later_cap" "$work/polish_starts.jsonl" "polish_d$d" \
    --set params.symmetry_breaking=false --set nmcs.skip_finished_starts=true) || status=1
  echo "polish, seed $seed ($(( $(date +%s) - began )) s): $polished"
  if (( status == 0 && ${polished%% *} > best )); then
    best=${polished%% *} best_seed="$seed, polish"
    cp "$work/polish_d$d.best.json" "$out/snake_portfolio_d$d.best.json"
  fi
fi
echo "== best $d-cube snake: $best (seed $best_seed) after $(( $(date +%s) - began )) s"
"$bin/snake_check" "$out/snake_portfolio_d$d.best.json" || status=1
exit $status

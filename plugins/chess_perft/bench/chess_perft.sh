#!/usr/bin/env bash
# chess_perft.sh - chess perft speed, measured the way docs/perf/chess_perft.md reports it:
#   CPU: gsdk (1 thread, all threads) side by side with Stockfish's `go perft` on startpos 6 and
#        Kiwipete 5, best of N runs each; Stockfish's start-up (its `go perft 1`) is subtracted.
#   GPU (when there is one): startpos 8 and 9, Kiwipete 7, best of N runs of gsdk's Time, which starts
#        after the GPU start-up (context, memory, kernels loaded: about 0.14 s on an H100, printed apart).
# Usage: plugins/chess_perft/bench/chess_perft.sh [BUILD_BIN_DIR] [RUNS]     Logs go to $OUT (default ./bench-logs).
set -uo pipefail
bin=${1:-build/bin}
runs=${2:-5}
out=${OUT:-bench-logs}
mkdir -p "$out"
kiwipete="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
[[ -x $stockfish ]] || stockfish=""

# Best wall time in seconds of `runs` runs of a command.
best_of() {
  local best=""
  for ((i = 0; i < runs; i++)); do
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    best=$(echo "$end - $start" | bc -l | awk -v b="$best" '{ if (b == "" || $1 < b) print $1; else print b }')
  done
  echo "$best"
}

stockfish_perft() { printf 'position %s\ngo perft %s\nquit\n' "$1" "$2" | "$stockfish"; }
# gsdk's own timer (perft only, after plugin loading), best of runs.
gsdk_perft() {
  local best=""
  for ((i = 0; i < runs; i++)); do
    local t
    t=$("$bin/gsdk" perft chess_perft "$1" "$2" "${@:3}" | awk '/^Time:/ { print $2 }')
    best=$(awk -v t="$t" -v b="$best" 'BEGIN { if (b == "" || t < b) print t; else print b }')
  done
  echo "$best"
}

{
  echo "== machine"
  lscpu | grep -E "Model name|^CPU\(s\)"
  if [[ -z $stockfish ]]; then
    echo "== CPU: skipped (no stockfish here; scripts/install-deps.sh installs it)"
  else
  "$stockfish" <<< "quit" | head -1
  echo "== CPU: seconds (best of $runs) and nodes/s"
  printf '%-10s %5s %14s %10s %10s %10s %8s %8s\n' position depth leaves stockfish gsdk_1t gsdk_all x_1t x_all
  for case in "start|startpos|6|119060324" "kiwipete|fen $kiwipete|5|193690690"; do
    IFS='|' read -r name sf_position depth leaves <<< "$case"
    gsdk_position=${sf_position#fen }
    [[ $gsdk_position == startpos ]] && gsdk_position=start
    sf_full=$(best_of stockfish_perft "$sf_position" "$depth")
    sf_startup=$(best_of stockfish_perft "$sf_position" 1)
    sf=$(echo "$sf_full - $sf_startup" | bc -l)
    one=$(gsdk_perft "$gsdk_position" "$depth" --device cpu --threads 1)
    all=$(gsdk_perft "$gsdk_position" "$depth" --device cpu)
    awk -v n="$name" -v d="$depth" -v l="$leaves" -v sf="$sf" -v one="$one" -v all="$all" 'BEGIN {
      printf "%-10s %5d %14d %10.3f %10.3f %10.3f %7.2fx %7.2fx\n", n, d, l, sf, one, all, sf / one, sf / all
      printf "%-10s %5s %14s %10.3g %10.3g %10.3g   (nodes/s)\n", "", "", "", l / sf, l / one, l / all }'
  done
  fi
  if "$bin/gsdk" list 2>/dev/null | grep -q "^  device 0:"; then
    echo "== GPU: seconds (best of $runs) and nodes/s, GPU start-up not included"
    "$bin/gsdk" perft chess_perft start 3 --device cuda -q | grep '^GPU start-up'
    for case in "start|start|8|84998978956" "start|start|9|2439530234167" "kiwipete|$kiwipete|7|374190009323"; do
      IFS='|' read -r name position depth leaves <<< "$case"
      t=$(gsdk_perft "$position" "$depth" --device cuda)
      awk -v n="$name" -v d="$depth" -v l="$leaves" -v t="$t" 'BEGIN {
        printf "%-10s %5d %16d %8.3f s %10.3g nodes/s\n", n, d, l, t, l / t }'
    done
  fi
} 2>&1 | tee "$out/chess_perft.log"

#!/usr/bin/env bash
# hashed_perft.sh - deep chess perft with transposition tables, gsdk beside perft_gpu in the same call, as
# docs/perf/chess_perft.md ("Hashed perft") reports it: for each case gsdk's count time (`Time:`, after GPU start-up)
# and its whole process, perft_gpu's time for the last depth and its whole process (it counts depths 1..N in one
# process, so its whole process includes the shallower depths).
# Usage: hashed_perft.sh BIN_DIR PERFT_GPU|- [GSDK_OPTIONS...] -- CASE...
#   CASE is NAME:DEPTH with NAME start, kiwipete or position3..6; PERFT_GPU "-" skips it.
#   Example: hashed_perft.sh build/bin .device/perft_gpu --device cuda -- start:10 kiwipete:8 start:11
# Logs go to $OUT (default ./bench-logs); the table is printed last.
set -uo pipefail
bin=$1
perft_gpu=$2
shift 2
gsdk_options=()
while [[ $# -gt 0 && $1 != -- ]]; do gsdk_options+=("$1"); shift; done
shift
out=${OUT:-bench-logs}
mkdir -p "$out"

fen_of() {
  case $1 in
    start) echo "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" ;;
    kiwipete) echo "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" ;;
    position3) echo "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1" ;;
    position4) echo "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1" ;;
    position5) echo "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8" ;;
    position6) echo "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10" ;;
    *) echo "unknown position $1" >&2; exit 2 ;;
  esac
}

# Seconds of wall time the command took, its output in the log file named by $1.
timed() {
  local log=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$@" > "$log" 2>&1
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }'
}

table=()
for case in "$@"; do
  name=${case%%:*}
  depth=${case##*:}
  fen=$(fen_of "$name")
  position=$fen
  [[ $name == start ]] && position=start
  log="$out/gsdk_${name}_${depth}.log"
  whole=$(timed "$log" "$bin/gsdk" perft chess_perft "$position" "$depth" "${gsdk_options[@]}")
  leaves=$(awk '/^Nodes searched:/ { print $3 }' "$log")
  count=$(awk '/^Time:/ { print $2 }' "$log")
  line=$(printf '%-9s %2d %26s  gsdk %8.3f s (process %8.3f s)' "$name" "$depth" "$leaves" "$count" "$whole")
  if [[ $perft_gpu != - ]]; then
    pg_log="$out/perft_gpu_${name}_${depth}.log"
    pg_whole=$(timed "$pg_log" "$perft_gpu" "$fen" "$depth")
    pg_line=$(grep -a "Perft($(printf '%02d' "$depth")):" "$pg_log" | tail -1)
    pg_leaves=$(echo "$pg_line" | sed -E 's/.*: ([0-9,]+), time.*/\1/' | tr -d ,)
    pg_time=$(echo "$pg_line" | sed -E 's/.*time: ([0-9.e+-]+) seconds.*/\1/')
    same=$([[ $pg_leaves == "$leaves" ]] && echo same || echo "DIFFERENT ($pg_leaves)")
    line+=$(printf '  perft_gpu %8.3f s (process %8.3f s)  %s  x%.2f' "$pg_time" "$pg_whole" "$same" \
      "$(awk -v a="$pg_time" -v b="$count" 'BEGIN { print a / b }')")
  fi
  echo "$line"
  table+=("$line")
done
echo "== hashed perft (${gsdk_options[*]})"
printf '%s\n' "${table[@]}" | tee "$out/hashed_perft.txt"

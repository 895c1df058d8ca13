#!/usr/bin/env bash
# snake_beam_grow.sh - snakes grown cube by cube with the beam search (algorithm = "beam"): each cube's beam starts
# from the previous cube's best snake ([beam] start_from: a snake of the (d-1)-cube is a snake of the d-cube that has
# not used its last dimension, and the beam continues it into the new half), the first from START or from nothing.
# Each stage keeps WIDTH snakes a level, ranked by the plugin's evaluation (EVALUATION, default "reachable"), and runs
# one search, bounded by counts alone (so a stage is the same on any device and run). Prints each stage's length and
# time and checks every saved snake with `snake_check`. Logs go to $OUT (or ./bench-logs). Measured in
# docs/perf/snake.md, "Beam search".
# SYMMETRY_BREAKING is the game's parameter: "false" for a START found without it (its first moves are not 0, 1, 2).
# BOTH_ENDS "true": each stage from a snake runs a second search from that snake read backwards (its moves reversed:
# the same path walked from its other end, so the new half begins at the other end) and keeps the longer; the
# 10-cube's 372 grew from the 9-cube's 189 read backwards where the 189 as it is gave 368 (docs/perf/snake.md).
# It needs SYMMETRY_BREAKING "false": a reversed snake's first moves are not 0, 1, 2.
# START may also be a pool, a JSON Lines file of snakes (a line a snake with its "moves", e.g. a run's [output]
# searches file): the first stage then runs a search from each (and each read backwards, with BOTH_ENDS).
# Usage: plugins/snake/bench/snake_beam_grow.sh [BUILD_BIN_DIR] [FIRST_D] [LAST_D] [WIDTH] [DEVICE] [START] [EVALUATION]
#        [SYMMETRY_BREAKING] [BOTH_ENDS]
# (defaults: build/bin, 8, 10, 100000, cuda, none, reachable, true, false; a smoke test: ... build/bin 5 7 200 cpu)
set -uo pipefail
bin=${1:-build/bin}
first=${2:-8}
last=${3:-10}
width=${4:-100000}
device=${5:-cuda}
previous=${6:-}
evaluation=${7:-reachable}
symmetry_breaking=${8:-true}
both_ends=${9:-false}
out=${OUT:-bench-logs}
mkdir -p "$out"
if (( first < 4 || last > 13 || first > last )); then echo "need 4 <= FIRST_D <= LAST_D <= 13, got $first .. $last" >&2; exit 2; fi
if [[ $both_ends != true && $both_ends != false ]]; then echo "BOTH_ENDS: expected true or false, got '$both_ends'" >&2; exit 2; fi
if [[ $both_ends == true && $symmetry_breaking != false ]]; then
  echo "BOTH_ENDS true needs SYMMETRY_BREAKING false (a snake read backwards does not begin 0, 1, 2)" >&2
  exit 2
fi
status=0
for (( d = first; d <= last; ++d )); do
  run="$out/snake_beam_grow_d$d"
  start=() from=""
  if [[ -n $previous && ( $both_ends == true || $previous == *.jsonl ) ]]; then
    # The starts, a line each: every snake of the pool (or the one snake), each followed by its moves reversed.
    python3 - "$previous" "$both_ends" > "$run.starts.jsonl" <<'PY' || { status=1; break; }
import json, sys
path, both_ends = sys.argv[1], sys.argv[2] == "true"
try:
    with open(path) as f:
        lines = list(f) if path.endswith(".jsonl") else [f.read()]
except OSError as e:
    sys.exit(f"snake_beam_grow: cannot read {path}: {e}")
pool = []
for number, line in enumerate(lines, 1):
    if not line.strip():
        continue
    try:
        pool.append(json.loads(line)["moves"])
    except (ValueError, KeyError, TypeError) as e:
        sys.exit(f"snake_beam_grow: {path}:{number}: expected a snake with its \"moves\", got {line.strip()[:60]} ({e!r})")
if not pool:
    sys.exit(f"snake_beam_grow: {path} holds no snake")
for moves in pool:
    print(json.dumps({"moves": moves}))
    if both_ends:
        print(json.dumps({"moves": moves[::-1]}))
PY
    starts=$(wc -l < "$run.starts.jsonl")
    start=(--set beam.starts_from="\"$run.starts.jsonl\"" --set beam.restarts=$((starts - 1)))
    from=", from $previous ($starts starts)"
    [[ $both_ends == true ]] && from=", from $previous and read backwards ($starts starts)"
  elif [[ -n $previous ]]; then
    start=(--set beam.start_from="\"$previous\"")
    from=", from $previous"
  fi
  "$bin/gsdk" run configs/snake_beam.toml --quiet --device "$device" --out "$run.json" \
    --set params.dimension="$d" --set params.evaluation="\"$evaluation\"" --set beam.width="$width" \
    --set params.symmetry_breaking="$symmetry_breaking" \
    --set beam.children_per_parent=0 --set beam.restarts=0 "${start[@]}" \
    --set output.events="\"$run.events.jsonl\"" --set output.best="\"$run.best.json\"" --set output.plot='""' \
    > "$run.log" 2>&1 || status=1
  seconds=$(sed -nE 's/.*"wall_seconds": *([0-9.]+).*/\1/p' "$run.json" | head -1)
  echo "== $d-cube, width $width$from: ${seconds:-?} s"
  "$bin/snake_check" "$run.best.json" || status=1
  previous="$run.best.json"
done
exit $status

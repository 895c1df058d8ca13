#!/usr/bin/env bash
# config_digests.sh - the result digest of every shipped config (configs/*.toml), for checking that a
# refactor changes no behaviour: run it before and after, on the same device, and compare the two lists.
#
# Runs bounded by time (NMCS, NRPA, matches at time=1) are not reproducible, so they run here in a form
# bounded by counts, the same algorithm and settings otherwise; configs that only a GPU can finish in
# reasonable time (perft 9 of chess, perft 14 of Othello, the minefield sweep) run on `cuda` only.
# Usage: scripts/config_digests.sh [BUILD_BIN_DIR] [cpu|cuda] > digests.tsv
# Prints "config<TAB>digest<TAB>status" per config; a config that fails prints its exit code as the digest.
# (The results file's keys are in alphabetical order: the top-level digest comes before the result's own
# digests, the top-level status after the result's.)
set -uo pipefail
bin=${1:-build/bin}
device=${2:-cpu}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The overrides that make each config bounded by counts and quick on `device`; "skip" leaves it out there.
overrides() {
  case "$1:$device" in
    chess_perft_gpu:cpu | othello_perft_gpu:cpu | minefield_sweep:cpu | snake_nmcs_gpu:cpu) echo skip ;;
    othello_playouts:cpu) echo "--set playouts.count=10000000" ;;
    snake_nmcs:*) echo "--set nmcs.time_seconds=0 --set nmcs.restarts=3" ;;
    snake_nmcs_gpu:cuda) echo "--set nmcs.time_seconds=0 --set nmcs.restarts=16383 --set nmcs.level=2" ;;
    snake_nrpa:*) echo "--set nrpa.time_seconds=0 --set nrpa.restarts=3 --set nrpa.level=2" ;;
    snake_beam:*) echo "--set beam.restarts=1 --set beam.width=200" ;;
    othello_match:*)
      echo "--set match.games=4 --set match.agents=[\"uct:playouts=2000,leaf=4,param.playout_policy=mobility\",\"uct:playouts=1000,param.playout_policy=mobility\"]" ;;
  esac
}

for config in configs/*.toml; do
  name=$(basename "$config" .toml)
  extra=$(overrides "$name")
  [[ $extra == skip ]] && continue
  run_device=(--device "$device")
  files=()
  events=(--set output.events="$scratch/$name.events") # a match writes no events file: refused there
  [[ $name == *_match ]] && events=()
  case $name in
    *_match) run_device=() files=(--set match.record="$scratch/$name.record") ;; # devices are in its agent specs
    *_nmcs* | *_nrpa* | *_beam*) files=(--set output.best="$scratch/$name.best.json") ;;
  esac
  # Word splitting of $extra is wanted: it holds whole --set arguments without spaces inside them.
  # shellcheck disable=SC2086
  "$bin/gsdk" run "$config" --quiet "${run_device[@]}" "${files[@]}" $extra --out "$scratch/$name.json" \
    "${events[@]}" --set output.plot="" > "$scratch/$name.log" 2>&1
  status=$?
  digest=$(grep -o '"digest": "[^"]*"' "$scratch/$name.json" 2>/dev/null | head -1 | cut -d'"' -f4)
  printf '%s\t%s\t%s\n' "$name" "${digest:-exit $status}" "$(grep -o '"status": "[a-z]*"' "$scratch/$name.json" 2>/dev/null | tail -1 | cut -d'"' -f4)"
done

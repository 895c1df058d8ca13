#!/usr/bin/env bash
# ranked_digests.sh - every distributable algorithm under mpirun -np 2 and -np 3 on CPU gives the one-process
# digest: a count-bounded NRPA, a match, a Q-learning sweep (playouts and perft: tests/docs/scale_out_examples.sh);
# and what cannot be spread over ranks (a search bounded by score, one training run) is refused once, with exit status
# 2. (Bounded by time: ranked_time_bound.sh.)
# Usage: ranked_digests.sh GSDK MPIEXEC TEST_PLUGIN_DIR
set -euo pipefail
gsdk=$(realpath "$1") mpiexec=$2 plugins=$(realpath "$3")
work=$(mktemp -d /tmp/gsdk-ranked-digests-XXXXXX)
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() {
  echo "FAILED: $*" >&2
  echo "ranked_digests.sh: files kept in $work" >&2
  exit 1
}
digest() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['digest'])" "$1"; }

cat >nrpa.toml <<'TOML'
game = "test_chain"
algorithm = "nrpa"
seed = 9
[params]
numbers = 20
[nrpa]
level = 2
iterations = 8
restarts = 11
searches_in_parallel = 2
[run]
device = "cpu"
threads = 1
TOML
cat >match.toml <<'TOML'
game = "test_nim"
algorithm = "match"
seed = 5
[params]
stones = 9
[match]
games = 12
agents = ["uct:playouts=300", "flatmc:playouts=200"]
opening_plies = 1
TOML
cat >sweep.toml <<'TOML'
game = "minefield"
algorithm = "qlearning"
seed = 4
[params]
size = 8
agents = 8
mines = 6
map_seed = 7
[qlearning]
environments = [4, 8, 16, 32]
episodes = 30
[run]
device = "cpu"
threads = 1
TOML

for config in nrpa match sweep; do
  "$gsdk" run "$config.toml" --plugin-dir "$plugins" --out "$config.one.json" -q >"$config.one.log" 2>&1 ||
    fail "$config: the one-process run ($config.one.log)"
  for ranks in 2 3; do
    "$mpiexec" --oversubscribe -np "$ranks" "$gsdk" run "$config.toml" --plugin-dir "$plugins" \
      --out "$config.np$ranks.json" -q >"$config.np$ranks.log" 2>&1 || fail "$config under $ranks ranks ($config.np$ranks.log)"
    [ "$(digest "$config.np$ranks.json")" = "$(digest "$config.one.json")" ] ||
      fail "$config: the digest under $ranks ranks is not the one process's"
    echo "ok: $config under $ranks ranks: the one-process digest"
  done
done

# Refused before any work, said once (by rank 0), exit status 2.
refused() { # name says args...
  local name=$1 says=$2 status=0
  shift 2
  "$mpiexec" --oversubscribe -np 2 "$gsdk" run "$@" --plugin-dir "$plugins" -q >"$name.log" 2>&1 || status=$?
  [ "$status" -ne 0 ] || fail "$name: accepted under 2 ranks ($name.log)"
  [ "$(grep -c "$says" "$name.log")" = 1 ] || fail "$name: expected '$says' once ($name.log)"
  echo "ok: $name refused once"
}
refused nrpa-score "stop_at_score cannot bound a search spread over MPI ranks" nrpa.toml --set nrpa.stop_at_score=5
refused one-training-run "one training run cannot be spread over processes" sweep.toml --set "qlearning.environments=[8]"
cd / && rm -rf "$work"

#!/usr/bin/env bash
# ranked_digests.sh - every distributable algorithm under mpirun -np 2 and -np 3 on CPU gives the one-process
# digest: a count-bounded NRPA, a match, a Q-learning sweep, perft hashed and not (playouts and chess perft:
# tests/docs/scale_out_examples.sh);
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
# The blocks the ranks ran, in all: with fewer work items than blocks only the items' blocks are handed out (the
# first chunk would otherwise hold every game of the match).
blocks_run() { python3 -c "import json,sys; print(sum(e.get('blocks', 0) for e in json.load(open(sys.argv[1]))['ranks']['each']))" "$1"; }
declare -A items=([nrpa]=12 [match]=12 [sweep]=4)

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
    [ "$(blocks_run "$config.np$ranks.json")" = "${items[$config]}" ] ||
      fail "$config under $ranks ranks ran $(blocks_run "$config.np$ranks.json") blocks, not ${items[$config]}"
    # The merged report names the ranks' devices and, for a search, the job's time (chunks ran one after another
    # on each rank), not the merging process's one thread or the longest chunk's time.
    python3 - "$config.np$ranks.json" "$ranks" <<'PY' || fail "$config under $ranks ranks: the merged report's devices or time"
import json, sys
r, ranks = json.load(open(sys.argv[1])), sys.argv[2]
assert "devices" not in r or r["devices"].startswith(f"{ranks} MPI ranks: cpu"), r["devices"]  # a match has none
merged = r["result"].get("merged_parts") if isinstance(r.get("result"), dict) else None
if merged:
    each = max(e.get("seconds", 0) for e in r["ranks"]["each"])  # a rank may have had no chunk
    assert each <= r["timings"]["wall_seconds"] <= r["ranks"]["wall_seconds"], (r["timings"], r["ranks"])
    assert merged["seconds"] == r["timings"]["wall_seconds"], merged
PY
    echo "ok: $config under $ranks ranks: the one-process digest, ${items[$config]} blocks run"
  done
done

# Perft with transposition tables (the default), with small ones and without (--no-hash) under 2 and 3 ranks: the
# one-process count per root move without tables, for `gsdk perft` and a perft experiment's digest; the options reach
# every rank (the results' "hash" object and the Hash line only when hashed).
cat >perft.toml <<'TOML'
game = "test_coin_tree"
algorithm = "perft"
[perft]
divide = true
[[perft.positions]]
position = "start"
depth = 12
[run]
device = "cpu"
threads = 1
TOML
counts() {
  python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['result']; print(d['leaves'], d['divide'])" "$1"
}
hashed() { python3 -c "import json,sys; print('hash' in json.load(open(sys.argv[1]))['result'])" "$1"; }
"$gsdk" perft test_coin_tree start 12 --divide --no-hash --threads 1 --plugin-dir "$plugins" --json perft.one.json \
  -q >perft.one.log 2>&1 || fail "perft: the one-process count (perft.one.log)"
"$gsdk" run perft.toml --plugin-dir "$plugins" --set perft.hash=false --out perft-run.one.json -q \
  >perft-run.one.log 2>&1 || fail "perft: the one-process run (perft-run.one.log)"
for ranks in 2 3; do
  for options in "" "--no-hash" "--hash-mb 1"; do
    name="perft.np$ranks${options// /}"
    # shellcheck disable=SC2086 # the options are words
    "$mpiexec" --oversubscribe -np "$ranks" "$gsdk" perft test_coin_tree start 12 --divide --threads 1 $options \
      --plugin-dir "$plugins" --json "$name.json" -q >"$name.log" 2>&1 ||
      fail "$name: gsdk perft under $ranks ranks ($name.log)"
    [ "$(counts "$name.json")" = "$(counts perft.one.json)" ] ||
      fail "$name: the count per root move under $ranks ranks is not the one process's without tables"
    expected=True lines=1
    [ "$options" != "--no-hash" ] || expected=False lines=0
    [ "$(hashed "$name.json")" = "$expected" ] || fail "$name: a hash object in the results is not $expected"
    [ "$(grep -c '^Hash: ' "$name.log")" = "$lines" ] || fail "$name: $lines Hash line(s) expected ($name.log)"
    echo "ok: gsdk perft ${options:-(hashed by default)} under $ranks ranks: the one-process count without tables"
  done
  "$mpiexec" --oversubscribe -np "$ranks" "$gsdk" run perft.toml --plugin-dir "$plugins" --set perft.hash_mb=1 \
    --out "perft-run.np$ranks.json" -q >"perft-run.np$ranks.log" 2>&1 ||
    fail "perft experiment under $ranks ranks (perft-run.np$ranks.log)"
  [ "$(digest "perft-run.np$ranks.json")" = "$(digest perft-run.one.json)" ] ||
    fail "perft: the hashed digest under $ranks ranks is not the one process's without tables"
  echo "ok: a hashed perft experiment under $ranks ranks: the one-process digest without tables"
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

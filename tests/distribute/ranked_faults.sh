#!/usr/bin/env bash
# ranked_faults.sh - gsdk under mpirun when things go wrong: a rank killed midway ends the job (mpirun names the
# rank, rank 0 the chunks each rank held), and the checkpoint rank 0 saved resumes under another number of ranks to
# the one-process digest; a Ctrl-C to mpirun stops every rank, keeps the partial results ("interrupted") and the
# checkpoint, which resumes to the same digest.
# Usage: ranked_faults.sh GSDK MPIEXEC
set -euo pipefail
gsdk=$(realpath "$1") mpiexec=$2
work=$(mktemp -d /tmp/gsdk-ranked-faults-XXXXXX)
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() {
  echo "FAILED: $*" >&2
  echo "ranked_faults.sh: files kept in $work" >&2
  exit 1
}
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# The checkpoint's finished blocks (0 while there is none).
blocks_done() { [ -s "$1" ] && python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['progress']['done']))" "$1" 2>/dev/null || echo 0; }

# Long enough (~4 s under 3 ranks on an AVX-512 core) that a Ctrl-C sent once the checkpoint shows some blocks
# still finds the job running: at 1.5e9 playouts an AVX-512 machine finished 84% of the job in 0.6 s.
cat >exp.toml <<'TOML'
game = "graveler"
algorithm = "playouts"
seed = 3

[playouts]
count = 6_000_000_000

[run]
device = "cpu"
threads = 1
TOML

"$gsdk" run exp.toml --threads 2 --out one.json -q >one.log 2>&1 || fail "the one-process run (one.log)"
digest=$(field one.json 'd["digest"]')

# Starts the job in the background, waits until its checkpoint holds some finished blocks but not all.
start_job() { # name ranks
  "$mpiexec" --oversubscribe -np "$2" "$gsdk" run exp.toml --out "$1.json" --checkpoint "$1.ck" --checkpoint-every 0.1 \
    -q >"$1.log" 2>&1 &
  job=$!
  for _ in $(seq 600); do
    local done_now
    done_now=$(blocks_done "$1.ck")
    [ "$done_now" -gt 0 ] && [ "$done_now" -lt 4096 ] && return 0
    kill -0 "$job" 2>/dev/null || fail "$1: the job ended before its checkpoint held a part of the blocks ($1.log)"
    sleep 0.05
  done
  fail "$1: no checkpoint with finished blocks within 30 s ($1.log)"
}

# The pid of rank $1's gsdk (its environment says its rank).
rank_pid() {
  for pid in $(pgrep -f "$gsdk run exp.toml"); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1" && echo "$pid" && return 0
  done
  return 1
}

# Waits up to $2 s for the job to end, leaving its exit status in $status (not in a subshell: wait needs the job).
end_of_job() {
  for _ in $(seq $(($2 * 20))); do
    kill -0 "$job" 2>/dev/null || break
    sleep 0.05
  done
  kill -0 "$job" 2>/dev/null && fail "$1: the job did not end within $2 s ($1.log)"
  status=0
  wait "$job" || status=$?
}

# A rank killed midway.
start_job killed 3
pid=$(rank_pid 2) || fail "killed: rank 2's process not found"
kill -KILL "$pid"
end_of_job killed 20
[ "$status" -ne 0 ] || fail "killed: mpirun exited 0 after a rank was killed (killed.log)"
grep -q "rank 2" killed.log || fail "killed: the job's output does not name rank 2 (killed.log)"
echo "ok: a killed rank ends the job (exit $status) and is named"
left=$(blocks_done killed.ck)
"$mpiexec" --oversubscribe -np 2 "$gsdk" run exp.toml --out killed-resumed.json --checkpoint killed.ck -q \
  >killed-resumed.log 2>&1 || fail "killed: the resume under 2 ranks failed (killed-resumed.log)"
[ "$(field killed-resumed.json 'd["digest"]')" = "$digest" ] ||
  fail "killed: the resumed digest is not the one process's"
[ "$(field killed-resumed.json 'd["checkpoint"]["resumed"]')" = True ] || fail "killed: the run did not say it resumed"
echo "ok: its checkpoint ($left of 4096 blocks) resumed under 2 ranks to the one-process digest"

# Ctrl-C to mpirun.
start_job stopped 3
kill -INT "$job"
end_of_job stopped 20
[ "$status" -ne 0 ] || fail "stopped: mpirun exited 0 after Ctrl-C (stopped.log)"
[ -s stopped.json ] || fail "stopped: no partial results file (stopped.log)"
[ "$(field stopped.json 'd["status"]')" = interrupted ] || fail "stopped: the results are not marked interrupted"
echo "ok: Ctrl-C stops every rank (exit $status) with partial results marked interrupted"
"$mpiexec" --oversubscribe -np 3 "$gsdk" run exp.toml --out stopped-resumed.json --checkpoint stopped.ck -q \
  >stopped-resumed.log 2>&1 || fail "stopped: the resume under 3 ranks failed (stopped-resumed.log)"
[ "$(field stopped-resumed.json 'd["digest"]')" = "$digest" ] ||
  fail "stopped: the resumed digest is not the one process's"
echo "ok: the stopped job's checkpoint resumed to the one-process digest"
cd / && rm -rf "$work"

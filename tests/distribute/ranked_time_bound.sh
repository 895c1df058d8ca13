#!/usr/bin/env bash
# ranked_time_bound.sh - a search bounded by time under mpirun -np 2 and -np 3 on CPU: snake NMCS and NRPA with far
# more restarts than fit in T = 3 s end within the job's T (not T per chunk: the remaining work would take the ranks
# well over 20 s), complete, saying they are not reproducible, with a best snake that the independent checker
# accepts and that the results name; the checkpoint of such a job resumes to nothing more; Ctrl-C still ends such a
# job "interrupted", and its checkpoint resumes with the time left.
# Usage: ranked_time_bound.sh GSDK MPIEXEC SNAKE_CHECK
set -euo pipefail
gsdk=$(realpath "$1") mpiexec=$2 snake_check=$(realpath "$3")
work=$(mktemp -d /tmp/gsdk-ranked-time-XXXXXX)
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fail() {
  echo "FAILED: $*" >&2
  echo "ranked_time_bound.sh: files kept in $work" >&2
  exit 1
}
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# One process runs about 15,000 of these NMCS searches or 190 of these NRPA searches a second here: a million of
# either is minutes of work for three ranks, so only the job's clock ends the run within 2 T.
bound=3
for algorithm in nmcs nrpa; do
  cat >"$algorithm.toml" <<TOML
game = "snake"
algorithm = "$algorithm"
seed = 7
[params]
dimension = 6
symmetry_breaking = true
[$algorithm]
level = $([ "$algorithm" = nmcs ] && echo 1 || echo 2)
time_seconds = $bound
restarts = 1_000_000
searches_in_parallel = 2
$([ "$algorithm" = nrpa ] && echo "iterations = 30")
[run]
device = "cpu"
threads = 1
[output]
best = "$algorithm.best.json"
events = "$algorithm.events.jsonl"
TOML
done

for algorithm in nmcs nrpa; do
  for ranks in 2 3; do
    name=$algorithm.np$ranks
    began=$(date +%s.%N)
    "$mpiexec" --oversubscribe -np "$ranks" "$gsdk" run "$algorithm.toml" --out "$name.json" --checkpoint "$name.ck" \
      -q >"$name.log" 2>&1 || fail "$name: the job failed ($name.log)"
    took=$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$began" "$(date +%s.%N)")
    wall=$(field "$name.json" 'd["ranks"]["wall_seconds"]')
    python3 -c "import sys; sys.exit(not ($bound - 0.1 <= float(sys.argv[1]) < 2 * $bound))" "$wall" ||
      fail "$name: the ranks took $wall s, not the job's $bound s (within 2 x $bound)"
    # mpirun's own start and end (under a second here) come on top of the ranks' time.
    python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 2 * $bound + 3)" "$took" ||
      fail "$name: mpirun took $took s for a job of $bound s"
    [ "$(field "$name.json" 'd["status"]')" = complete ] || fail "$name: not complete ($name.json)"
    [ "$(field "$name.json" 'd["result"]["merged_parts"]["reproducible"]')" = False ] ||
      fail "$name: the results do not say the run is not reproducible"
    [ "$(field "$name.json" 'd["result"]["stopped_by_time"]')" = True ] || fail "$name: not stopped by the time limit"
    finished=$(field "$name.json" 'd["result"]["searches_finished"]')
    [ "$finished" -gt 0 ] && [ "$finished" -lt 1000001 ] || fail "$name: $finished searches finished"
    "$snake_check" "$algorithm.best.json" >"$name.check" 2>&1 || fail "$name: the best snake is not valid ($name.check)"
    [ "$(field "$algorithm.best.json" 'd["moves"]')" = "$(field "$name.json" 'd["result"]["best_moves"]')" ] ||
      fail "$name: the best file's moves are not the results' best_moves"
    [ "$(field "$algorithm.best.json" 'd["length"]')" = "$(field "$name.json" 'd["result"]["best_score"]')" ] ||
      fail "$name: the best file's length is not the results' best_score"
    echo "ok: $name: complete in $wall s ($took s with mpirun), $finished searches, a valid best snake," \
      "not reproducible"
  done
done

# The checkpoint of a job whose time is up, resumed under another number of ranks: nothing is handed out, and the
# job ends at once with the same result.
"$mpiexec" --oversubscribe -np 3 "$gsdk" run nrpa.toml --out again.json --checkpoint nrpa.np2.ck -q >again.log 2>&1 ||
  fail "again: the resumed job failed (again.log)"
[ "$(field again.json 'd["status"]')" = complete ] || fail "again: not complete (again.json)"
[ "$(field again.json 'd["digest"]')" = "$(field nrpa.np2.json 'd["digest"]')" ] || fail "again: another result"
finished=$(field nrpa.np2.json 'd["result"]["searches_finished"]')
[ "$(field again.json 'd["result"]["searches_finished"]')" = "$finished" ] ||
  fail "again: searches ran after the job's time was up"
wall=$(field again.json 'd["ranks"]["wall_seconds"]')
python3 -c "import sys; sys.exit(not float(sys.argv[1]) < 2)" "$wall" || fail "again: it took $wall s"
echo "ok: the checkpoint of a job out of time resumes to the same result at once ($wall s)"

# Ctrl-C before the time is up: the job stops, interrupted, not complete; its checkpoint keeps the job's time, and
# the job resumed from it (under another number of ranks) has only the time left.
bound=10
"$mpiexec" --oversubscribe -np 2 "$gsdk" run nrpa.toml --set nrpa.time_seconds=$bound --out stopped.json \
  --checkpoint stopped.ck --checkpoint-every 0.1 -q >stopped.log 2>&1 &
job=$!
sleep 3
kill -INT "$job"
status=0
wait "$job" || status=$?
[ "$status" -ne 0 ] || fail "stopped: mpirun exited 0 after Ctrl-C (stopped.log)"
[ "$(field stopped.json 'd["status"]')" = interrupted ] || fail "stopped: the results are not marked interrupted"
spent=$(field stopped.ck 'd["progress"]["job_seconds"]')
# Ctrl-C came 3 s after mpirun started the job; the ranks' stop (about a second) counts too, as in one process.
python3 -c "import sys; sys.exit(not 1 < float(sys.argv[1]) < 5)" "$spent" ||
  fail "stopped: the checkpoint says the job ran $spent s, for a Ctrl-C 3 s after mpirun started it"
echo "ok: Ctrl-C stops a time-bounded job (exit $status), interrupted, after $spent s on the job's clock"
"$mpiexec" --oversubscribe -np 3 "$gsdk" run nrpa.toml --set nrpa.time_seconds=$bound --out resumed.json \
  --checkpoint stopped.ck -q >resumed.log 2>&1 || fail "resumed: the job failed (resumed.log)"
[ "$(field resumed.json 'd["status"]')" = complete ] || fail "resumed: not complete (resumed.json)"
wall=$(field resumed.json 'd["ranks"]["wall_seconds"]')
python3 -c "import sys; s = $bound - float(sys.argv[2]); sys.exit(not s - 0.5 <= float(sys.argv[1]) < s + 1)" \
  "$wall" "$spent" || fail "resumed: the job took $wall s, not the $bound s less the $spent s spent before"
echo "ok: resumed under 3 ranks, it ran for what was left of $bound s after $spent s ($wall s) and is complete"
cd / && rm -rf "$work"

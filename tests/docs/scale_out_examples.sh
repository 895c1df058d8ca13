#!/usr/bin/env bash
# scale_out_examples.sh - docs/scale_out.md's job scripts, run as written but without Slurm, checked against one
# process. The doc's ```bash NAME blocks are its scripts; this takes them from the doc itself, so the doc and what
# is tested cannot drift apart.
#
#   --part shards  shards.sbatch once per array task (SLURM_ARRAY_TASK_ID = 1 .. N, one after the other, as a
#                  scheduler with one free slot would), then merge.sbatch: the merged digest must be the one
#                  process's, for a playouts and a perft experiment; and the merge must refuse a missing shard
#                  and a shard of another seed (exit status 2).
#   --part mpi     mpi.sbatch under 2 and then 3 ranks on this machine: the script's `mpirun` is the real one
#                  with the options a one-node CI run needs (-np, --oversubscribe, --allow-run-as-root) added in
#                  front, where Slurm would give the allocation. Digests (run) and leaf counts per root move
#                  (perft, hashed, against one process without tables) must be one process's, and the 2-rank
#                  checkpoint must resume under 3 ranks. Without
#                  --mpiexec (a gsdk built without MPI) it says so and exits 77, which CTest shows as skipped.
#
# Usage: scale_out_examples.sh --part shards|mpi --gsdk FILE --doc FILE --configs DIR [--mpiexec FILE]
# Each run's output goes to a log in a fresh folder under /tmp, which is kept and named when a check fails.
set -euo pipefail

usage() {
  echo "usage: scale_out_examples.sh --part shards|mpi --gsdk FILE --doc FILE --configs DIR [--mpiexec FILE]" >&2
  echo "scale_out_examples.sh: $1" >&2
  exit 2
}

part="" gsdk="" doc="" configs="" mpiexec=""
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage "$1 needs a value"
  case "$1" in
  --part) part=$2 ;;
  --gsdk) gsdk=$2 ;;
  --doc) doc=$2 ;;
  --configs) configs=$2 ;;
  --mpiexec) mpiexec=$2 ;;
  *) usage "unknown argument '$1'" ;;
  esac
  shift 2
done
case "$part" in
shards | mpi) ;;
*) usage "--part is '$part'; expected shards or mpi" ;;
esac
[ -x "$gsdk" ] || usage "--gsdk '$gsdk' is not an executable file"
[ -f "$doc" ] || usage "--doc '$doc' is not a file"
[ -d "$configs" ] || usage "--configs '$configs' is not a folder"
if [ "$part" = mpi ] && [ -z "$mpiexec" ]; then
  echo "scale_out_examples.sh: MPI examples skipped: this gsdk was built without MPI (GSDK_MPI=OFF, or no MPI found)"
  exit 77
fi
[ -z "$mpiexec" ] || [ -x "$mpiexec" ] || usage "--mpiexec '$mpiexec' is not an executable file"
# The runs happen in a folder of their own: the paths given may be relative to where this started.
gsdk=$(realpath "$gsdk") doc=$(realpath "$doc") configs=$(realpath "$configs")

work=$(mktemp -d /tmp/gsdk-scale-out-XXXXXX)
fail() {
  echo "FAILED: $*" >&2
  echo "scale_out_examples.sh: the runs' logs and files are kept in $work" >&2
  exit 1
}

# The block of the doc that starts with the line ```bash NAME, written to $work/NAME.
extract() {
  local name=$1
  awk -v open='```bash '"$name" '$0 == open {inside = 1; next} inside && /^```/ {exit} inside {print}' "$doc" \
    >"$work/$name"
  [ -s "$work/$name" ] || fail "$doc has no \`\`\`bash $name block"
}

# Runs a command with its output in $work/logs/LOG; fails naming it unless it exits with EXPECTED.
run_logged() {
  local log=$1 expected=$2
  shift 2
  local status=0
  "$@" >"$work/logs/$log" 2>&1 || status=$?
  [ "$status" -eq "$expected" ] || {
    tail -n 20 "$work/logs/$log" >&2
    fail "$* exited with $status, expected $expected (log: $work/logs/$log)"
  }
}

json_field() { # FILE PYTHON-EXPRESSION-ON-d
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

expect_same() { # WHAT EXPECTED ACTUAL
  [ "$2" = "$3" ] || fail "$1: expected $2, got $3"
  echo "ok: $1"
}

mkdir -p "$work/logs"
ln -s "$configs" "$work/configs"
cd "$work"
PATH="$(dirname "$gsdk"):$PATH"
unset GSDK_PLUGIN_PATH

shards_part() {
  extract shards.sbatch
  extract merge.sbatch
  local array shards merge_shards
  array=$(sed -n 's/^#SBATCH --array=1-\([0-9][0-9]*\)$/\1/p' shards.sbatch)
  shards=$(sed -n 's/^shards=\([0-9][0-9]*\).*/\1/p' shards.sbatch)
  merge_shards=$(sed -n 's/^shards=\([0-9][0-9]*\).*/\1/p' merge.sbatch)
  if [ -z "$array" ] || [ "$array" != "$shards" ] || [ "$shards" != "$merge_shards" ]; then
    fail "$doc: shards.sbatch's --array=1-'$array' and shards='$shards' and merge.sbatch's" \
      "shards='$merge_shards' must agree"
  fi

  local name
  for name in graveler chess_perft; do
    run_logged "$name.one" 0 gsdk run "configs/$name.toml" --out "one/$name.json" --quiet
    local k
    for ((k = 1; k <= shards; k++)); do
      run_logged "$name.shard-$k" 0 env SLURM_ARRAY_TASK_ID="$k" bash shards.sbatch "configs/$name.toml" --quiet
    done
    run_logged "$name.merge" 0 bash merge.sbatch "configs/$name.toml"
    expect_same "$name: the digest of $shards shards merged is one process's" \
      "$(json_field "one/$name.json" 'd["digest"]')" "$(json_field "results/$name.json" 'd["digest"]')"
  done

  # What the merge must refuse: a shard missing, and a shard of another seed in place of one.
  local shard_2="results/graveler.shard-2-of-$shards.json"
  mv "$shard_2" aside.json
  run_logged graveler.merge-missing 2 bash merge.sbatch configs/graveler.toml
  echo "ok: a merge without shard 2 is refused"
  run_logged graveler.shard-2-seed-2 0 gsdk run configs/graveler.toml --seed 2 --shard "2/$shards" --out "$shard_2" \
    --quiet
  run_logged graveler.merge-seeds 2 bash merge.sbatch configs/graveler.toml
  echo "ok: a merge with shard 2 of another seed is refused"
  mv aside.json "$shard_2"
}

mpi_part() {
  extract mpi.sbatch
  # The doc's `mpirun` is found on PATH: this one adds what Slurm's allocation would otherwise give.
  mkdir -p launcher
  cat >launcher/mpirun <<EOF
#!/bin/sh
exec "$mpiexec" -np "\$GSDK_TEST_RANKS" --oversubscribe --allow-run-as-root "\$@"
EOF
  chmod +x launcher/mpirun
  export PATH="$work/launcher:$PATH"

  run_logged run.one 0 gsdk run configs/graveler.toml --out one/graveler.json --quiet
  # The ranks count with transposition tables (the default); the one process without them (--no-hash).
  run_logged perft.one 0 gsdk perft chess_perft start 6 --divide --no-hash --json one/perft.json --quiet
  local digest perft ranks
  digest=$(json_field one/graveler.json 'd["digest"]')
  perft=$(json_field one/perft.json '(d["result"]["leaves"], d["result"]["divide"])')
  for ranks in 2 3; do
    run_logged "run.np$ranks" 0 env GSDK_TEST_RANKS="$ranks" bash mpi.sbatch run configs/graveler.toml \
      --out "results/graveler.np$ranks.json" --checkpoint "checkpoints/graveler.np$ranks.json" --quiet
    expect_same "gsdk run: the digest under $ranks ranks is one process's" "$digest" \
      "$(json_field "results/graveler.np$ranks.json" 'd["digest"]')"
    # One report, rank 0's: ranks that each ran the whole job would each print one.
    expect_same "gsdk run: reports printed under $ranks ranks" 1 "$(grep -c '^  digest ' "logs/run.np$ranks")"
    run_logged "perft.np$ranks" 0 env GSDK_TEST_RANKS="$ranks" bash mpi.sbatch perft chess_perft start 6 --divide \
      --json "results/perft.np$ranks.json" --quiet
    expect_same "gsdk perft: the count per root move under $ranks ranks is one process's" "$perft" \
      "$(json_field "results/perft.np$ranks.json" '(d["result"]["leaves"], d["result"]["divide"])')"
    expect_same "gsdk perft: reports printed under $ranks ranks" 1 \
      "$(grep -c '^Nodes searched: ' "logs/perft.np$ranks")"
    expect_same "gsdk perft: hashed under $ranks ranks" "True 1" \
      "$(json_field "results/perft.np$ranks.json" '"hash" in d["result"]') $(grep -c '^Hash: ' "logs/perft.np$ranks")"
  done
  run_logged run.np3-resumes-np2 0 env GSDK_TEST_RANKS=3 bash mpi.sbatch run configs/graveler.toml \
    --out results/graveler.resumed.json --checkpoint checkpoints/graveler.np2.json --quiet
  expect_same "gsdk run: the digest of the 2-rank checkpoint resumed under 3 ranks is one process's" "$digest" \
    "$(json_field results/graveler.resumed.json 'd["digest"]')"
}

"${part}_part"
rm -rf "$work"
echo "scale_out_examples.sh: docs/scale_out.md's $part examples ran as written and agree with one process"

#!/usr/bin/env bash
# run.sh --ci | SECONDS - fuzzes every parser (docs/testing.md) in the sanitizer build (scripts/sanitize.sh, which
# builds into build-sanitize/; GSDK_SANITIZE_BUILD names another folder), from the seed corpora make_corpus.py makes
# and the inputs of tests/fuzz/regressions/<target>/ (inputs that once failed and were fixed).
#
#   --ci     the test command's fuzz stage: each target runs a fixed number of inputs (the table below, about 30 s
#            each on the 2-core development machine) from a fixed seed and the seed corpus alone, so its length does not
#            depend on the machine's speed (the inputs it tries may still differ a little: docs/testing.md).
#   SECONDS  the open-ended search: each target for SECONDS (default 60) from a random seed, on a corpus that grows
#            between runs in <build>/fuzz/corpus/<target>/.
#
# Fails at the first target that finds a crash, a hang, a sanitizer report or a failed property; the input that did
# it is left in <build>/fuzz/findings/ (libFuzzer's crash-*, timeout-*, oom-* files): reproduce it with
# `<build>/fuzz/<target> FILE`, and once fixed, add it to tests/fuzz/regressions/<target>/.
set -euo pipefail
umask 022
cd "$(dirname "$0")/../.."
build=${GSDK_SANITIZE_BUILD:-build-sanitize}

# Inputs per target in --ci mode: about 45 s each at the speed measured on the idle 2-core development machine
# (docs/testing.md), so the stage takes about 5 minutes there.
declare -A ci_runs=(
  [experiment_config_fuzz]=27000
  [overrides_fuzz]=11000
  [replay_results_fuzz]=100000
  [fen_fuzz]=600000
  [othello_text_fuzz]=900000
  [snake_text_fuzz]=450000
  [snake_file_fuzz]=20000
)
targets=(experiment_config_fuzz overrides_fuzz replay_results_fuzz fen_fuzz othello_text_fuzz snake_text_fuzz
         snake_file_fuzz)

mode=${1:-60}
if [[ $mode != --ci && ! $mode =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: tests/fuzz/run.sh --ci | SECONDS (a positive whole number; got '$mode')" >&2
  exit 2
fi

bash scripts/sanitize.sh build gsdk_fuzz_targets
rm -rf "$build/fuzz/seeds"
python3 tests/fuzz/make_corpus.py . "$build/fuzz/seeds" >/dev/null

findings="$build/fuzz/findings"
mkdir -p "$findings"
for target in "${targets[@]}"; do
  # libFuzzer adds what it finds to the first folder it is given and only reads the others.
  if [[ $mode == --ci ]]; then
    corpus="$build/fuzz/ci-corpus/$target"
    rm -rf "$corpus"
    # -reload=0: the corpus folder is not reread on a clock. setarch -R: the addresses the sanitizers' coverage
    # can depend on are the same each run. With the fixed seed, two runs on one machine fuzz the same inputs.
    effort=(-runs="${ci_runs[$target]}" -seed=1 -reload=0)
    launcher=(setarch -R)
    # A hang on a loaded machine must not be a chance failure: a whole minute for one input.
    timeout=60
  else
    corpus="$build/fuzz/corpus/$target"
    effort=(-max_total_time="$mode")
    launcher=()
    timeout=10
  fi
  mkdir -p "$corpus"
  inputs=("$corpus" "$build/fuzz/seeds/$target")
  [[ -d tests/fuzz/regressions/$target ]] && inputs+=("tests/fuzz/regressions/$target")
  log="$build/fuzz/$target.log"
  start=$SECONDS
  # -rss_limit_mb: a parser using 2 GB on a small input is a finding.
  if ! "${launcher[@]}" "$build/fuzz/$target" "${effort[@]}" -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$findings/$target-" "${inputs[@]}" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $target FAILED (log $log, input in $findings/)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz: $target ok: $runs inputs in $((SECONDS - start)) s, corpus $(ls "$corpus" | wc -l) new files"
done

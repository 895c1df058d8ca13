#!/usr/bin/env bash
# run.sh [SECONDS] - fuzzes every parser for SECONDS each (default 60): builds the fuzz targets with clang into
# build-fuzz/ (GSDK_FUZZ=ON; GSDK_FUZZ_BUILD names another folder), makes the seed corpora (make_corpus.py), and
# runs each target on its corpus, which grows between runs in build-fuzz/fuzz/corpus/. Fails at the first target
# that finds a crash, a hang, a sanitizer report or a failed property; the input that did it is left in
# build-fuzz/fuzz/findings/ (libFuzzer's crash-*, timeout-*, oom-* files; reproduce with the target and the file).
# Inputs that once failed and were fixed live in tests/fuzz/regressions/<target>/ and are rerun each time.
set -euo pipefail
seconds=${1:-60}
cd "$(dirname "$0")/../.."
build=${GSDK_FUZZ_BUILD:-build-fuzz}
targets=(experiment_config_fuzz overrides_fuzz replay_results_fuzz fen_fuzz othello_text_fuzz snake_text_fuzz
         snake_file_fuzz)

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGSDK_FUZZ=ON -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target gsdk_fuzz_targets
python3 tests/fuzz/make_corpus.py . "$build/fuzz/seeds" >/dev/null

findings="$build/fuzz/findings"
mkdir -p "$findings"
for target in "${targets[@]}"; do
  corpus="$build/fuzz/corpus/$target"
  mkdir -p "$corpus"
  inputs=("$corpus" "$build/fuzz/seeds/$target")
  [[ -d tests/fuzz/regressions/$target ]] && inputs+=("tests/fuzz/regressions/$target")
  log="$build/fuzz/$target.log"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a parser using 2 GB on a small input is a finding.
  if ! "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$findings/$target-" "${inputs[@]}" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $target FAILED (log $log, input in $findings/)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  echo "fuzz: $target ok: $runs inputs in ${seconds} s ($speed/s), corpus $(ls "$corpus" | wc -l) files"
done

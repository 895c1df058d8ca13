#!/usr/bin/env bash
# othello.sh - the Othello benchmark: CPU perft (one thread, every thread) and random playouts on this
# machine; where a GPU is present, the CUDA tests, perft 14 in each convention, CPU-vs-CUDA playout
# digests over several shapes and the GPU playout rate. Logs go to $OUT (or ./bench-logs).
# Usage: plugins/othello/bench/othello.sh [BUILD_BIN_DIR]
set -uo pipefail
bin=${1:-build/bin}
out=${OUT:-bench-logs}
mkdir -p "$out"
digest() { grep -o '"digest": "[^"]*"' "$1" | tail -1; }
status=0
{
  echo "== CPU: $(nproc) hardware threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  "$bin/gsdk" perft othello start 11 --device cpu --threads 1 -q || status=1
  "$bin/gsdk" perft othello start 12 --device cpu -q || status=1
  "$bin/gsdk" run configs/othello_playouts.toml -q --device cpu --threads 1 --set playouts.count=2000000 \
    --out "$out/playouts_cpu1.json" || status=1
  "$bin/gsdk" run configs/othello_playouts.toml -q --device cpu --set playouts.count=10000000 \
    --out "$out/playouts_cpu.json" || status=1
  if ! nvidia-smi > /dev/null 2>&1; then echo "no GPU here: CPU only"; exit $status; fi
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  echo "== tests on the GPU"
  "$bin/othello_tests" 2>&1 | tail -4 || status=1
  echo "== GPU perft 14, each convention (whole process, CUDA start-up included)"
  for convention in standard finished_not_leaf free_pass; do
    /usr/bin/time -f "whole process: %e s wall" "$bin/gsdk" perft othello start 14 --device cuda -q \
      --param perft_convention=$convention || status=1
  done
  echo "== CPU vs CUDA playout digests"
  for shape in "1000003 1" "77777 5" "1 9" "10000000 2024"; do
    set -- $shape
    for dev in cpu cuda; do
      "$bin/gsdk" run configs/othello_playouts.toml -q --device $dev --set playouts.count=$1 --seed $2 \
        --out "$out/shape_$dev.json" > /dev/null || status=1
    done
    a=$(digest "$out/shape_cpu.json"); b=$(digest "$out/shape_cuda.json")
    if [[ -n "$a" && "$a" == "$b" ]]; then echo "MATCH    count=$1 seed=$2 $a"; else echo "MISMATCH count=$1 seed=$2 cpu $a cuda $b"; status=1; fi
  done
  echo "== GPU playouts from the start position"
  "$bin/gsdk" bench --device cuda --game othello --repeat 5 --playouts 4000000000 --out "$out/bench_othello.json" || status=1
  /usr/bin/time -f "whole process: %e s wall" "$bin/gsdk" run configs/othello_playouts.toml -q --device cuda \
    --set playouts.count=1000000000 --out "$out/playouts_cuda.json" || status=1
  echo "check status: $status"
} 2>&1 | tee "$out/othello_check.log"
exit $status

#!/usr/bin/env bash
# gpu_session.sh - what one call on the GPU machine does: environment, CPU-vs-CUDA digests over
# several shapes, the benchmark suite, and whole-process timings. Logs go to $OUT (or ./gpu-logs).
# Usage: plugins/graveler/bench/gpu_session.sh [BUILD_BIN_DIR]
set -uo pipefail
bin=${1:-build/bin}
out=${OUT:-gpu-logs}
mkdir -p "$out"
digest() { grep -o '"digest": "[^"]*"' "$1" | head -1; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  "$bin/gsdk" list
  echo "== CPU vs CUDA digests"
  status=0
  for shape in "231 10000000 2024" "231 1234567 77" "231 1 5" "231 64 5" "7 999999 3" "40 300001 4" "100 77777 9" "1024 20001 8"; do
    set -- $shape
    for dev in cpu cuda; do
      "$bin/gsdk" run configs/quickstart.toml --quiet --device $dev --set params.rolls=$1 --set playouts.count=$2 \
        --seed $3 --out "$out/shape_$dev.json" > /dev/null || status=1
    done
    a=$(digest "$out/shape_cpu.json"); b=$(digest "$out/shape_cuda.json")
    if [[ "$a" == "$b" ]]; then echo "MATCH    rolls=$1 count=$2 seed=$3 $a"; else echo "MISMATCH rolls=$1 count=$2 seed=$3 cpu $a cuda $b"; status=1; fi
  done
  echo "== graveler 1e9 on cuda (whole process, CUDA start-up included)"
  /usr/bin/time -f "whole process: %e s wall, %M KiB max RSS" "$bin/gsdk" run configs/graveler.toml --device cuda --quiet --out "$out/graveler_cuda.json"
  "$bin/gsdk" replay "$out/graveler_cuda.json" | tail -1
  echo "== bench"
  "$bin/gsdk" bench --device cuda --game graveler --repeat 10 --out "$out/bench_cuda.json"
  echo "session status: $status"
} 2>&1 | tee "$out/session.log"

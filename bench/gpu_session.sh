#!/usr/bin/env bash
# gpu_session.sh - what one call on the GPU machine does: environment, correctness against known CPU
# digests, the benchmark suite, and whole-process timings. Logs go to $OUT (or ./gpu-logs).
# Usage: bench/gpu_session.sh BUILD_BIN_DIR
set -uo pipefail
bin=${1:-build/bin}
out=${OUT:-gpu-logs}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  "$bin/gsdk" list
  echo "== quickstart on cuda"
  "$bin/gsdk" run configs/quickstart.toml --device cuda --quiet --out "$out/quickstart_cuda.json"
  echo "== graveler 1e9 on cuda (whole process)"
  /usr/bin/time -f "whole process: %e s wall, %M KiB max RSS" "$bin/gsdk" run configs/graveler.toml --device cuda --quiet --out "$out/graveler_cuda.json"
  echo "== odd ranges: 12345 playouts from start state"
  "$bin/gsdk" run configs/quickstart.toml --device cuda --quiet --set playouts.count=1234567 --seed 77 --out "$out/odd_cuda.json"
  "$bin/gsdk" run configs/quickstart.toml --device cpu --quiet --set playouts.count=1234567 --seed 77 --out "$out/odd_cpu.json"
  echo "== bench"
  "$bin/gsdk" bench --device cuda --game graveler --repeat 10 --out "$out/bench_cuda.json"
} 2>&1 | tee "$out/session.log"

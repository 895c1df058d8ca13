#!/usr/bin/env bash
# minefield.sh - the Q-learning benchmark: CPU throughput (1 thread and every thread) and the lab on the
# CPU; where a GPU is present, CPU and CUDA digests side by side over several shapes, the lab on the GPU
# (whole process) and the throughput sweep over environments in flight. Logs go to $OUT (or ./bench-logs).
# Usage: plugins/minefield/bench/minefield.sh [BUILD_BIN_DIR]
set -uo pipefail
bin=${1:-build/bin}
out=${OUT:-bench-logs}
mkdir -p "$out"
digest() { grep -o '"digest": "[^"]*"' "$1" | tail -1; }
status=0
{
  echo "== CPU: $(nproc) hardware threads"
  for threads in 1 0; do
    "$bin/gsdk" run configs/minefield_sweep.toml -q --device cpu --threads $threads \
      --set 'qlearning.environments=[2, 8, 32]' --set qlearning.episodes=100 --out "$out/sweep_cpu_$threads.json"
  done
  /usr/bin/time -f "whole process: %e s wall" "$bin/gsdk" run configs/minefield_lab.toml -q --device cpu \
    --out "$out/lab_cpu.json" --plot "$out/lab_cpu.png"
  if ! nvidia-smi > /dev/null 2>&1; then echo "no GPU here: CPU only"; exit 0; fi
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  echo "== CPU vs CUDA digests"
  shapes=(
    "params.size=46 qlearning.episodes=300"
    "params.size=46 qlearning.episodes=300 qlearning.tie_break=\"first\""
    "params.size=12 params.agents=100 qlearning.environments=7 qlearning.episodes=150"
    "params.size=5 params.agents=1000 params.mines=3 qlearning.environments=3 qlearning.episodes=100"
    "params.size=120 params.agents=64 qlearning.environments=2 qlearning.episodes=50"
    "params.size=46 params.step_limit=7 qlearning.environments=5 qlearning.episodes=60"
  )
  for shape in "${shapes[@]}"; do
    sets=()
    for kv in $shape; do sets+=(--set "$kv"); done
    for dev in cpu cuda; do
      "$bin/gsdk" run configs/minefield_lab.toml -q --device $dev "${sets[@]}" --set output.events='""' --set output.plot='""' \
        --out "$out/shape_$dev.json" > /dev/null || status=1
    done
    a=$(digest "$out/shape_cpu.json"); b=$(digest "$out/shape_cuda.json")
    if [[ -n "$a" && "$a" == "$b" ]]; then echo "MATCH    $shape $a"; else echo "MISMATCH $shape cpu $a cuda $b"; status=1; fi
  done
  echo "== atomic updates on CUDA (not reproducible; should learn as well)"
  "$bin/gsdk" run configs/minefield_lab.toml -q --device cuda --set qlearning.update='"atomic"' --out "$out/lab_atomic.json" --set output.plot='""'
  echo "== lab on CUDA (whole process)"
  /usr/bin/time -f "whole process: %e s wall" "$bin/gsdk" run configs/minefield_lab.toml -q --device cuda --out "$out/lab_cuda.json" \
    --plot "$out/lab_cuda.png"
  echo "== sweep on CUDA"
  "$bin/gsdk" run configs/minefield_sweep.toml -q --device cuda --out "$out/sweep_cuda.json"
  "$bin/gsdk" run configs/minefield_sweep.toml -q --device cuda --set qlearning.update='"atomic"' --out "$out/sweep_cuda_atomic.json"
  echo "check status: $status"
} 2>&1 | tee "$out/minefield_check.log"
exit $status

#!/usr/bin/env bash
# othello_match.sh - the Othello strength benchmark. Every agent against random (100 games each, small
# budgets), then UCT with GPU leaf playouts against UCT on two CPU cores (the pairing): GAMES games
# at SECONDS a move, PARALLEL of them at once in one process (`gsdk match --parallel`: each game has its
# own agents, two threads each, and the GPU agents' kernels share one CUDA context and run side by side;
# sharing the GPU only handicaps the GPU agent, docs/perf/othello.md). Logs go to $OUT (or ./bench-logs).
# Usage: plugins/othello/bench/othello_match.sh [BUILD_BIN_DIR] [SECONDS] [PARALLEL] [GAMES] [SEED] [GPU_AGENT_KEYS]
# (GPU_AGENT_KEYS are added to "uct:time=SECONDS,device=cuda,nodes=8000000"; default
# "roots=2,threads=2,draw=0.2,leaf=4,batch=256,param.playout_policy=mobility": two trees on two host threads
# like the CPU agent, a draw worth 0.2 to it, and mobility playouts, four a child, 256 selections a launch)
# (the defaults, 49 games 7 at a time at 1 s, take about 8 minutes on a 16-core GPU host: a 1 s game lasts
# ~62 s; run it again with another SEED to add games; time budgets make each run its own sample anyway;
# OPENING_PLIES=N in the environment opens each pair of games with N random plies, both colours;
# CPU_AGENT_KEYS=... sets the keys added to the CPU agent's spec, default param.playout_policy=mobility, its
# best playouts at 1 s (docs/perf/othello.md, "Playout policies"); e.g. add param.exact_empties=10)
set -uo pipefail
bin=${1:-build/bin}
seconds=${2:-1}
parallel=${3:-7}
games=${4:-49}
seed=${5:-200}
gpu_keys=${6-roots=2,threads=2,draw=0.2,leaf=4,batch=256,param.playout_policy=mobility}
opening_plies=${OPENING_PLIES:-0}
cpu_keys=${CPU_AGENT_KEYS-param.playout_policy=mobility}
out=${OUT:-bench-logs}
mkdir -p "$out"
{
  echo "== every agent against random, 100 games each"
  agents=("flatmc:playouts=2000" "uct:playouts=2000,leaf=8" "uct:time=0.02,device=cuda")
  if ! nvidia-smi > /dev/null 2>&1; then agents=("${agents[@]:0:2}"); fi
  i=0
  for agent in "${agents[@]}"; do
    "$bin/gsdk" match othello --agent0 "$agent" --agent1 random --games 100 --seed $((100 + i)) -q \
      > "$out/vs_random_$i.log" 2>&1 &
    i=$((i + 1))
  done
  wait
  for log in "$out"/vs_random_*.log; do grep -E "^  A: [0-9]+ wins|score rate|^  A: uct|^  A: flat|^  A: [a-z]" "$log"; done
  if ! nvidia-smi > /dev/null 2>&1; then echo "no GPU here: stopping before the GPU pairing"; exit 0; fi
  echo "== UCT with GPU playouts vs UCT on two CPU cores: $games games at $seconds s a move, $parallel at once"
  "$bin/gsdk" match othello --agent0 "uct:time=$seconds,device=cuda,nodes=8000000${gpu_keys:+,$gpu_keys}" \
    --agent1 "uct:time=$seconds,device=cpu,nodes=8000000,leaf=8,roots=2,threads=2${cpu_keys:+,$cpu_keys}" --games "$games" \
    --parallel "$parallel" --seed "$seed" --opening-plies "$opening_plies" --record "$out/gpu_vs_cpu.pgn" \
    > "$out/gpu_vs_cpu.log" 2>&1
  grep -E "^  A: [0-9]+ wins|score rate|playouts per move" "$out/gpu_vs_cpu.log"
  # Each game's line carries the running tally, so a match cut short still counts the games it finished.
  grep "^game" "$out/gpu_vs_cpu.log" | tail -1
} 2>&1 | tee "$out/othello_match.log"

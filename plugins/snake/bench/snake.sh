#!/usr/bin/env bash
# snake.sh - issue 5's throughput benchmark: random playouts, NMCS level 1 and NMCS level 2 (uniform policy,
# symmetry breaking) in the 8-, 9- and 10-cube, on one CPU core and, where a GPU is present, on the GPU,
# with the ratio GPU / one core (target >= 1000). The one-core figures are measured here unless CPU_TSV
# names the snake_cpu.tsv of an earlier run: the GPU host's cores are not the dev machine's, and the issue's
# "one core" is one of the dev machine's. Logs and TSVs go to $OUT (or ./bench-logs).
# Usage: plugins/snake/bench/snake.sh [BUILD_BIN_DIR] [SECONDS_PER_RUN] [CPU_TSV]
set -uo pipefail
bin=${1:-build/bin}
seconds=${2:-10}
cpu_tsv=${3:-}
out=${OUT:-bench-logs}
mkdir -p "$out"
status=0
rate() { grep -o '"playouts_per_second": [0-9.e+]*' "$1" | tail -1 | awk '{print $2}'; }
# One measurement: KIND D DEVICE EXTRA_ARGS...; appends "KIND D RATE" to the device's TSV.
measure() {
  local kind=$1 d=$2 device=$3 config=configs/snake_nmcs.toml best=(--set output.best="")
  shift 3
  [[ $kind == playouts ]] && config=configs/snake_playouts.toml best=()
  local json="$out/snake_${device}_${kind}_$d.json"
  if ! "$bin/gsdk" run "$config" --quiet --device "$device" --out "$json" --set params.policy=uniform \
      --set params.symmetry_breaking=true --set params.dimension="$d" --set output.events="" \
      "${best[@]}" --set output.plot="" "$@" > "$out/snake_${device}_${kind}_$d.log" 2>&1; then
    echo "FAILED: $kind d=$d on $device (see $out/snake_${device}_${kind}_$d.log)"
    status=1
    return
  fi
  echo "$kind $d $(rate "$json")" >> "$out/snake_$device.tsv"
}
nmcs() { echo --set nmcs.level="$1" --set nmcs.restarts=1000000000 --set nmcs.time_seconds="$seconds"; }
{
  if [[ -z "$cpu_tsv" ]]; then
    echo "== one core: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    : > "$out/snake_cpu.tsv"
    for d in 8 9 10; do
      count=$(( seconds * (d == 8 ? 700000 : d == 9 ? 400000 : 240000) ))
      measure playouts $d cpu --threads 1 --set playouts.count=$count
      measure level1 $d cpu --threads 1 $(nmcs 1) --set nmcs.searches_in_parallel=1
      measure level2 $d cpu --threads 1 $(nmcs 2) --set nmcs.searches_in_parallel=1
    done
    cpu_tsv="$out/snake_cpu.tsv"
  fi
  cat "$cpu_tsv"
  if ! nvidia-smi > /dev/null 2>&1; then echo "no GPU here: one-core figures only"; exit $status; fi
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader
  : > "$out/snake_cuda.tsv"
  # Widths and device levels: the fastest measured in docs/perf/snake.md.
  for spec in "8 200000000 262144 262144 2" "9 100000000 262144 131072 2" "10 50000000 131072 65536 1"; do
    set -- $spec
    measure playouts $1 cuda --set playouts.count=$2
    measure level1 $1 cuda $(nmcs 1) --set nmcs.searches_in_parallel=$3
    measure level2 $1 cuda $(nmcs 2) --set nmcs.searches_in_parallel=$4 --set nmcs.device_level=$5
  done
  echo "== GPU against one core (uniform playouts/s)"
  awk 'NR == FNR { cpu[$1 " " $2] = $3; next }
       { c = cpu[$1 " " $2]; ratio = 0; if (c > 0) ratio = $3 / c; low = ""; if (ratio < 1000) low = "  (below 1000x)"
         printf "%-8s d=%-2s one core %.3g  GPU %.3g  x%.0f%s\n", $1, $2, c, $3, ratio, low }' "$cpu_tsv" "$out/snake_cuda.tsv"
  echo "check status: $status"
} 2>&1 | tee "$out/snake_bench.log"
exit $status

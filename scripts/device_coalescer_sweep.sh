#!/usr/bin/env bash
# scripts/device_coalescer_sweep.sh GPU "N1 N2 ..." [compare options...]: a GPU's Triton GEMM records (cp.async and TMA)
# replayed at several request-coalescer sizes (l2.coalescer_entries), each size one `compare` at once, on a device
# machine's CPUs (packed binary as scripts/device_scorecard.sh says). Writes $OUT/coalescer_N.json / .txt and
# $OUT/coalescer_env.txt. Used for the coalescer under reads in arrival order (docs/calibration.md):
#   scripts/device_coalescer_sweep.sh h100 "2 4 6" --set gpu.l2.reads_in_arrival_order=true
set -uo pipefail
cd "$(dirname "$0")/.."
gpu=${1:?usage: scripts/device_coalescer_sweep.sh GPU "N1 N2 ..." [compare options...]}
sizes=${2:?the coalescer sizes}
shift 2
out=${OUT:-out}
mkdir -p "$out" build-device
tar -C build-device -xJf build-pack/gms.tar.xz
count=$(wc -w <<< "$sizes")
jobs=$(( $(nproc) / count > 0 ? $(nproc) / count : 1 ))
start=$(date +%s)
for n in $sizes; do
  build-device/run compare --gpu "configs/gpus/$gpu.yaml" "validate/results/$gpu/triton_gemm" "validate/results/$gpu/triton_tma_gemm" \
    --jobs "$jobs" --json "$out/coalescer_$n.json" --set "gpu.l2.coalescer_entries=$n" "$@" > "$out/coalescer_$n.txt" 2>&1 &
done
wait
{
  echo "date: $(date -u +%FT%TZ)"
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "binary: $(build-device/run --version)"
  echo "command: scripts/device_coalescer_sweep.sh $gpu \"$sizes\" $*"
  echo "wall: $(( $(date +%s) - start )) s"
} > "$out/coalescer_env.txt"

#!/usr/bin/env bash
# scripts/device_scorecard.sh GPU: the whole scorecard of one GPU's records (docs/results/GPU-compare.md)
# on a device machine's CPUs - ~1.8 CPU-hours of replays (404 s for the H100's 142 records on 16 CPUs, 2026-11-28). Run there
# with the packed binary: here `scripts/pack_for_device.sh && tar -C build-device -cJf build-pack/gms.tar.xz .`
# (build-pack/ is ignored and small enough to travel; build-device/ is not), then on the device
# (run tool, carry: ["build-pack"]): `scripts/device_scorecard.sh h100`. Writes $OUT/GPU.json (compare
# --json), $OUT/GPU.txt (its table) and $OUT/GPU_env.txt (machine, binary, command, wall time).
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=${1:?usage: scripts/device_scorecard.sh h100|h200}
out=${OUT:-out}
mkdir -p "$out" build-device
tar -C build-device -xJf build-pack/gms.tar.xz
sets=()
for s in gemm gemv padding seed002 triton_gemm triton_tma_gemm triton_gemm_spill triton_gemv; do
  [ -d "validate/results/$gpu/$s" ] && sets+=("validate/results/$gpu/$s")
done
cmd=(build-device/run compare --gpu "configs/gpus/$gpu.yaml" "${sets[@]}" --jobs "$(nproc)" --json "$out/$gpu.json")
start=$(date +%s)
"${cmd[@]}" > "$out/$gpu.txt" 2>&1 || echo "compare exited $?" >> "$out/$gpu.txt"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "binary: $(build-device/run --version)"
  echo "command: ${cmd[*]}"
  echo "wall: $(( $(date +%s) - start )) s"
} > "$out/${gpu}_env.txt"

#!/usr/bin/env bash
# scripts/device_scorecard.sh GPU: the whole scorecard of one GPU's records (docs/results/GPU-compare.md)
# on a device machine's CPUs - ~1.8 CPU-hours of replays (404 s for the H100's 142 records on 16 CPUs, 2026-11-28). Run there
# with the packed binary: here `scripts/pack_for_device.sh && tar -C build-device -cJf build-pack/gms.tar.xz .`
# (build-pack/ is ignored and small enough to travel; build-device/ is not), then on the device
# (run tool, carry: ["build-pack"]): `scripts/device_scorecard.sh h100`. Writes $OUT/GPU.json (compare
# --json), $OUT/GPU.txt (its table) and $OUT/GPU_env.txt (machine, binary, command, wall time).
# A what-if scorecard: `scripts/device_scorecard.sh GPU NAME compare-options...` (e.g. `h100 in-order --set
# gpu.l2.reads_in_arrival_order=true`) writes $OUT/GPU-NAME.*; SETS="gemm gemv" takes only those record sets
# (a run that would pass the device's 10-minute limit split in two).
# The presets' own scorecard (no NAME, every set) also writes its canary, $OUT/GPU-canary.json: the records
# docs/results/GPU-canary.txt names, replayed with --sample-waves 2 by the same binary. CI replays that canary
# and scores the committed scorecard (tests/CMakeLists.txt, "Fidelity"): commit both, as .json.xz, with
# every change that moves a simulated number.
# The device takes at most 64 MiB of working tree and carried paths: with build-pack (6 MB) the tree was at its edge on
# 2026-12-01 - move validate/results/h100/cta_occupancy/*.tar.gz (14 MB, which no replay reads) out of the tree for the
# call, and back after. Only some record sets moved? Replay those (SETS=..., NAME) and join them to the committed card:
# `gpumemsim compare --gpu G.yaml <every set> --simulated docs/results/GPU-compare.json.xz --simulated PART.json --json OUT`.
# and make the canary again with the same build (`compare ... <GPU-canary.txt's records> --sample-waves 2 --json`).
set -euo pipefail
cd "$(dirname "$0")/.."
gpu=${1:?usage: scripts/device_scorecard.sh h100|h200 [NAME compare-options...]}
name=$gpu${2:+-$2}
shift $(( $# >= 2 ? 2 : 1 ))
out=${OUT:-out}
mkdir -p "$out" build-device
tar -C build-device -xJf build-pack/gms.tar.xz
sets=()
for s in ${SETS:-$(grep -v '^#' validate/results/scorecard_sets.txt)}; do
  [ -d "validate/results/$gpu/$s" ] && sets+=("validate/results/$gpu/$s")
done
cmd=(build-device/run compare --gpu "configs/gpus/$gpu.yaml" "${sets[@]}" --jobs "$(nproc)" --json "$out/$name.json" "$@")
start=$(date +%s)
"${cmd[@]}" > "$out/$name.txt" 2>&1 || echo "compare exited $?" >> "$out/$name.txt"
canary=()
if [ "$name" = "$gpu" ] && [ -z "${SETS:-}" ] && [ -f "docs/results/$gpu-canary.txt" ]; then
  mapfile -t canary < <(grep -v '^#' "docs/results/$gpu-canary.txt")
  build-device/run compare --gpu "configs/gpus/$gpu.yaml" "${canary[@]}" --sample-waves 2 --jobs "$(nproc)" \
    --json "$out/$gpu-canary.json" > "$out/$gpu-canary.txt" 2>&1 || echo "canary compare exited $?" >> "$out/$gpu-canary.txt"
fi
{
  echo "date: $(date -u +%FT%TZ)"
  echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "binary: $(build-device/run --version)"
  echo "command: ${cmd[*]}"
  [ ${#canary[@]} -eq 0 ] || echo "canary: the same binary, compare --sample-waves 2 over docs/results/$gpu-canary.txt's ${#canary[@]} records"
  echo "wall: $(( $(date +%s) - start )) s"
} > "$out/${name}_env.txt"

#!/usr/bin/env bash
# One device call (seconds): gms-fill-ubench --probes (validate/runner/fill_ubench.cu) - one warp's
# cp.async latency, waited for at once, beside ldmatrix readers of 16 / 4 / 8 wavefronts (pitches 64 /
# 80 / 96) on every sub-partition, one reader per sub-partition, only on the copier's sub-partition, or
# only on the other three: which queue a copy waits in to enter the LSU, and how deep it is.
#   fill_probe_run.jsonl  one line per pitch and reader set
#   fill_probe_env.txt    GPU, driver, clocks, command, the build, the kernels' LDSM/LDGSTS opcodes
set -uo pipefail
BIN=/tmp/gms-fill-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env fill_probe device_fill_probe.sh validate/runner/fill_ubench.cu "$BIN" "Function|LDSM|LDGSTS|LDGDEPBAR|DEPBAR"
"$BIN" --probes | tee "$OUT/fill_probe_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fill_probe_env.txt"

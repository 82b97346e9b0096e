#!/usr/bin/env bash
# One device call: seed 002's ladder with every CTA's start, end and SM stamped (gms-ladder --stamps,
# validate/runner/ladder_runner.cu) - three stamped runs per rung, and each rung timed plain and stamped
# (the stamps' cost on record).
#   ladder_stamps_run.jsonl, seed002_<rung>_run<r>.csv.gz   the check, the times and the stamps
#   ladder_stamps_env.txt                                   GPU, driver, clocks, nvcc, command, the build
# Then, on the workstation: validate/scripts/cta_ranks.py DIR --model seed002_<rung>=RUN_DIR
# (RUN_DIR: `gpumemsim run -g configs/gpus/GPU.yaml --record validate/results/GPU/seed002/seed002_<rung>.json -o RUN_DIR`).
#   validate/scripts/device_ladder_stamps.sh [--only RUNG] [--alone | --ctas-per-sm N]   (at most N CTAs an SM; --alone: one)
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
BIN=/tmp/gms-ladder
device_env "device_ladder_stamps.sh $*" validate/runner/ladder_runner.cu "$BIN" > "$OUT/ladder_stamps_env.txt" 2>&1
[ -x "$BIN" ] || { echo "build failed"; cat "$OUT/ladder_stamps_env.txt"; exit 1; }
# Registers per kernel, plain (sgemm_ladder) and stamped (ladder_cta_stamps): equal, or the stamped
# kernel's occupancy is not the plain one's.
{ echo "# cuobjdump -res-usage"; cuobjdump -res-usage "$BIN" | grep -A1 -E "sgemm_ladder|ladder_cta_stamps" | grep -E "Function|REG"; } \
  >> "$OUT/ladder_stamps_env.txt" 2>&1
"$BIN" --stamps "$OUT" "$@" | tee "$OUT/ladder_stamps_run.jsonl"
status=${PIPESTATUS[0]}
gzip -f "$OUT"/seed002_*_run*.csv
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/ladder_stamps_env.txt"
exit "$status"

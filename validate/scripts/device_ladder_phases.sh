#!/usr/bin/env bash
# One device call: seed 002's ladder with every warp's main loop stamped (gms-ladder --phases,
# validate/runner/ladder_runner.cu, validate/kernels/ladder_phase_stamps.cuh) - each rung timed plain and stamped
# (the stamps' cost on record), then one stamped run as histograms of the cycles a warp spends per K tile
# loading, at the barrier behind the loads and computing.
#   ladder_phases_run.jsonl                                     the check, the times, the occupancies, percentiles
#   seed002_<rung>_phases.csv.gz, seed002_<rung>_phase_by_tile.csv  the histograms, the means per K tile
#   ladder_phases_env.txt                                       GPU, driver, clocks, nvcc, command, registers, and
#                                                               r3_bk32's stamped loop in SASS (where the clocks sit)
# Then, on the workstation: validate/scripts/ladder_phases.py DIR --model seed002_<rung>=RUN_DIR
# (RUN_DIR: `gpumemsim run -g configs/gpus/GPU.yaml --record validate/results/GPU/seed002/seed002_<rung>.json
#  --warp-timeline 0 -o RUN_DIR`).
#   validate/scripts/device_ladder_phases.sh [--only RUNG] [--alone | --ctas-per-sm N]
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
BIN=/tmp/gms-ladder
device_env "device_ladder_phases.sh $*" validate/runner/ladder_runner.cu "$BIN" > "$OUT/ladder_phases_env.txt" 2>&1
[ -x "$BIN" ] || { echo "build failed"; cat "$OUT/ladder_phases_env.txt"; exit 1; }
{
  # Registers per kernel, plain (sgemm_ladder) and loop-stamped (ladder_phase_stamps); the run checks occupancy.
  echo "# cuobjdump -res-usage"
  cuobjdump -res-usage "$BIN" | grep -A1 -E "sgemm_ladder|ladder_phase_stamps" | grep -E "Function|REG"
  # r3_bk32's stamped loop: the clock reads (CS2R/S2R), the copies, the barriers and the stamps' stores in order.
  echo "# SASS of ladder_phase_stamps<r3_bk32>: clock reads, LDG, STS, BAR, STG"
  cuobjdump -sass "$BIN" |
    awk '/Function : _ZN4gmsv19ladder_phase_stampsILi128ELi128ELi32ELi16ELi16ELi4ELb0ELi1ELi0ELi1E/ {on = 1; print; next}
         /Function : / {on = 0} on' |
    grep -E "Function|CLOCK|LDG|STS|BAR|STG|BRA|S2R" | grep -v SRZ | sed 's#/\* 0x[0-9a-f]* \*/##' | head -60
} >> "$OUT/ladder_phases_env.txt" 2>&1
"$BIN" --phases "$OUT" "$@" | tee "$OUT/ladder_phases_run.jsonl"
status=${PIPESTATUS[0]}
gzip -9f "$OUT"/seed002_*_phases.csv
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/ladder_phases_env.txt"
exit "$status"

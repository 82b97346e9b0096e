#!/usr/bin/env bash
# One device call: gms-icache-ubench (validate/runner/icache_ubench.cu) - what a loop larger than the instruction
# caches costs a warp, and how evenly across warps and SMs.
#   icache_run.jsonl   one line per case (loop size, warps a CTA, CTAs an SM)
#   icache_env.txt     GPU, driver, clocks, nvcc, the command, and per kernel its SASS instructions and FFMAs
# Usage on the device machine, from the repository root: validate/scripts/device_icache.sh [--fine | --ages]
# (--fine: the loop sizes between the two regimes and the loops of fewer chains; --ages: two CTAs an SM, their ends
# by age; gms-icache-ubench --fine / --ages)
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
BIN=/tmp/gms-icache-ubench
device_env "device_icache.sh $*" validate/runner/icache_ubench.cu "$BIN" > "$OUT/icache_env.txt" 2>&1
[ -x "$BIN" ] || { echo "build failed"; cat "$OUT/icache_env.txt"; exit 1; }
{
  echo "# per kernel: SASS instructions, FFMA among them (cuobjdump -sass)"
  cuobjdump -sass "$BIN" | awk '/Function : / {if (name) print name, n, f; name = $3; n = 0; f = 0; next}
                                /^ *\/\*[0-9a-f]{4}\*\// {n++; if ($0 ~ /FFMA/) f++}
                                END {if (name) print name, n, f}'
} >> "$OUT/icache_env.txt" 2>&1
"$BIN" "$@" | tee "$OUT/icache_run.jsonl"
status=${PIPESTATUS[0]}
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/icache_env.txt"
exit "$status"

#!/usr/bin/env bash
# One device call: gms-sreg-ubench (validate/runner/sreg_ubench.cu) - how long a warp waits for a
# special-register read (S2R), alone and beside warps that keep the shared-memory data path busy.
#   sreg_run.jsonl  cycles per bracketed step (clock, S2R SR_VIRTUALSMID, its use, clock; and the
#                   control without the S2R), idle and loaded
#   sreg_env.txt    GPU, driver, clocks, ncu, command, the build, the chase loops' SASS
set -uo pipefail
BIN=/tmp/gms-sreg-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env sreg device_sreg.sh validate/runner/sreg_ubench.cu "$BIN" "Function|S2R|CS2R"
{
  echo "# the bracketed loops (sreg_chase): every instruction with its encoding (the second word holds the control code)"
  cuobjdump -sass "$BIN" | awk '/Function/{p=0} /sreg_chase/{p=1} p'
} >> "$OUT/sreg_env.txt" 2>&1
"$BIN" | tee "$OUT/sreg_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/sreg_env.txt"

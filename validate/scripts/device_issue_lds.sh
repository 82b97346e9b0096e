#!/usr/bin/env bash
# One device call: gms-issue-ubench --shared (validate/runner/issue_ubench.cu) - FFMA loops with a shared load to
# every 4 or 8 FFMAs, 1 / 4 / 7 CTAs of 128 threads and 2 of 256 an SM: do warps that wait on the shared-memory path
# keep their age's priority? Twice.
#   issue_lds.jsonl        one line per configuration and run
#   issue_lds_env.txt      GPU, driver, clocks, ncu, command, the build, the loops' SASS lines
set -uo pipefail
BIN=/tmp/gms-issue-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env issue_lds device_issue_lds.sh validate/runner/issue_ubench.cu "$BIN" "Function|LDS|BRA"
for run in 1 2; do "$BIN" --shared | sed "s/^{/{\"run\": $run, /"; done | tee "$OUT/issue_lds.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/issue_lds_env.txt"
cuobjdump -sass "$BIN" | xz > "$OUT/issue_lds_sass.txt.xz"  # the loops, for a trace that replays them

#!/usr/bin/env bash
# One device call: gms-issue-ubench --wake (validate/runner/issue_ubench.cu) - does a warp keep its age's
# priority for the issue port after it waited at a barrier or for an L2 load? 4 x 128 and 2 x 256 threads
# per SM, 2 FFMA chains (two warps fill a sub-partition's port), every 64 / 512 / 4,096 iterations a
# __syncthreads or a dependent load; warps of 16 and 1 chains beside them. Twice.
#   issue_wake.jsonl        one line per configuration and run
#   issue_wake_env.txt      GPU, driver, clocks, ncu, command, the build, the loop's SASS
set -uo pipefail
BIN=/tmp/gms-issue-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env issue_wake device_issue_wake.sh validate/runner/issue_ubench.cu "$BIN" "Function|BAR|LDG|BRA|ISETP|IADD"
for run in 1 2; do "$BIN" --wake | sed "s/^{/{\"run\": $run, /"; done | tee "$OUT/issue_wake.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/issue_wake_env.txt"
cuobjdump -sass "$BIN" | xz > "$OUT/issue_wake_sass.txt.xz"  # every kernel's loop, for the trace that replays it

#!/usr/bin/env bash
# One device call: gms-issue-ubench --wake (validate/runner/issue_ubench.cu) - does a warp keep its age's
# priority for the issue port after it waited at a barrier or for an L2 load? 4 x 128 and 2 x 256 threads
# per SM, 2 FFMA chains (two warps fill a sub-partition's port), every 64 / 512 / 4,096 iterations a
# __syncthreads or a dependent load; warps of 16 and 1 chains beside them. Twice.
#   issue_wake.jsonl        one line per configuration and run
#   issue_wake_env.txt      GPU, driver, clocks, ncu, command, the build, the loop's SASS
#   issue_wake_sass.txt.xz  every kernel's SASS, for the trace that replays the loops (issue_wake.py --model)
# With --shared, gms-issue-ubench --shared instead (a shared load to every 4 or 8 FFMAs, 1-7 CTAs an SM), into
# issue_lds.jsonl, issue_lds_env.txt and issue_lds_sass.txt.xz; with --rate, gms-issue-ubench --rate (3 FFMA chains,
# no events: warps that each want 3 of every 4 issue slots) into issue_rate.*.
set -uo pipefail
BIN=/tmp/gms-issue-ubench
mode=--wake name=issue_wake
[ "${1:-}" = --shared ] && mode=--shared name=issue_lds
[ "${1:-}" = --rate ] && mode=--rate name=issue_rate
source "$(dirname "$0")/device_env.sh"
device_build_env "$name" "device_issue_wake.sh $mode" validate/runner/issue_ubench.cu "$BIN" "Function|BAR|LDG|LDS|BRA"
for run in 1 2; do "$BIN" "$mode" | sed "s/^{/{\"run\": $run, /"; done | tee "$OUT/$name.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
cuobjdump -sass "$BIN" | xz > "$OUT/${name}_sass.txt.xz"

#!/usr/bin/env bash
# One device call: what a second warp on a sub-partition costs the first (gms-sharing-ubench,
# validate/runner/sharing_ubench.cu; docs/sm-sharing.md), then the warp states of a few pairs.
#   sharing_run.jsonl   one line per (measured stream, neighbour stream): cycles per iteration
#   sharing_env.txt     GPU, driver, clocks, ncu, nvcc, command, the build, the kernels' SASS mix
#   sharing_ncu.csv     Nsight's warp states (per warp, measured and neighbour warps together) of every
#                       pair's measured launch (--page raw --csv)
set -uo pipefail
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=/tmp/gms-sharing-ubench
device_ubench sharing device_sharing.sh validate/runner/sharing_ubench.cu "$BIN" "^\s+Function"
source "$(dirname "$0")/ncu_metrics.sh"
sharing_profile sharing "$BIN" . "smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__inst_executed_pipe_tensor_op_hmma.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"

#!/usr/bin/env bash
# One device call: ldmatrix beside the tensor pipe (gms-sharing-ubench --ldsm, validate/runner/sharing_ubench.cu;
# docs/sm-sharing.md) - a dependent ldmatrix chain and a stream of independent ones at 4, 8 and 16 wavefronts
# beside each neighbour stream, and the mma / mixed streams beside them: does an ldmatrix take longer, or the
# sub-partition take fewer, while another warp's HMMAs are in the tensor pipe?
#   sharing_ldsm_run.jsonl  one line per (measured stream, neighbour stream): cycles per iteration
#   sharing_ldsm_env.txt    GPU, driver, clocks, ncu, nvcc, command, the build, the kernels' SASS mix
#   sharing_ldsm_ncu.csv    Nsight's warp states of every pair's launches (--page raw --csv)
set -uo pipefail
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=/tmp/gms-sharing-ubench
device_ubench sharing_ldsm device_sharing_ldsm.sh validate/runner/sharing_ubench.cu "$BIN" "^\s+Function" --ldsm
source "$(dirname "$0")/ncu_metrics.sh"
# The instruction mix of the kernels with an --ldsm stream (template arguments 6-13).
sharing_profile sharing_ldsm "$BIN" "ILi(6|7|8|9|10|11|12|13)E|Li(6|7|8|9|10|11|12|13)EE" "smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__inst_executed_pipe_tensor_op_hmma.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum" --ldsm

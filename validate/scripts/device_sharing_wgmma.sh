#!/usr/bin/env bash
# One device call: Hopper's warpgroup MMA beside the other streams (gms-sharing-ubench --wgmma,
# validate/runner/sharing_ubench.cu and wgmma_ptx.cuh, built for sm_90a; docs/sm-sharing.md) - the wgmma rate
# per shape alone and beside a second warpgroup's, mma.sync, ldmatrix, shared stores and integer work, and those
# streams beside it: does wgmma hold its sub-partitions' issue, share their tensor pipe, pass their ldmatrix one
# at a time, or take shared-memory bandwidth from their loads and stores?
#   sharing_wgmma_run.jsonl  one line per (measured stream, neighbour stream): cycles per iteration
#   sharing_wgmma_env.txt    GPU, driver, clocks, ncu, nvcc, command, the build, the kernels' SASS mix
#   sharing_wgmma_ncu.csv    Nsight's warp states and pipes of every pair's launches (--page raw --csv)
set -uo pipefail
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=/tmp/gms-sharing-ubench-wgmma
GMS_ARCH_SUFFIX=a device_ubench sharing_wgmma device_sharing_wgmma.sh validate/runner/sharing_ubench.cu "$BIN" \
  "^\s+Function" --wgmma
source "$(dirname "$0")/ncu_metrics.sh"
# The instruction mix of the kernels with a wgmma or store stream (template arguments 14-17).
sharing_profile sharing_wgmma "$BIN" "Li1[4-7]E" "smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_misc_per_warp_active.pct,smsp__inst_executed_pipe_tensor_op_hmma.sum,smsp__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__cycles_elapsed.avg.per_second" --wgmma

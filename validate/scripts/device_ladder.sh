#!/usr/bin/env bash
# One device call for seed 002's ladder: build (registers and spills from ptxas), count each rung's
# SASS memory and FFMA instructions, check and time every rung, then profile each once under Nsight
# Compute. $OUT gets ladder_build.txt, ladder_measure.jsonl, ladder_ncu.csv.
# Usage on the device machine, from the repository root: validate/scripts/device_ladder.sh [SIZE]
set -uo pipefail
OUT=${OUT:-$PWD/out}
size=${1:-4096}
mkdir -p "$OUT"
BIN=/tmp/gms-ladder
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
  ncu --version | tail -1
  echo "command: validate/scripts/device_ladder.sh $size; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch} -Xptxas -v"
  nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -Xptxas -v -o "$BIN" validate/runner/ladder_runner.cu 2>&1 \
    | grep -E "Compiling entry|registers|spill" || echo "build failed"
  echo "# SASS per kernel: memory and FFMA instruction counts (static)"
  cuobjdump -sass "$BIN" | python3 "$(dirname "$0")/sass_mix.py"
} > "$OUT/ladder_build.txt" 2>&1
"$BIN" --size "$size" | tee "$OUT/ladder_measure.jsonl"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_global_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct
source "$(dirname "$0")/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics")
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:sgemm_ladder "$BIN" --size "$size" --profile \
  > "$OUT/ladder_ncu.csv" 2> /tmp/ladder_ncu.log
echo "ncu exit $?"; tail -2 /tmp/ladder_ncu.log

#!/usr/bin/env bash
# Every warp-stall reason of the GEMV sweep's 4096x7168 llcc cases (the sweep's fixed metric list had
# only long_scoreboard, lg_throttle, barrier, membar and drain, which leave 80 % of the stalls of
# the slow configurations unexplained): triton_gemv_stalls.csv, one ncu row per case.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
ncu --version | tail -1 > "$OUT/gemv_stalls_env.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$OUT/gemv_stalls_env.txt"
echo "command: validate/scripts/device_gemv_stalls.sh" >> "$OUT/gemv_stalls_env.txt"
ncu --clock-control none --metrics "regex:^smsp__warp_issue_stalled_.*_per_warp_active.pct$,gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum" \
  --csv --page raw -k regex:gemv_revsplitk python3 "$here/triton_gemv_records.py" --profile --only '4096x7168.*llcc' \
  > "$OUT/triton_gemv_stalls.csv" 2>> "$OUT/gemv_stalls_env.txt"
echo "stalls ncu exit $?"

#!/usr/bin/env bash
# One device call: the WMMA GEMM (gemm_kernel.cuh) with 0, 8 and 16 halves of padding per shared row,
# three cases each (the runner's case set gemm_pad). Padding trades two costs the model prices
# separately: rows off the 32-byte sector grid make cp.async.cg fetch split sectors twice
# (gms-ldgsts-ubench), rows on it give ldmatrix bank conflicts.
#   gemm_pad.jsonl      time per case (median of the runner's launches), records
#   gemm_pad_ncu.csv    each case once under ncu (copies, ldmatrix wavefronts and conflicts, L2, DRAM)
#   gemm_pad_env.txt    GPU, driver, clocks, ncu version, command, the build
# Then, on the workstation:
#   validate/scripts/merge_ncu.py --records gemm_pad.jsonl --ncu gemm_pad_ncu.csv --out validate/results/<gpu>/padding
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
BIN=/tmp/gms-validate
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,memory.total,temperature.gpu --format=csv
  nvcc --version | tail -2
  ncu --version | tail -1
  echo "command: validate/scripts/device_gemm_pad.sh; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch}"
  nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -o "$BIN" \
    validate/runner/runner_main.cu validate/runner/ubench_runner.cu validate/runner/cases.cpp validate/runner/record.cpp 2>&1
  echo "# shared loads per kernel instance (LDSM forms; the pads must not change the instruction mix)"
  cuobjdump -sass "$BIN" | awk '/Function :/ {fn = ($3 ~ /gemm_fp16/) ? $3 : ""} fn != "" && /LDSM|LDGSTS/ {match($0, /(LDSM|LDGSTS)[A-Z0-9._]*/); c[fn" "substr($0, RSTART, RLENGTH)]++} END {for (k in c) print c[k], k}' | sort -k2
} > "$OUT/gemm_pad_env.txt" 2>&1
[ -x "$BIN" ] || { echo "build failed"; cat "$OUT/gemm_pad_env.txt"; exit 1; }
"$BIN" --set gemm_pad --out /tmp 2>&1 | tee "$OUT/gemm_pad_run.log"
cp /tmp/gemm_pad.jsonl "$OUT/gemm_pad.jsonl"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,launch__registers_per_thread,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size,launch__shared_mem_per_block_dynamic,launch__grid_size,launch__block_size,smsp__inst_executed.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_pipe_tensor_op_hmma.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct
source "$(dirname "$0")/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/gemm_pad_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemm_fp16 \
  "$BIN" --profile --set gemm_pad --out /tmp > "$OUT/gemm_pad_ncu.csv" 2>> "$OUT/gemm_pad_env.txt"
echo "ncu exit $?"
grep -c gemm_fp16 "$OUT/gemm_pad_ncu.csv"

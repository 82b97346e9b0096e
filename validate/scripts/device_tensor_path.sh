#!/usr/bin/env bash
# One device call for the tensor-core data path: the project's WMMA GEMM (gms-validate --set gemm)
# and the Triton wgmma GEMM (validate/scripts/triton_gemm_asm.py's kernel) under Nsight Compute
# with shared-memory, ldmatrix, cp.async and tensor-pipe counters, and the WMMA kernel's SASS mix.
# $OUT: tensor_env.txt, wmma_ncu.csv, triton_ncu.csv, wmma_sass_mix.txt
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
BIN=/tmp/gms-validate
nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -o "$BIN" \
  validate/runner/runner_main.cu validate/runner/ubench_runner.cu validate/runner/cases.cpp validate/runner/record.cpp || exit 1
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm --format=csv
  ncu --version | tail -1
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "command: validate/scripts/device_tensor_path.sh"
} > "$OUT/tensor_env.txt" 2>&1
cuobjdump -sass "$BIN" | python3 "$(dirname "$0")/sass_mix.py" gemm > "$OUT/wmma_sass_mix.txt"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_pipe_tensor_op_hmma.sum,smsp__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct
source "$(dirname "$0")/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/tensor_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemm_fp16 "$BIN" --profile --set gemm --out /tmp \
  > "$OUT/wmma_ncu.csv" 2>> "$OUT/tensor_env.txt"
echo "wmma ncu exit $?"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:matmul python3 validate/scripts/triton_gemm_asm.py /tmp/tasm \
  > "$OUT/triton_ncu.csv" 2>> "$OUT/tensor_env.txt"
echo "triton ncu exit $?"

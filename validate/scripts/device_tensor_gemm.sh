#!/usr/bin/env bash
# One device call for the tensor-core class of the model and the second GEMM implementation:
#   tensor_ubench.jsonl   gms-tensor-ubench: mma.sync rate/latency, the SM clock under tensor load
#   triton_gemm.jsonl     Triton wgmma GEMM records (triton_gemm_records.py: 2 shapes x 3 tilings x 2 orders)
#   triton_ncu.csv        the same cases once each under ncu (merge_ncu.py joins them into records)
#   lrc_metrics.txt       what this ncu knows about L2 request coalescing / per-source L2 sectors
#   tensor_gemm_env.txt   GPU, driver, clocks, ncu/Triton/PyTorch versions, command
# Then, on the workstation: merge_ncu.py --records triton_gemm.jsonl --ncu triton_ncu.csv --out validate/results/<gpu>
#
#   device_tensor_gemm.sh [--triton-only] [triton_gemm_records.py options: --shapes, --tilings, --groups, --copy]
# --triton-only skips the tensor ubench (other Triton cases than the default set, e.g. the rows sweep of
# validate/results/h200/triton_rows: --shapes 512x8192x8192,... --tilings 128x128x64w4s3 --groups 1,8).
set -uo pipefail
triton_only=0
if [ "${1:-}" = --triton-only ]; then triton_only=1; shift; fi
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
if [ $triton_only = 1 ]; then
  { device_env_lines "device_tensor_gemm.sh --triton-only $*"; } > "$OUT/tensor_gemm_env.txt" 2>&1
else
{
  device_env device_tensor_gemm.sh validate/runner/tensor_ubench.cu /tmp/gms-tensor-ubench
  echo "# SASS of the mma.sync chain (the loop must hold HMMA.16816 only)"
  cuobjdump -sass /tmp/gms-tensor-ubench 2>/dev/null | grep -cE "HMMA.16816" | sed 's/^/HMMA.16816 instructions: /'
} > "$OUT/tensor_gemm_env.txt" 2>&1
/tmp/gms-tensor-ubench > "$OUT/tensor_ubench.jsonl" 2>> "$OUT/tensor_gemm_env.txt"
echo "tensor ubench exit $?"; cat "$OUT/tensor_ubench.jsonl"
fi
python3 "$here/triton_gemm_records.py" --jsonl "$OUT/triton_gemm.jsonl" "$@" 2>> "$OUT/tensor_gemm_env.txt"
echo "triton records exit $?"
ncu --query-metrics 2>&1 | grep -iE "^(lrc|lts__t_(requests|sectors)_srcunit|l1tex__m_xbar2l1tex)" > "$OUT/lrc_metrics.txt"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__xbar2gpc_sectors_op_read.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size,launch__waves_per_multiprocessor,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__inst_executed_pipe_tensor_op_hmma.sum,smsp__inst_executed_pipe_tensor_op_gmma.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/tensor_gemm_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:matmul python3 "$here/triton_gemm_records.py" --profile "$@" \
  > "$OUT/triton_ncu.csv" 2>> "$OUT/tensor_gemm_env.txt"
echo "triton ncu exit $?"

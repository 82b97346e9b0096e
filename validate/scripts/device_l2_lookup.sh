#!/usr/bin/env bash
# One device call: what an L2 read request costs by its shape, and how much the L2 request
# coalescer merges (gms-l2-ubench, validate/runner/l2_lookup_ubench.cu).
#   l2_ubench.jsonl   time per pattern (L2-resident buffer, median of 20 launches)
#   l2_ncu.csv        each pattern's second launch under ncu (lookups, requests, coalescer counters)
#   wmma_lrc.csv      the project's WMMA GEMM (8192^3, GROUP_M 8) and seed shapes under ncu with the same counters
#   l2_env.txt        GPU, driver, clocks, ncu version, command
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
{
  device_env device_l2_lookup.sh validate/runner/l2_lookup_ubench.cu /tmp/gms-l2-ubench
  echo "# global loads in the SASS (expect LDG.E.128 with L1 bypass and LDGSTS.E.BYPASS.128)"
  cuobjdump -sass /tmp/gms-l2-ubench | grep -oE "LDG(STS)?[A-Z0-9.]*" | sort | uniq -c
} > "$OUT/l2_env.txt" 2>&1
/tmp/gms-l2-ubench > "$OUT/l2_ubench.jsonl" 2>> "$OUT/l2_env.txt"
echo "l2 ubench exit $?"; cat "$OUT/l2_ubench.jsonl"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,lts__cycles_elapsed.max,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_ldgsts.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__xbar2gpc_sectors_op_read.sum,dram__bytes_read.sum
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/l2_env.txt"
ncu --cache-control none --clock-control none --metrics "$keep" --csv --page raw /tmp/gms-l2-ubench --profile \
  > "$OUT/l2_ncu.csv" 2>> "$OUT/l2_env.txt"
echo "l2 ncu exit $?"
# The project's WMMA GEMM with the same counters: its fourth gemm launch is 8192^3 GROUP_M 8.
nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_90,code=sm_90 -o /tmp/gms-validate validate/runner/runner_main.cu \
  validate/runner/ubench_runner.cu validate/runner/cases.cpp validate/runner/record.cpp >> "$OUT/l2_env.txt" 2>&1
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemm_fp16 --launch-skip 3 --launch-count 1 \
  /tmp/gms-validate --profile --set gemm --out /tmp > "$OUT/wmma_lrc.csv" 2>> "$OUT/l2_env.txt"
echo "wmma ncu exit $?"

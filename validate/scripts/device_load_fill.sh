#!/usr/bin/env bash
# One device call: gms-fill-ubench --loads (validate/runner/fill_ubench.cu, load_mix) - does a global load's data,
# on its way into the registers, take cycles of the SM's shared-memory data path, as a cp.async's write does
# (validate/results/h100/fill: ~2 cycles per 512-byte LDGSTS from L2)? 16 ldmatrix reader warps keep the path busy,
# 16 loader warps issue 0 / 256 / 512 LDG each (128-bit or 32-bit, from L2, L1 or DRAM, 4 in flight a warp).
#   load_fill_run.jsonl  reader / loader cycles per SM (median over the SMs of the median of 5 runs)
#   load_fill_ncu.csv    ncu of three launches (16-wavefront readers beside 512 loads a warp): wavefronts
#   load_fill_metrics.txt the data-pipe metric names this ncu offers
#   load_fill_env.txt    GPU, driver, clocks, ncu, command, the build, the kernels' LDG / LDSM opcodes
set -uo pipefail
BIN=/tmp/gms-fill-ubench
source "$(dirname "$0")/device_env.sh"
device_ubench load_fill device_load_fill.sh validate/runner/fill_ubench.cu "$BIN" "Function|LDSM|LDG" --loads
ncu --query-metrics 2>/dev/null | grep -iE "data_pipe_lsu_wavefronts|wavefronts_mem_lg|t_sectors_pipe_lsu_mem_global_op_ld" > "$OUT/load_fill_metrics.txt"
# ncu of three launches (the readers beside 512 loads a warp, first of five): LDG.128 from L2 (launch 10), LDG.32
# from L2 (85), LDG.128 from DRAM (135); global data-stage wavefronts as ncu counts them (mem_lgds).
for skip in 10 85 135; do
  ncu --kernel-name regex:load_mix --launch-skip $skip --launch-count 1 \
      --metrics smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,sm__cycles_elapsed.max \
      --csv "$BIN" --loads 2>> "$OUT/load_fill_ncu.log" | grep -v '^{' 
done > "$OUT/load_fill_ncu.csv"
grep -c load_mix "$OUT/load_fill_ncu.csv"

#!/usr/bin/env bash
# One device call: gms-local-ubench --writeback / --reload (validate/runner/local_ubench.cu) - which spill frames
# reach DRAM though they fit L2. 200 rounds of 90 8-byte stores (and/or loads) a thread, frames missing L1, on 16..all
# SMs at 4 and 8 warps a CTA: --writeback stores to local memory (store) and to global memory laid out as local
# memory lays it (fstore); --reload loads those global frames (fload), stores and loads them (fswap) and does both to
# local memory (swap). Every launch (a warm-up and three timed per case) under ncu, whose cache control writes L2
# back and empties it before each, so a launch's DRAM bytes are its own.
#   local_{writeback,reload}_run.jsonl  sectors per SM cycle per case (as gms-local-ubench)
#   local_{writeback,reload}_ncu.csv    ncu --page raw of the launches
#   local_writeback_env.txt             GPU, driver, clocks, ncu, command, the build, the SASS' STL/LDL
# Usage: validate/scripts/device_local_writeback.sh [writeback|reload|both]   (default both)
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
source "$(dirname "$0")/ncu_metrics.sh"
what=${1:-both}
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__m_l1tex2xbar_write_sectors.sum,launch__grid_size,launch__block_size"
device_build_env local_writeback "device_local_writeback.sh $what" validate/runner/local_ubench.cu /tmp/gms-local-ubench "Function|STL|LDL"
for mode in writeback reload; do
  [ "$what" = both ] || [ "$what" = "$mode" ] || continue
  /tmp/gms-local-ubench --$mode > "$OUT/local_${mode}_run.jsonl"
  ncu --clock-control none --csv --page raw -k regex:local_rounds \
      --metrics "$(keep_known_metrics "$metrics" 2>> "$OUT/local_writeback_env.txt")" \
      /tmp/gms-local-ubench --$mode > "$OUT/local_${mode}_ncu.csv" 2> "$OUT/local_${mode}_ncu.err"
  echo "ncu --$mode exit $?" >> "$OUT/local_writeback_env.txt"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/local_writeback_env.txt"

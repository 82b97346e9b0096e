#!/usr/bin/env bash
# One device call: gms-local-ubench --writeback (validate/runner/local_ubench.cu) - which stored spill frames reach
# DRAM though they fit L2. Store-only rounds (200 of 90 STL.64 a thread, frames missing L1) on 16..all SMs at 4 and 8
# warps a CTA, to local memory (store) and to global memory laid out as local memory lays it (fstore); every launch
# (a warm-up and three timed per case) under ncu, whose cache control writes L2 back before each, so a launch's
# dram__bytes_write is what its own stores sent to DRAM.
#   local_writeback_run.jsonl  sectors per SM cycle per case (as gms-local-ubench)
#   local_writeback_ncu.csv    ncu --page raw of the 96 launches
#   local_writeback_env.txt    GPU, driver, clocks, ncu, command, the build, the SASS' STL
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
source "$(dirname "$0")/ncu_metrics.sh"
device_ubench local_writeback device_local_writeback.sh validate/runner/local_ubench.cu /tmp/gms-local-ubench "Function|STL" --writeback
ncu --clock-control none --csv --page raw -k regex:local_rounds \
    --metrics "$(keep_known_metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__m_l1tex2xbar_write_sectors.sum,launch__grid_size,launch__block_size 2>> "$OUT/local_writeback_env.txt")" \
    /tmp/gms-local-ubench --writeback > "$OUT/local_writeback_ncu.csv" 2> "$OUT/local_writeback_ncu.err"
echo "ncu exit $?" >> "$OUT/local_writeback_env.txt"

#!/usr/bin/env bash
# One device call: gms-local-ubench (validate/runner/local_ubench.cu) - local-memory (spill) sectors
# an SM moves per cycle when its frames miss L1 (200 KiB of shared memory: L1 28 KiB) and when they
# hit (no shared memory), swap / load / store / global-store rounds, 1, 32 and all SMs, 4 and 8 warps -
# then the first 48 launches (frames miss, 4 warps: warm + 3 timed per case) under ncu (lg_throttle, local
# instructions and sectors, L1 hit rate, L2 sectors and requests).
#   local_run.jsonl  local_sectors_per_sm_cycle per case
#   local_ncu.csv    ncu --page raw of the profiled launches
#   local_env.txt    GPU, driver, clocks, ncu, command, the build, the SASS' STL/LDL
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
source "$(dirname "$0")/ncu_metrics.sh"
device_ubench local device_local.sh validate/runner/local_ubench.cu /tmp/gms-local-ubench "Function|STL|LDL" 
ncu --clock-control none --csv --page raw -k regex:local_rounds -c 48 \
    --metrics "$(keep_known_metrics gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_l1tex2xbar_write_sectors.sum,launch__grid_size,launch__block_size,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size 2>> "$OUT/local_env.txt")" \
    /tmp/gms-local-ubench > "$OUT/local_ncu.csv" 2> "$OUT/local_ncu.err"
echo "ncu exit $?" >> "$OUT/local_env.txt"

#!/usr/bin/env bash
# One device call: gms-store-ubench (validate/runner/store_ubench.cu) - how fast an SM stores a C tile
# as the WMMA GEMM's epilogue does (STG.E, half sectors), as fp32 fragments (STG.E.64, whole sectors)
# as whole lines (STG.E.128), as half sectors of 64-bit stores and whole sectors of 32-bit ones; one CTA, one
# or two CTAs per SM on every SM - then the same cases once each
# (`gms-store-ubench 1`: warm + one launch a case) under ncu (store instructions, requests and sectors
# at L1 and L2, the bytes the SM sends, lg/mio throttles).
#   store_run.jsonl  sectors, instructions and bytes per SM cycle per case
#   store_ncu.csv    ncu --page raw of the profiled launches
#   store_env.txt    GPU, driver, clocks, ncu, command, the build, the SASS' STG lines
# `device_store.sh mix`: `gms-store-ubench mix` instead - one SM's 4 warps storing the epilogue's half sectors
# beside 28 warps loading L2-resident lines, alone and at once (store_mix_run.jsonl, store_mix_env.txt; no ncu).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
source "$(dirname "$0")/ncu_metrics.sh"
if [ "${1:-}" = mix ]; then
  device_ubench store_mix device_store.sh validate/runner/store_ubench.cu /tmp/gms-store-ubench "Function|STG|LDG" mix
  exit 0
fi
device_ubench store device_store.sh validate/runner/store_ubench.cu /tmp/gms-store-ubench "Function|STG"
ncu --clock-control none --csv --page raw -k regex:store_tiles -c 30 \
    --metrics "$(keep_known_metrics gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__m_l1tex2xbar_write_sectors.sum,l1tex__m_l1tex2xbar_write_bytes.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,dram__bytes_write.sum,launch__grid_size,launch__block_size 2>> "$OUT/store_env.txt")" \
    /tmp/gms-store-ubench 1 > "$OUT/store_ncu.csv" 2> "$OUT/store_ncu.err"
echo "ncu exit $?" >> "$OUT/store_env.txt"

# Sourced by the device scripts: keep_known_metrics "m1,m2,..." prints the comma list of those this
# ncu knows (launch__* are always kept) and logs the others to stderr.
keep_known_metrics() {
  local known keep="" m
  known=$(ncu --query-metrics 2>&1)
  for m in ${1//,/ }; do
    if grep -q "^${m%%.*} " <<<"$known" || [[ $m == launch__* ]]; then keep="$keep,$m"; else echo "ncu lacks $m" >&2; fi
  done
  echo "${keep#,}"
}

# What a GEMV record's profile collects (device_gemv_sweep.sh; device_evict.sh profiles its streams
# with the same list, so that ncu replays them in as many passes as it replayed the GEMVs).
GEMV_RECORD_METRICS=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests_op_red.sum,lts__t_requests_op_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,sm__ctas_launched.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__waves_per_multiprocessor,launch__grid_size,launch__block_size,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,sm__cycles_elapsed.avg.per_second

# sharing_profile NAME BIN KERNELS METRICS [ARGS...]: for gms-sharing-ubench (device_sharing*.sh) - each kernel's
# instruction mix (cuobjdump: ops seen 8 times or more, the kernels whose lines match the grep -E pattern KERNELS)
# appended to $OUT/NAME_env.txt, so that the streams can be checked to be what their names say; then Nsight's
# METRICS (those this ncu knows) of every launch of `BIN ARGS` - each pair's warm-up, then its measured launch -
# into $OUT/NAME_ncu.csv.
sharing_profile() {
  local name=$1 bin=$2 kernels=$3 metrics=$4 keep
  shift 4
  cuobjdump -sass "$bin" 2>/dev/null | awk '/Function :/ {f=$3} /^ +\/\*[0-9a-f]+\*\// {op=$2; if (op ~ /^@/) op=$3; sub(/\..*/, "", op); n[f" "op]++}
    END {for (k in n) if (n[k] >= 8) print k, n[k]}' | sort | grep -E "$kernels" >> "$OUT/${name}_env.txt"
  keep=$(keep_known_metrics "$metrics" 2>> "$OUT/${name}_env.txt")
  ncu -k regex:sharing --metrics "$keep" --csv --page raw "$bin" "$@" > "/tmp/${name}_ncu.csv" 2>> "$OUT/${name}_env.txt"
  echo "ncu exit $?"
  grep '^"' "/tmp/${name}_ncu.csv" > "$OUT/${name}_ncu.csv"
  echo "ncu rows: $(wc -l < "$OUT/${name}_ncu.csv")"
}

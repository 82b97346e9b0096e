#!/usr/bin/env bash
# One device call: how many lines the L2 request coalescer merges at once (gms-lrc-ubench,
# validate/runner/lrc_capacity_ubench.cu): G groups of warps, each group reading its own 64 lines.
#   lrc_ubench.jsonl   time per (groups, stagger) (L2-resident lines, median of 20 launches)
#   lrc_ncu.csv        each case's second launch under ncu (lookups, deliveries, coalescer counters)
#   lrc_latency.jsonl  per case, each load's latency by clock64 (lane 0 of every warp): mean and histogram
#   lrc_env.txt        GPU, driver, clocks, ncu version, command, the build and its loads' SASS
# Then, on the workstation: validate/scripts/lrc_capacity.py DIR
set -uo pipefail
here=$(dirname "$0")
source "$here/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=/tmp/gms-lrc-ubench
device_build_env lrc device_lrc.sh validate/runner/lrc_capacity_ubench.cu "$BIN" "LDG|CS2R|Function"
"$BIN" > "$OUT/lrc_ubench.jsonl" 2>> "$OUT/lrc_env.txt"
echo "lrc ubench exit $?"; cat "$OUT/lrc_ubench.jsonl"
"$BIN" --latency > "$OUT/lrc_latency.jsonl" 2>> "$OUT/lrc_env.txt"
echo "lrc latency exit $?"; cat "$OUT/lrc_latency.jsonl"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum,lrc__xbar2gpc_sectors_op_read.sum,dram__bytes_read.sum
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/lrc_env.txt"
ncu --cache-control none --clock-control none --metrics "$keep" --csv --page raw "$BIN" --profile \
  > "$OUT/lrc_ncu.csv" 2>> "$OUT/lrc_env.txt"
echo "lrc ncu exit $?"

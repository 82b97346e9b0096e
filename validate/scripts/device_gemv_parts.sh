#!/usr/bin/env bash
# One device call: seed 001's GEMV taken apart (gms-gemv-parts-ubench, validate/runner/gemv_parts_ubench.cu):
#   gemv_parts.jsonl        per case of the `gemv` set and part (loads / compute / stores / full): kernel time, GB/s
#   gemv_parts_ncu.csv      the 1x8192x28672 cases' every warp-stall reason, issue and DRAM counters, each L2
#                           stage's utilisation, per part
#   gemv_parts.sm*.sass.xz  the SASS of every kernel (which loads each part kept)
#   gemv_parts_env.txt      GPU, driver, clocks, ncu version, command, the build, LDG counts per kernel
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-gemv-parts-ubench
device_env device_gemv_parts.sh validate/runner/gemv_parts_ubench.cu $bin > "$OUT/gemv_parts_env.txt" 2>&1
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
cuobjdump -sass $bin > /tmp/gemv_parts.sass 2>&1
{
  echo "# global loads (LDG) per kernel in the SASS"
  awk '/Function :/ {f=$3} /LDG/ {n[f]++} END {for (k in n) print n[k], k}' /tmp/gemv_parts.sass | sort -k2
} >> "$OUT/gemv_parts_env.txt"
xz -9 < /tmp/gemv_parts.sass > "$OUT/gemv_parts.sm${arch}.sass.xz"
$bin 20 > "$OUT/gemv_parts.jsonl" 2>> "$OUT/gemv_parts_env.txt"
echo "gemv parts exit $?"; cat "$OUT/gemv_parts.jsonl"
ncu --clock-control none --csv --page raw \
    --metrics "regex:^smsp__warp_issue_stalled_.*_per_warp_active.pct$,gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__waves_per_multiprocessor,lts__cycles_elapsed.max,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.avg.pct_of_peak_sustained_elapsed,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed" \
    $bin 0 large > "$OUT/gemv_parts_ncu.csv" 2>> "$OUT/gemv_parts_env.txt"
echo "ncu exit $?"; wc -l "$OUT/gemv_parts_ncu.csv"

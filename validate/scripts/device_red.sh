#!/usr/bin/env bash
# One device call: what a reduction atomic costs the L2, alone and beside a DRAM read stream
# (gms-red-ubench, validate/runner/red_ubench.cu):
#   red_ubench.jsonl   per row: op (red/store/none), y's spread, adding and reading warps, time, ops/ns, read TB/s
#   red_ncu.csv        the same rows once under Nsight Compute: L2 sectors by op, DRAM bytes, each L2 stage's
#                      utilisation (tag requests, data sectors, return path, xbar input) and the L2 clock
#   red_env.txt        GPU, driver, clocks, ncu version, command, the build, the SASS of the kernel's adds
# `device_red.sh hot`: the rows over 1, 8 and 112 blocks of y instead (red_hot_*: adds to lines that other
# adds are still in flight to, alone and beside the reads).
set -uo pipefail
# `device_red.sh queue`: one warp's load behind n reductions to one line (red_queue_*; no ncu pass).
mode=${1:-}
name=red
[ "$mode" = hot ] && name=red_hot
[ "$mode" = queue ] && name=red_queue
# `device_red.sh backlog`: another SM's loads while 1-131 SMs pile reductions on one line (red_backlog_*).
[ "$mode" = backlog ] && name=red_backlog
# `device_red.sh burst`: the hand-over of the GEMV's reductions, 1-32 one-warp CTAs per SM at once (red_burst_*).
[ "$mode" = burst ] && name=red_burst
# `device_red.sh slices`: how evenly the L2 slices take the reductions and stores - the rows of the plain and
# the hot runs once under Nsight Compute with each counter's sum, max, min and mean over the slices
# (red_slices_ncu.csv, red_slices_hot_ncu.csv; no timed run).
[ "$mode" = slices ] && name=red_slices
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-red-ubench
device_env "device_red.sh $mode" validate/runner/red_ubench.cu $bin > "$OUT/${name}_env.txt" 2>&1
{ echo "# SASS: the adds and stores"; cuobjdump -sass $bin | grep -E "RED|STG|ATOM|LDG" | sort | uniq -c; } >> "$OUT/${name}_env.txt" 2>&1
if [ "$mode" = slices ]; then
  per_slice=gpu__time_duration.sum,lts__t_sectors_srcunit_ltcfabric.sum
  for m in lts__t_sectors_op_red lts__t_requests_op_red lts__t_sectors_op_write lts__t_sectors_op_read; do
    per_slice=$per_slice,$m.sum,$m.max,$m.min,$m.avg
  done
  ncu --clock-control none --csv --page raw --metrics $per_slice $bin 1 > "$OUT/${name}_ncu.csv" 2>> "$OUT/${name}_env.txt"
  echo "ncu exit $?"
  ncu --clock-control none --csv --page raw --metrics $per_slice $bin 1 hot > "$OUT/${name}_hot_ncu.csv" 2>> "$OUT/${name}_env.txt"
  echo "ncu hot exit $?"; wc -l "$OUT/${name}"_*ncu.csv
  exit 0
fi
$bin 5 $mode > "$OUT/${name}_ubench.jsonl" 2>> "$OUT/${name}_env.txt"
echo "red ubench exit $?"; cat "$OUT/${name}_ubench.jsonl"
[ "$mode" = queue ] || [ "$mode" = backlog ] || [ "$mode" = burst ] && exit 0
ncu --clock-control none --csv --page raw \
    --metrics gpu__time_duration.sum,lts__t_sectors_op_red.sum,lts__t_requests_op_red.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.sum,lts__t_sectors_srcunit_ltcfabric.sum,sm__cycles_elapsed.max,lts__cycles_elapsed.max,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.avg.pct_of_peak_sustained_elapsed,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed \
    $bin 1 $mode > "$OUT/${name}_ncu.csv" 2>> "$OUT/${name}_env.txt"
echo "ncu exit $?"; wc -l "$OUT/${name}_ncu.csv"

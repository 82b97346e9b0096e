#!/usr/bin/env bash
# One device call: what the CUDA GEMV's atomics cost it, taken apart (issue 11). gms-gemv-parts-ubench
# `atomics` runs the 1x8192x28672 cases' stores and full kernels beside three that change only the
# atomics (validate/kernels/gemv_kernel.cuh): redspread (no sector added to twice by one CTA),
# redcoalesced (32 consecutive elements per instruction: an eighth of the requests and sector passes)
# redonce (only the first of each thread's 8 adds: an eighth of everything, same pattern) and
# redprivate (each K block of programs adds to a y of its own: no line shared between programs).
#   gemv_atomics.jsonl       per case and part: median / min kernel time of 20 launches
#   gemv_atomics_ncu.csv     the same kernels once under Nsight Compute: time, DRAM, each L2 stage, the
#                            reductions' sectors and requests, every warp-stall reason
#   gemv_atomics_env.txt     GPU, driver, clocks, ncu, the build, RED/ATOM/LDG counts per kernel
# `device_gemv_atomics.sh deep`: the stores and full kernels of a deep split instead, 1x131072x512 (1,024
# programs adding to each of y's 16 lines; gemv_deep_* files).
set -uo pipefail
mode=${1:-atomics}
name=gemv_atomics
[ "$mode" = deep ] && name=gemv_deep
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-gemv-parts-ubench
device_env "device_gemv_atomics.sh $mode" validate/runner/gemv_parts_ubench.cu $bin > "$OUT/${name}_env.txt" 2>&1
[ -x $bin ] || { echo "build failed"; cat "$OUT/${name}_env.txt"; exit 1; }
cuobjdump -sass $bin > /tmp/gemv_atomics.sass 2>&1
{
  echo "# RED / ATOM / LDG instructions per kernel in the SASS"
  awk '/Function :/ {f=$3} /REDG|RED\./ {r[f]++} /ATOM/ {a[f]++} /LDG/ {l[f]++} END {for (k in l) print "RED", r[k]+0, "ATOM", a[k]+0, "LDG", l[k], k}' /tmp/gemv_atomics.sass | sort -k7
} >> "$OUT/${name}_env.txt"
$bin 20 $mode > "$OUT/${name}.jsonl" 2>> "$OUT/${name}_env.txt"
echo "gemv $mode exit $?"; cat "$OUT/${name}.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
ncu --clock-control none --csv --page raw \
    --metrics "regex:^smsp__warp_issue_stalled_.*_per_warp_active.pct$,gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__cycles_elapsed.max,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.avg.pct_of_peak_sustained_elapsed,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__xbar2lts_cycles_active.max.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_red.sum,lts__t_requests_op_red.sum,lts__t_sectors_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum" \
    $bin 0 $mode > "$OUT/${name}_ncu.csv" 2>> "$OUT/${name}_env.txt"
echo "ncu exit $?"; wc -l "$OUT/${name}_ncu.csv"

#!/usr/bin/env bash
# One device call: the fixed cost of a kernel as the profiler times it (issue 11: launch.kernel_overhead
# is a fitted constant; this measures the part of it every kernel pays).
#   launch_ubench.jsonl  gms-cta-ubench, event-timed: back-to-back launches of empty grids
#   launch_ncu.csv       gms-cta-ubench --profile under ncu as the records were profiled (clocks left
#                        alone, caches flushed): each empty grid launched 6 times
#   launch_smem.jsonl    gms-cta-ubench --smem, event-timed: empty 128-thread CTAs holding 0..227 KiB of
#                        shared memory each (does a CTA's start or retire cost more with it?)
#   launch_env.txt       GPU, driver, clocks, ncu version, command, the build
# Then, on the workstation: validate/scripts/launch_cost.py DIR
set -uo pipefail
here=$(dirname "$0")
source "$here/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=/tmp/gms-cta-ubench
device_build_env launch device_launch.sh validate/runner/cta_ubench.cu "$BIN" "EXIT|STG"
"$BIN" > "$OUT/launch_ubench.jsonl" 2>> "$OUT/launch_env.txt"
echo "cta ubench exit $?"; head -3 "$OUT/launch_ubench.jsonl"
"$BIN" --smem > "$OUT/launch_smem.jsonl" 2>> "$OUT/launch_env.txt"
echo "cta ubench --smem exit $?"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,gpc__cycles_elapsed.max,sm__cycles_active.max
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/launch_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw "$BIN" --profile > "$OUT/launch_ncu.csv" 2>> "$OUT/launch_env.txt"
echo "launch ncu exit $?"
python3 "$here/launch_cost.py" "$OUT"

#!/usr/bin/env bash
# One device call: `gms-gpc-ubench contention` (validate/runner/gpc_ubench.cu) - each SM's share of a
# contended DRAM as the loads in flight per SM grow (1-8 per thread, 256-1,024 threads), then the SMs
# found ahead alone and the others alone:
#   gpc_contention_run.jsonl  per set and repetition, per SM its GB/s; the SMs ahead at x4
#   gpc_contention_ncu.csv    every stream launch under ncu: DRAM bytes, far sectors, duration
#   gpc_contention_env.txt    GPU, driver, clocks, ncu, command, the build, the stream loops' SASS
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
bin=/tmp/gms-gpc-ubench
device_ubench gpc_contention device_gpc_contention.sh validate/runner/gpc_ubench.cu $bin "LDG|S2UR|CS2R|BAR" contention
ncu --clock-control none --csv --print-units base -k regex:window_stream \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read.sum \
    "$bin" contention > "$OUT/gpc_contention_ncu.csv" 2>> "$OUT/gpc_contention_env.txt"
echo "ncu exit $?"

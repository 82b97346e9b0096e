#!/usr/bin/env bash
# One device call: `gms-fabric-ubench MAP mix` (validate/runner/fabric_ubench.cu) - do a partition's far
# read replies and the far write data sent into it share one link? Every 128-byte line classified by its
# home partition (the partition map measured first, gms-partition-ubench), then half a partition's SMs load
# far lines (data into partition 1), half of the other's store far lines (data into partition 1 too), alone
# and at once; the control loads into partition 0 beside the same stores. ncu counts each launch's far sectors.
# `device_fabric_mix.sh halfstores`: lines of half-written sectors stored near and far (whole ones beside
# them) - what a half sector costs the link.
#   fabric_MODE_partition.jsonl  gms-partition-ubench's output (MODE: mix or halfstores)
#   fabric_MODE_run.jsonl        the classification, then per set (and side) and repetition the GB/s
#   fabric_MODE_ncu.csv          every launch under ncu
#   fabric_MODE_env.txt          GPU, driver, clocks, ncu, command, builds, the loop's SASS, the map
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
mode=${1:-mix}
name=fabric_$mode
bin=/tmp/gms-fabric-ubench
device_build_env $name device_fabric_mix.sh validate/runner/fabric_ubench.cu $bin "LDG|STG|CS2R|S2UR|BAR"
device_partition_map $name
map=$PARTITION_MAP
"$bin" "$map" $mode | tee "$OUT/${name}_run.jsonl" | grep -v '"gbps"'
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
ncu --clock-control none --csv --print-units base -k regex:"list_walk|mode_walk" \
    --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_write.sum,lts__xbar2lts_cycles_active.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    "$bin" "$map" $mode > "$OUT/${name}_ncu.csv" 2>> "$OUT/${name}_env.txt"
echo "ncu exit $?"

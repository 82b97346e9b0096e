#!/usr/bin/env bash
# One device call: `gms-fabric-ubench MAP stores` (validate/runner/fabric_ubench.cu) - does a far store pass
# its home slice's crossbar input as well as the near slice's? Every 128-byte line classified by its home
# partition (the partition map measured first, gms-partition-ubench), then SMs store whole lines homed in
# their own partition (near) or the other (far), all SMs or one partition's; ncu counts each launch's
# crossbar-input cycles (lts__xbar2lts_cycles_active), written and reduced sectors and far sectors.
# `device_fabric_stores.sh reductions`: the same with RED.ADD (4 bytes at each lane's 16) instead of stores.
#   fabric_MODE_partition.jsonl  gms-partition-ubench's output (MODE: stores or reductions)
#   fabric_MODE_run.jsonl        the classification, then per set and repetition the SMs' GB/s
#   fabric_MODE_ncu.csv          every store (reduction) launch under ncu
#   fabric_MODE_env.txt          GPU, driver, clocks, ncu, command, builds, the loop's SASS, the map
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
mode=${1:-stores}
name=fabric_$mode
bin=/tmp/gms-fabric-ubench
device_build_env $name device_fabric_stores.sh validate/runner/fabric_ubench.cu $bin "STG|RED|CS2R|S2UR|BAR"
device_partition_map $name
map=$PARTITION_MAP
"$bin" "$map" $mode | tee "$OUT/${name}_run.jsonl" | grep -v '"gbps"'
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
ncu --clock-control none --csv --print-units base -k regex:list_walk \
    --metrics gpu__time_duration.sum,lts__xbar2lts_cycles_active.sum,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_op_red.sum,lts__t_sectors_srcunit_tex_op_red.sum,lts__cycles_elapsed.avg,dram__bytes_write.sum \
    "$bin" "$map" $mode > "$OUT/${name}_ncu.csv" 2>> "$OUT/${name}_env.txt"
echo "ncu exit $?"

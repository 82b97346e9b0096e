#!/usr/bin/env bash
# One device call: `gms-fabric-ubench MAP stores` (validate/runner/fabric_ubench.cu) - does a far store pass
# its home slice's crossbar input as well as the near slice's? Every 128-byte line classified by its home
# partition (the partition map measured first, gms-partition-ubench), then SMs store whole lines homed in
# their own partition (near) or the other (far), all SMs or one partition's; ncu counts each launch's
# crossbar-input cycles (lts__xbar2lts_cycles_active), written sectors and far sectors:
#   fabric_stores_partition.jsonl  gms-partition-ubench's output
#   fabric_stores_run.jsonl        the classification, then per set and repetition the SMs' GB/s
#   fabric_stores_ncu.csv          every store launch under ncu
#   fabric_stores_env.txt          GPU, driver, clocks, ncu, command, builds, the store loop's SASS, the map
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-fabric-ubench
device_build_env fabric_stores device_fabric_stores.sh validate/runner/fabric_ubench.cu $bin "STG|CS2R|S2UR|BAR"
device_partition_map fabric_stores
map=$PARTITION_MAP
"$bin" "$map" stores | tee "$OUT/fabric_stores_run.jsonl" | grep -v '"gbps"'
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fabric_stores_env.txt"
ncu --clock-control none --csv --print-units base -k regex:list_walk \
    --metrics gpu__time_duration.sum,lts__xbar2lts_cycles_active.sum,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__cycles_elapsed.avg,dram__bytes_write.sum \
    "$bin" "$map" stores > "$OUT/fabric_stores_ncu.csv" 2>> "$OUT/fabric_stores_env.txt"
echo "ncu exit $?"
grep -v '^{' "$OUT/fabric_stores_ncu.csv" | grep -E "xbar2lts_cycles_active.sum|op_write.sum|ltcfabric|duration" | cut -d, -f1,13,15 | head -40

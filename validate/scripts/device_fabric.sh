#!/usr/bin/env bash
# One device call: gms-fabric-ubench (validate/runner/fabric_ubench.cu) - what crosses between the L2's
# partitions when SMs of one partition, of both, or all SMs stream from DRAM lines homed anywhere, only
# in their own partition or only in the other; the partition each SM is near measured first in the same
# call (gms-partition-ubench; the floor plan differs between chips):
#   fabric_partition.jsonl  gms-partition-ubench's output, the map validate/scripts/partition_map.py reads
#   fabric_run.jsonl        the lines' home classification (latency histogram), then per set of SMs and
#                           repetition: total GB/s over the span, per SM GB/s, SM clock
#   fabric_ncu.csv          every launch under ncu: DRAM bytes, far sectors (srcunit_ltcfabric), duration
#   fabric_env.txt          GPU, driver, clocks, ncu, command, the builds, the stream loop's SASS, the map
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-fabric-ubench
device_build_env fabric device_fabric.sh validate/runner/fabric_ubench.cu $bin "LDG|CS2R|S2UR|BAR"
device_partition_map fabric
map=$PARTITION_MAP
"$bin" "$map" | tee "$OUT/fabric_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fabric_env.txt"
ncu --clock-control none --csv --print-units base -k 'regex:window_stream|list_walk' \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum \
    "$bin" "$map" > "$OUT/fabric_ncu.csv" 2>> "$OUT/fabric_env.txt"
echo "ncu exit $?"
grep '"homes"' "$OUT/fabric_run.jsonl"
python3 "$here/fabric_links.py" "$OUT"

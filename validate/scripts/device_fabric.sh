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
pbin=/tmp/gms-partition-ubench
bin=/tmp/gms-fabric-ubench
device_build_env fabric device_fabric.sh validate/runner/fabric_ubench.cu $bin "LDG|CS2R|S2UR|BAR"
nvcc -std=c++17 -O2 -gencode=arch=compute_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .),code=sm_$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .) \
  -o $pbin validate/runner/partition_ubench.cu >> "$OUT/fabric_env.txt" 2>&1 || { echo "partition build failed"; exit 1; }
for rep in 1 2; do $pbin | sed "s/^{/{\"rep\": $rep, /"; done > "$OUT/fabric_partition.jsonl" 2>> "$OUT/fabric_env.txt"
map=$(python3 "$here/partition_map.py" "$OUT/fabric_partition.jsonl") || { echo "no partition map"; exit 1; }
echo "partition map: $map" | tee -a "$OUT/fabric_env.txt"
"$bin" "$map" | tee "$OUT/fabric_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fabric_env.txt"
ncu --clock-control none --csv --print-units base -k 'regex:window_stream|list_stream' \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum \
    "$bin" "$map" > "$OUT/fabric_ncu.csv" 2>> "$OUT/fabric_env.txt"
echo "ncu exit $?"
python3 - "$OUT/fabric_run.jsonl" "$OUT/fabric_ncu.csv" <<'PY'
import csv, json, sys
runs = [r for r in (json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")) if "set" in r]
for l in open(sys.argv[1]):
    if "homes" in l: print(l.strip())
rows = [r for r in csv.reader(l for l in open(sys.argv[2]) if l.startswith('"'))]
head, rows = rows[0], rows[1:]
ids = {}
for r in rows:
    d = dict(zip(head, r))
    ids.setdefault(d["ID"], {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
launches = [ids[k] for k in sorted(ids, key=int)]
for run, m in zip(runs, launches):
    ns = m["gpu__time_duration.sum"]
    print(f'{run["set"]:>16} rep {run["rep"]}: span {run["total_gbps"]:7.1f} GB/s | ncu dram {m["dram__bytes_read.sum"] / ns:7.1f} GB/s,'
          f' fabric {m["lts__t_sectors_srcunit_ltcfabric.sum"] * 32 / ns:7.1f} GB/s,'
          f' fabric/dram {m["lts__t_sectors_srcunit_ltcfabric.sum"] * 32 / max(m["dram__bytes_read.sum"], 1):.2f}')
PY

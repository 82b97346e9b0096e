#!/usr/bin/env bash
# Turns validate/access/patterns.txt into the lane lists the GPU replays (validate/access/lanes/*.csv)
# and their manifest, using the simulator's own CuTe partitioning. The lane lists are committed so
# the device machine needs no simulator build; a test checks they are current.
#   validate/scripts/make_access_lanes.sh [build/gpumemsim]
set -euo pipefail
cd "$(dirname "$0")/../access"
bin=${1:-../../build/gpumemsim}
[[ $bin = /* ]] || bin=$PWD/$bin
mkdir -p lanes
echo "name,space,op,width_bytes,threads,ldsm_matrices,lanes_csv" > manifest.csv.tmp
while IFS='|' read -r name args; do
  name=${name//[[:space:]]/}
  [[ -z $name || $name == \#* ]] && continue
  read -r -a argv <<< "$args"
  "$bin" access "${argv[@]}" --emit-lanes "lanes/$name.csv" --json - | python3 -c '
import json, sys
p = json.load(sys.stdin)["pattern"]
print(",".join([sys.argv[1], p["space"], p["op"], str(p["width_bytes"]), str(p["threads"]),
                p.get("ldmatrix", "x4")[1:], "lanes/" + sys.argv[1] + ".csv"]))' "$name" >> manifest.csv.tmp
done < patterns.txt
mv manifest.csv.tmp manifest.csv
echo "$(($(wc -l < manifest.csv) - 1)) patterns -> validate/access/manifest.csv"

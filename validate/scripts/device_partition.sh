#!/usr/bin/env bash
# One device call: which SMs share an L2 partition (gms-partition-ubench, validate/runner/partition_ubench.cu),
# the input the presets' l2.sm_partition_map estimates:
#   partition_ubench.jsonl   the probe SM's first-touch latencies (near / far homes), then per SM the
#                            median latency of 12 lines homed in the probe SM's partition
#   partition_env.txt        GPU, driver, clocks, ncu version, command, the build, and the chase loop's SASS
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-partition-ubench
device_env device_partition.sh validate/runner/partition_ubench.cu $bin > "$OUT/partition_env.txt" 2>&1
{ echo "# SASS of the chase loop (the clock read must follow the shared store of the loaded word)"
  cuobjdump -sass $bin | grep -E "LDG|CS2R|S2UR|STS|S2R" ; } >> "$OUT/partition_env.txt" 2>&1
for rep in 1 2; do $bin | sed "s/^{/{\"rep\": $rep, /"; done > "$OUT/partition_ubench.jsonl" 2>> "$OUT/partition_env.txt"
echo "partition ubench exit $?"; head -3 "$OUT/partition_ubench.jsonl"
python3 - "$OUT/partition_ubench.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for rep in (1, 2):
    sm = sorted((r["sm"], r["median_cycles"]) for r in rows if r.get("rep") == rep and "median_cycles" in r)
    print(f"rep {rep}:", " ".join(f"{s}:{'N' if c < 400 else 'F'}" for s, c in sm))
PY

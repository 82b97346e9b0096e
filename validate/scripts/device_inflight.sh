#!/usr/bin/env bash
# One device call: the line requests one SM keeps in flight to the L2 (gms-inflight-ubench,
# validate/runner/inflight_ubench.cu), the presets' `l1.mshrs`:
#   inflight_ubench.jsonl   per point: pattern (sector / line), source (l2 / dram), warps, loads per warp,
#                           lines in flight per SM, SM cycles per round, lines per cycle per SM
#   inflight_env.txt        GPU, driver, clocks, ncu version, command, the build, and the loads in flight
#                           of each kernel as compiled (validate/scripts/sass_loads_in_flight.py)
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
bin=/tmp/gms-inflight-ubench
device_env device_inflight.sh validate/runner/inflight_ubench.cu $bin > "$OUT/inflight_env.txt" 2>&1
cuobjdump -sass $bin > /tmp/inflight.sass 2>> "$OUT/inflight_env.txt"
{ echo "# SASS: LDG in flight per kernel (the loop body, branches not followed)"
  python3 "$here/sass_loads_in_flight.py" /tmp/inflight.sass --opcode LDG; } >> "$OUT/inflight_env.txt" 2>&1
xz -c /tmp/inflight.sass > "$OUT/inflight.sm90.sass.xz"
$bin > "$OUT/inflight_ubench.jsonl" 2>> "$OUT/inflight_env.txt"
echo "inflight ubench exit $?"; cat "$OUT/inflight_ubench.jsonl"

#!/usr/bin/env bash
# One device call: L2 hit latency under L2 load, and DRAM latency under DRAM load (gms-l2-load-ubench,
# validate/runner/l2_load_ubench.cu; `dram` mode).
#   l2_load_ubench.jsonl   per load level: L2 read TB/s achieved and the probe's cycles per hop
#   dram_load_ubench.jsonl per load level: DRAM read TB/s achieved and the probe's cycles per hop
#   l2_load_env.txt        GPU, driver, clocks, ncu version, command, the build
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
device_env device_l2_load.sh validate/runner/l2_load_ubench.cu /tmp/gms-l2-load-ubench > "$OUT/l2_load_env.txt" 2>&1
/tmp/gms-l2-load-ubench > "$OUT/l2_load_ubench.jsonl" 2>> "$OUT/l2_load_env.txt"
echo "l2 load ubench exit $?"; cat "$OUT/l2_load_ubench.jsonl"
/tmp/gms-l2-load-ubench dram > "$OUT/dram_load_ubench.jsonl" 2>> "$OUT/l2_load_env.txt"
echo "dram load ubench exit $?"; cat "$OUT/dram_load_ubench.jsonl"

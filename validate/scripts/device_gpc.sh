#!/usr/bin/env bash
# One device call: gms-gpc-ubench (validate/runner/gpc_ubench.cu) - each SM's L2 read bandwidth when
# all SMs, or only some, read at once (one CTA per SM, its own 128 KB window of an L2-resident buffer):
#   gpc_run.jsonl   per set of SMs and repetition, per SM its GB/s
#   gpc_env.txt     GPU, driver, clocks, ncu, command, the build, the stream loop's SASS
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
device_ubench gpc device_gpc.sh validate/runner/gpc_ubench.cu /tmp/gms-gpc-ubench "LDG|S2UR|CS2R|BAR"

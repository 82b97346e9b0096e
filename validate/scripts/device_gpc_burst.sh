#!/usr/bin/env bash
# One device call: `gms-gpc-ubench burst` (validate/runner/gpc_ubench.cu) - how the L2 shares bursts that SMs
# send at different times: every SM 64 KB from L2 in each of 24 rounds, the odd SMs 0-4,000 cycles after the
# even ones, and each half alone:
#   gpc_burst_run.jsonl  per set and repetition, per SM and round: the burst's start (globaltimer ns) and cycles
#   gpc_burst_env.txt    GPU, driver, clocks, ncu, command, the build, the burst loop's SASS
# Reader: validate/scripts/gpc_burst.py DIR.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
device_ubench gpc_burst device_gpc_burst.sh validate/runner/gpc_ubench.cu /tmp/gms-gpc-ubench "LDG|CS2R|BAR|GLOBALTIMER" burst

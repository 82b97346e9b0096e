#!/usr/bin/env bash
# One device call: gms-latency-lanes-ubench (validate/runner/latency_lanes_ubench.cu) - how long a warp waits for N
# DRAM misses in flight together (N unrelated lines, or N adjacent lines), against the slowest of N independent
# draws (validate/scripts/latency_lanes.py).
#   latency_lanes_run.jsonl   one line per layout and lane count, two runs
#   latency_lanes_env.txt     GPU, driver, clocks, ncu, command, the build, the kernel's LDG lines
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench_runs 2 latency_lanes device_latency_lanes.sh validate/runner/latency_lanes_ubench.cu \
  /tmp/gms-latency-lanes-ubench "Function|LDG|CS2R|BAR|WARPSYNC" latency_lanes_run.jsonl

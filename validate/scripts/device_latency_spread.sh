#!/usr/bin/env bash
# One device call: gms-latency-spread-ubench (validate/runner/latency_spread_ubench.cu) - the distribution of single
# loads' latencies (L2 hits and DRAM misses, under 0..131 CTAs of background reads), not only their mean.
#   latency_spread_run.jsonl   one line per working set and background, two runs
#   latency_spread_env.txt     GPU, driver, clocks, ncu, command, the build, the kernel's LDG lines
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench_runs 2 latency_spread device_latency_spread.sh validate/runner/latency_spread_ubench.cu \
  /tmp/gms-latency-spread-ubench "Function|LDG|CS2R" latency_spread_run.jsonl

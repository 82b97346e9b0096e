#!/usr/bin/env bash
# One device call: gms-dram-rows-ubench (validate/runner/dram_rows_ubench.cu) - does DRAM deliver less when each CTA
# reads short segments of many rows (the large Triton GEMV's W tiles: 64 rows x 512-1,024 bytes)?
#   dram_rows_run.jsonl   one line per segment size and tile order, two runs
#   dram_rows_env.txt     GPU, driver, clocks, ncu, command, the build, the kernel's LDG lines
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench_runs 2 dram_rows device_dram_rows.sh validate/runner/dram_rows_ubench.cu /tmp/gms-dram-rows-ubench "Function|LDG" dram_rows_run.jsonl

#!/usr/bin/env bash
# One device call: gms-evict-ubench (validate/runner/evict_ubench.cu) - does an evict-first load
# stream displace the L2's other (dirty) lines? Per flavour of the stream's loads (plain,
# L1::evict_first, L1::evict_last, L2::evict_first by cache hint): Nsight's DRAM writes of the stream
# (the dirty 8 MB it evicted) and DRAM reads of the probe that reads those 8 MB back after it.
#   evict_ncu.csv     ncu --cache-control none, kernels evict_stream* / evict_probe, in launch order
#   evict_env.txt     GPU, driver, clocks, ncu, command, the build, each kernel's LDG opcodes
set -uo pipefail
BIN=/tmp/gms-evict-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env evict device_evict.sh validate/runner/evict_ubench.cu "$BIN" "Function|LDG|CCTL"
"$BIN" | tee "$OUT/evict_run.jsonl"
ncu --cache-control none --kernel-name regex:'evict_stream|evict_probe' \
    --metrics dram__bytes_write.sum,dram__bytes_read.sum,gpu__time_duration.sum \
    --csv "$BIN" > "$OUT/evict_ncu.csv" 2> "$OUT/evict_ncu.log"
grep -E "evict_(stream|probe)" "$OUT/evict_ncu.csv" | sed 's/"//g' | awk -F, '{print $5, $(NF-2), $(NF-1), $NF}' | head -40
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/evict_env.txt"

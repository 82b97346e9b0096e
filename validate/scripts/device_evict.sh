#!/usr/bin/env bash
# One device call: gms-evict-ubench (validate/runner/evict_ubench.cu) - does an evict-first load
# stream displace the L2's other (dirty) lines? Per flavour of the stream's loads (plain,
# L1::evict_first, L1::evict_last, L2::evict_first by cache hint): Nsight's DRAM writes of the stream
# (the dirty 8 MB it evicted) and DRAM reads of the probe that reads those 8 MB back after it.
#   evict_ncu.csv     ncu --cache-control none, kernels evict_stream* / evict_probe, in launch order
#   evict_ncu_flush.csv  the same under ncu's default cache control (it flushes the caches before
#                     every kernel, as in the records' profiles): the evict-first streams of 16 MB to
#                     1 GB say whether a flushed L2 still has DRAM writes to make during the kernel
#   evict_ncu_gemv_metrics.csv  the streams under the GEMV records' own ncu command and metric list
#                     (several replay passes; the last stream adds into y like the GEMVs, so ncu
#                     saves and restores y between passes)
#   evict_env.txt     GPU, driver, clocks, ncu, command, the build, each kernel's LDG opcodes
set -uo pipefail
BIN=/tmp/gms-evict-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env evict device_evict.sh validate/runner/evict_ubench.cu "$BIN" "Function|LDG|CCTL"
"$BIN" | tee "$OUT/evict_run.jsonl"
ncu --cache-control none --kernel-name regex:'evict_stream|evict_probe' \
    --metrics dram__bytes_write.sum,dram__bytes_read.sum,gpu__time_duration.sum \
    --csv "$BIN" > "$OUT/evict_ncu.csv" 2> "$OUT/evict_ncu.log"
ncu --kernel-name regex:'evict_stream|evict_probe' \
    --metrics dram__bytes_write.sum,dram__bytes_read.sum,gpu__time_duration.sum \
    --csv "$BIN" > "$OUT/evict_ncu_flush.csv" 2> "$OUT/evict_ncu_flush.log"
source "$(dirname "$0")/ncu_metrics.sh"
keep=$(keep_known_metrics "$GEMV_RECORD_METRICS") 2>> "$OUT/evict_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:evict_stream \
    "$BIN" > "$OUT/evict_ncu_gemv_metrics.csv" 2> "$OUT/evict_ncu_gemv_metrics.log"
echo "ncu with the GEMV records' metrics: exit $?"
grep -E "evict_(stream|probe)" "$OUT/evict_ncu_flush.csv" | sed 's/"//g' | awk -F, '{print "flush:", $5, $(NF-2), $(NF-1), $NF}' | head -40
grep -E "evict_(stream|probe)" "$OUT/evict_ncu.csv" | sed 's/"//g' | awk -F, '{print $5, $(NF-2), $(NF-1), $NF}' | head -40
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/evict_env.txt"

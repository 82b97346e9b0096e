#!/usr/bin/env bash
# The sustained wgmma-class rate (cuBLAS fp16 8192^3): event timing, then one launch under ncu for
# its SM cycles and tensor-pipe activity. $OUT/tensor_rate.jsonl, $OUT/tensor_rate_ncu.csv
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
python3 validate/scripts/tensor_rate.py | tee "$OUT/tensor_rate.jsonl"
source "$(dirname "$0")/ncu_metrics.sh"
keep=$(keep_known_metrics "gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed_pipe_tensor_op_gmma.sum,smsp__inst_executed_pipe_tensor_op_hmma.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__registers_per_thread")
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:"gemm|sm90" -c 1 \
  python3 validate/scripts/tensor_rate.py --once > "$OUT/tensor_rate_ncu.csv" 2> /tmp/tr.log
echo "ncu exit $?"; tail -2 /tmp/tr.log

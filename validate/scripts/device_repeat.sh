#!/usr/bin/env bash
# One device call: how well does silicon rank its own kernels? The WMMA GEMM's CTA orders and the
# CUDA GEMV's variants (the groups whose Spearman issue 11 scores) are timed ROUNDS times over, case
# after case, both ways the records were measured: CUDA events (median of 20 launches: `measured`)
# and a single ncu profile with the clocks left alone (the time `compare` scores, `ncu.counters`).
# The spread of one kernel over rounds is the measurement's own noise; repeat_ranks.py turns it into
# the Spearman that silicon reaches against itself. `ladder` does the same for seed 002's nine rungs
# (gms-ladder, files ladder_*). Usage on the device machine, from the repository root:
#   validate/scripts/device_repeat.sh [ROUNDS] [records|ladder]   # results under $OUT (~2 min each on an H100)
set -uo pipefail
rounds=${1:-5}
what=${2:-records}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
# The environment lines (device_env.sh) and, for the spread, the memory clock and temperature at the start.
environment() {
  device_env "$@"
  nvidia-smi --query-gpu=clocks.mem,clocks.max.mem,temperature.gpu --format=csv
}
if [ "$what" = ladder ]; then
  LBIN=/tmp/gms-ladder
  environment "device_repeat.sh $rounds ladder" validate/runner/ladder_runner.cu "$LBIN" > "$OUT/ladder_env.txt"
  [ -x "$LBIN" ] || { echo "build failed"; cat "$OUT/ladder_env.txt"; exit 1; }
  "$LBIN" --rounds "$rounds" > "$OUT/ladder_rounds_events.jsonl" 2> "$OUT/ladder_run.log"
  echo "events exit $?" >> "$OUT/ladder_run.log"
  ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw -k regex:sgemm_ladder \
    "$LBIN" --profile --rounds "$rounds" > "$OUT/ladder_rounds_ncu.csv" 2>> "$OUT/ladder_run.log"
  echo "ncu exit $?" >> "$OUT/ladder_run.log"
  exit 0
fi
BIN=/tmp/gms-validate
environment "device_repeat.sh $rounds" validate/runner/runner_main.cu "$BIN" validate/runner/ubench_runner.cu \
  validate/runner/cases.cpp validate/runner/record.cpp > "$OUT/env.txt"
[ -x "$BIN" ] || { echo "build failed"; cat "$OUT/env.txt"; exit 1; }
# Clocks, temperature and power every 200 ms while both measurements run.
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader -lms 200 > "$OUT/smi.csv" &
smi=$!
mkdir -p /tmp/ev
"$BIN" --set gemm --set gemv --rounds "$rounds" --out /tmp/ev > "$OUT/run.log" 2>&1
echo "events exit $?" >> "$OUT/run.log"
cat /tmp/ev/gemm.jsonl /tmp/ev/gemv.jsonl > "$OUT/rounds_events.jsonl"
ncu --clock-control none --metrics gpu__time_duration.sum --csv --page raw -k regex:"gemm_fp16|gemv_splitk" \
  "$BIN" --profile --rounds "$rounds" --set gemm --set gemv --out /tmp > "$OUT/rounds_ncu.csv" 2> "$OUT/ncu.log"
echo "ncu exit $?" >> "$OUT/ncu.log"
kill "$smi"
xz -9 "$OUT/smi.csv"

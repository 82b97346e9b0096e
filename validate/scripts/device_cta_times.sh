#!/usr/bin/env bash
# One device call: gms-cta-times (validate/runner/cta_times.cu) - per CTA of the WMMA GEMM, its SM and
# its start/end (%globaltimer, clock64), three stamped runs per case, on five cases (8192^3 grouped-8,
# row-major, column-major; 16384x16384x2048 grouped-8, row-major).
#   cta_times.jsonl, <case>_run<r>.csv   the stamps and the plain vs stamped kernel times
#   cta_times_env.txt                    GPU, driver, clocks, nvcc, command, the build
# Then, on the workstation: validate/scripts/cta_spread.py DIR [--model-dir RUNS]
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
BIN=$CTA_TIMES_BIN
device_build_cta_times device_cta_times.sh "$OUT/cta_times_env.txt"
"$BIN" --out "$OUT" 2>&1 | tee "$OUT/cta_times_run.log"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/cta_times_env.txt"

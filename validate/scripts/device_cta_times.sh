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
BIN=/tmp/gms-cta-times
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,memory.total,temperature.gpu --format=csv
  nvcc --version | tail -2
  echo "command: validate/scripts/device_cta_times.sh; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch}"
  nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -o "$BIN" \
    validate/runner/cta_times.cu validate/runner/cases.cpp validate/runner/record.cpp 2>&1
} > "$OUT/cta_times_env.txt" 2>&1
[ -x "$BIN" ] || { echo "build failed"; cat "$OUT/cta_times_env.txt"; exit 1; }
"$BIN" --out "$OUT" 2>&1 | tee "$OUT/cta_times_run.log"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/cta_times_env.txt"

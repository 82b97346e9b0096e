#!/usr/bin/env bash
# One device call for the issue model: the SASS (with control codes) of every kernel this project
# measures, and per-instruction warp-state samples of the WMMA GEMM, the seed-002 ladder and Triton's GEMM.
#   sass_env.txt              GPU, driver, ncu, nvcc, command, the builds
#   sass.tar.gz               gms-validate.sm90.sass, gms-ladder.sm90.sass, triton_gemm_*.sm90.{sass,ptx}
#                             (cuobjdump -sass: each instruction's second 64-bit word carries its stall
#                             count); {wmma,ladder,triton}_source.csv (ncu --page source: per SASS
#                             instruction, its executed count and stall samples by reason) and
#                             *_src_raw.csv (their kernel-level counters): the WMMA GEMM's pad cases,
#                             the seed-002 ladder's rungs, the Triton GEMM's tilings
# Then, on the workstation: gpumemsim issue FILE.sass (docs/issue-model.md).
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
W=/tmp/gms-sass
mkdir -p "$W"
source "$(dirname "$0")/device_env.sh"
{
  device_env device_sass.sh validate/runner/runner_main.cu "$W/gms-validate" validate/runner/ubench_runner.cu \
    validate/runner/cases.cpp validate/runner/record.cpp
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -o "$W/gms-ladder" validate/runner/ladder_runner.cu 2>&1
  nvcc --version | tail -1
} > "$OUT/sass_env.txt" 2>&1
[ -x "$W/gms-validate" ] || { echo "build failed"; cat "$OUT/sass_env.txt"; exit 1; }
cuobjdump -sass "$W/gms-validate" > "$W/gms-validate.sm90.sass"
cuobjdump -sass "$W/gms-ladder" > "$W/gms-ladder.sm90.sass"
python3 validate/scripts/triton_gemm_asm.py "$W" >> "$OUT/sass_env.txt" 2>&1
# profile NAME KERNEL_REGEX [NCU OPTIONS --] COMMAND...: per-instruction counts and stall samples
# (source page) and the kernel-level counters (raw page) of the matching launches.
profile() {
  local name=$1 regex=$2
  shift 2
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  ncu --clock-control none --section SourceCounters --section WarpStateStats -k "regex:$regex" "${opts[@]}" \
    -o "$W/${name}_src" -f "$@" >> "$OUT/sass_env.txt" 2>&1
  echo "$name: ncu exit $?" >> "$OUT/sass_env.txt"
  ncu -i "$W/${name}_src.ncu-rep" --page source --csv --print-source sass > "$W/${name}_source.csv" 2>> "$OUT/sass_env.txt"
  echo "$name: source page exit $? ($(wc -l < "$W/${name}_source.csv") lines)" >> "$OUT/sass_env.txt"
  ncu -i "$W/${name}_src.ncu-rep" --page raw --csv > "$W/${name}_src_raw.csv" 2>> "$OUT/sass_env.txt"
}
# gemm_pad runs pads 0, 8, 16 on three cases each: launches 0-6 are every pad-0 and pad-8 case and
# 8192^3 grouped-8 at pad 16.
profile wmma gemm_fp16 --launch-count 7 -- "$W/gms-validate" --set gemm_pad --profile --out /tmp
profile ladder sgemm_ladder -- "$W/gms-ladder" --size 4096 --profile
profile triton matmul -- python3 validate/scripts/triton_gemm_asm.py "$W/tasm"
(cd "$W" && tar czf "$OUT/sass.tar.gz" ./*.sass ./*.ptx ./*_source.csv ./*_src_raw.csv)
ls -la "$W" >> "$OUT/sass_env.txt"

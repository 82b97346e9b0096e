#!/usr/bin/env bash
# One device call for the SM data-path microbenchmarks (shared-memory latency and bandwidth,
# sustained FFMA rate, shared-load instruction rates): $OUT/smem_ubench.jsonl and $OUT/smem_env.txt,
# plus the SASS of every kernel ($OUT/smem_ubench.sm*.sass) and Nsight's wavefront and conflict counts
# of the conflicted patterns ($OUT/smem_ncu.csv).
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,power.limit --format=csv
  echo "command: validate/scripts/device_smem.sh; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch}"
  nvcc -std=c++17 -O2 -gencode=arch=compute_${arch},code=sm_${arch} -o /tmp/gms-smem-ubench validate/runner/smem_ubench.cu 2>&1
  echo "# SASS of the shared-memory chase loop"
  cuobjdump -sass -fun smem_chase /tmp/gms-smem-ubench 2>/dev/null | grep -E "LDS|IMAD|LEA|SHF|BRA" | head -20
} > "$OUT/smem_env.txt" 2>&1
cuobjdump -sass /tmp/gms-smem-ubench > "$OUT/smem_ubench.sm${arch}.sass" 2>&1
/tmp/gms-smem-ubench | tee "$OUT/smem_ubench.jsonl"
# The conflicted patterns' wavefronts and conflicts as Nsight counts them (one profile of the same binary).
ncu --kernel-name regex:'lds_conflict|ldsm_pitch' \
    --metrics smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
    --csv /tmp/gms-smem-ubench > "$OUT/smem_ncu.csv" 2> "$OUT/smem_ncu.log"

#!/usr/bin/env bash
# One device call for the access patterns: build the lane-list replay kernel for the GPU at hand,
# check every pattern (the values each lane loads or stores), keep the SASS of the replay kernels,
# and count each pattern under Nsight Compute. Everything lands in $OUT:
#   env.txt, access_manifest.csv, access_check.log (+ ncu's log), access_sass.txt, access_ncu.csv (raw, one row per
#   pattern, in the order of access_manifest.csv)
# Usage on the device machine, from the repository root: validate/scripts/device_access.sh
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
BIN=/tmp/gms-access-replay
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -o "$BIN" validate/runner/access_replay.cu \
  || { echo "build failed"; exit 1; }
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,memory.total,temperature.gpu --format=csv
  nvcc --version | tail -2
  ncu --version | tail -1
  echo "command: validate/scripts/device_access.sh; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch} validate/runner/access_replay.cu"
} > "$OUT/env.txt" 2>&1
cp validate/access/manifest.csv "$OUT/access_manifest.csv"  # the launch order the ncu rows follow
cuobjdump -sass "$BIN" | grep -E "Function|LDS|STS|LDG|STG|LDSM" > "$OUT/access_sass.txt" 2>&1
"$BIN" validate/access/manifest.csv 2>&1 | tee "$OUT/access_check.log"
metrics=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
ncu --clock-control none --metrics "$metrics" --csv --page raw -k regex:access_replay \
  "$BIN" validate/access/manifest.csv > "$OUT/access_ncu.csv" 2> /tmp/access_ncu.log
echo "ncu exit $?" >> /tmp/access_ncu.log
cat /tmp/access_ncu.log >> "$OUT/access_check.log"
tail -3 /tmp/access_ncu.log

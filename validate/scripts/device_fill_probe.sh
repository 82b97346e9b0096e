#!/usr/bin/env bash
# One device call (seconds): gms-fill-ubench --probes (validate/runner/fill_ubench.cu) - one warp's
# cp.async latency, waited for at once, beside ldmatrix readers of 16 / 4 / 8 wavefronts (pitches 64 /
# 80 / 96) on every sub-partition, one reader per sub-partition, only on the copier's sub-partition, or
# only on the other three: which queue a copy waits in to enter the LSU, and how deep it is.
#   fill_probe_run.jsonl       one line per pitch and reader set
#   fill_probe_grid_run.jsonl  --probe-grid: one line per pitch, depth and reader set
#   fill_probe_grid_ncu.txt    Nsight: the grid readers' LDSM count (16 readers, pitch 64, 8 and 2 in flight)
#   fill_probe_env.txt    GPU, driver, clocks, command, the build, the kernels' LDSM/LDGSTS opcodes
set -uo pipefail
BIN=/tmp/gms-fill-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env fill_probe device_fill_probe.sh validate/runner/fill_ubench.cu "$BIN" "Function|LDSM|LDGSTS|LDGDEPBAR|DEPBAR"
"$BIN" --probes | tee "$OUT/fill_probe_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fill_probe_env.txt"
# The copy's wait against the readers' number, place and depth in flight (gms-fill-ubench --probe-grid).
"$BIN" --probe-grid | tee "$OUT/fill_probe_grid_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fill_probe_env.txt"
# The grid's readers issue every load they are meant to (ptxas merges none): Nsight's LDSM count and
# wavefronts for its 16-reader launches at pitch 64 (8 and 2 in flight: launches 36 and 116).
for skip in 35 115; do
  ncu --kernel-name regex:fill_probe --launch-skip $skip --launch-count 1 \
      --metrics smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__cycles_elapsed.max \
      "$BIN" --probe-grid 2>&1 | grep -v '^{'
done > "$OUT/fill_probe_grid_ncu.txt"

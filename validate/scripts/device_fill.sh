#!/usr/bin/env bash
# One device call: gms-fill-ubench (validate/runner/fill_ubench.cu) - what a cp.async's write into
# shared memory costs the SM's shared-memory data path, against ldmatrix readers that keep it busy.
#   fill_run.jsonl   the sweep: reader / copier cycles per SM for 0, 4096 and 8192 LDGSTS per SM;
#                    contiguous copies beside 16- and 4-wavefront ldmatrix, .cg (from L2) and .ca (from
#                    L1); the WMMA GEMM's padded A and B copies beside its ldmatrix at pads 0, 8, 16;
#                    copies that miss to DRAM (cg_dram); one warp's copy latency with and without readers
#   fill_ncu.csv     ncu of each kernel once at the largest point: instructions, shared wavefronts by
#                    operation, bank conflicts, cycles
#   fill_metrics.txt the shared-memory and LDGSTS metric names this ncu offers for the GPU
#   fill_env.txt     GPU, driver, clocks, ncu, command, the build, the kernels' LDSM/LDGSTS opcodes
set -uo pipefail
BIN=/tmp/gms-fill-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env fill device_fill.sh validate/runner/fill_ubench.cu "$BIN" "Function|LDSM|LDGSTS|LDGDEPBAR|DEPBAR"
"$BIN" | tee "$OUT/fill_run.jsonl"
ncu --query-metrics 2>/dev/null | grep -iE "ldgsts|wavefronts_mem_shared|data_pipe_lsu_wavefronts|mem_shared_op" > "$OUT/fill_metrics.txt"
ncu --kernel-name regex:fill_mix --launch-skip 1 \
    --metrics smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum,sm__cycles_elapsed.max,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
    --csv "$BIN" --once > "$OUT/fill_ncu.csv" 2> "$OUT/fill_ncu.log"
grep -c fill_mix "$OUT/fill_ncu.csv"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/fill_env.txt"

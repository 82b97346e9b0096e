#!/usr/bin/env bash
# One device call: gms-mio-ubench (validate/runner/mio_ubench.cu) - how many shared-memory
# instructions a sub-partition holds before its warps stall in mio_throttle.
#   mio_run.jsonl  per conflict degree, layout and timed warp: the clock after each of 64 LDS, the knee
#   mio_ncu.csv    every launch once under ncu: shared-load instructions, wavefronts and bank conflicts
#                  (what each conflict degree really is), the LSU pipe's and shuffles' counts where ncu has them
#   mio_metrics.txt what this ncu names with shfl / mio / pipe_lsu
#   mio_env.txt    GPU, driver, clocks, ncu, command, the build, the timed loop's SASS
#   mio_ubench.sm90.sass.xz  the binary's whole SASS (cuobjdump -sass), every kernel
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench mio device_mio.sh validate/runner/mio_ubench.cu /tmp/gms-mio-ubench "Function|LDS|S2R|SHFL|STS|BAR"
cuobjdump -sass /tmp/gms-mio-ubench 2>/dev/null | xz -9 > "$OUT/mio_ubench.sm90.sass.xz"
source "$(dirname "$0")/ncu_metrics.sh"
ncu --query-metrics 2>&1 | grep -iE "shfl|mio|lsu_wavefronts|pipe_lsu" > "$OUT/mio_metrics.txt"
keep=$(keep_known_metrics smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed_pipe_lsu.sum,smsp__sass_inst_executed_op_shfl.sum,smsp__inst_executed_op_shfl.sum,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct) 2>> "$OUT/mio_env.txt"
ncu --metrics "$keep" --csv --page raw /tmp/gms-mio-ubench > "$OUT/mio_ncu.csv" 2>> "$OUT/mio_env.txt"
echo "mio ncu exit $?" | tee -a "$OUT/mio_env.txt"

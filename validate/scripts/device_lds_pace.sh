#!/usr/bin/env bash
# One device call: gms-lds-pace-ubench (validate/runner/lds_pace_ubench.cu) - the pace at which the shared-memory data
# path serves one warp's independent loads, by kind (LDS.32 1-32 ways, LDS.64, LDS.128, ldmatrix.x4), alone and beside
# other warps.
#   lds_pace_run.jsonl     per kind and layout: a warp's and the SM's cycles per load
#   lds_pace_ncu.csv       each kind once (warp 0, one round) under ncu: shared-load instructions, wavefronts, conflicts
#   lds_pace_env.txt       GPU, driver, clocks, ncu, command, the build, the loads' SASS lines
#   lds_pace.sm90.sass.xz  the binary's whole SASS (cuobjdump -sass)
# Read with validate/scripts/lds_pace.py validate/results/<gpu>/lds_pace.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
bin=/tmp/gms-lds-pace-ubench
device_ubench lds_pace device_lds_pace.sh validate/runner/lds_pace_ubench.cu $bin "Function|LDS|LDSM|CS2R"
ncu --csv --metrics smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
  $bin --ncu-once > "$OUT/lds_pace_ncu.csv" 2>> "$OUT/lds_pace_env.txt"
cuobjdump -sass $bin 2>/dev/null | xz -9 > "$OUT/lds_pace.sm90.sass.xz"

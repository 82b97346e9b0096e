#!/usr/bin/env bash
# One device call: Triton's spilling GEMM tilings (128x256x32, 4 warps, 3 and 4 stages: 255 registers
# and 174-180 spill slots a thread, the tilings `recommend` leaves out) as records with their local
# traffic, for the GEMM's spill model (issue 11 / recommend):
#   gemm_spill.jsonl       triton_gemm_records.py on 2 shapes x 2 tilings, GROUP_SIZE_M 8
#   gemm_spill_ncu.csv     the same cases once each under ncu (merge_ncu.py joins them into records)
#   gemm_spill_sass.tgz    cuobjdump -sass of each tiling's cubin (the loop's STL/LDL)
#   gemm_spill_env.txt     GPU, driver, clocks, ncu/Triton/PyTorch versions, command
# Then, on the workstation: merge_ncu.py --records gemm_spill.jsonl --ncu gemm_spill_ncu.csv --out validate/results/<gpu>
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
source "$here/ncu_metrics.sh"
cases=(--tilings 128x256x32w4s3,128x256x32w4s4 --shapes 4096x4096x4096,2048x2048x2048 --groups 8)
device_env_lines device_gemm_spill.sh > "$OUT/gemm_spill_env.txt" 2>&1
python3 "$here/triton_gemm_records.py" --jsonl "$OUT/gemm_spill.jsonl" --sass /tmp/gemm_spill_sass "${cases[@]}" \
  2>> "$OUT/gemm_spill_env.txt"
echo "triton records exit $?"
tar czf "$OUT/gemm_spill_sass.tgz" -C /tmp gemm_spill_sass
metrics=$GEMV_RECORD_METRICS,launch__shared_mem_per_block_dynamic,smsp__inst_executed_pipe_tensor_op_gmma.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/gemm_spill_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:matmul \
  python3 "$here/triton_gemm_records.py" --profile "${cases[@]}" > "$OUT/gemm_spill_ncu.csv" 2>> "$OUT/gemm_spill_env.txt"
echo "ncu exit $?"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/gemm_spill_env.txt"

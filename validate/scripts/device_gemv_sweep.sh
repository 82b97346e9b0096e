#!/usr/bin/env bash
# One device call for issue 11's GEMV sweep and the per-CTA cost:
#   cta_ubench.jsonl   gms-cta-ubench: empty CTAs, 1..512 per SM, 32..1024 threads (per-CTA fixed cost)
#   triton_gemv.jsonl  triton_gemv_records.py: seed 001's GEMV at 14 block/warp configs x 2 orders x 2 shapes
#   gemv_sass/         the SASS of every compiled config (RED vs ATOM, spills)
#   triton_gemv_ncu.csv  the same cases once each under ncu (merge_ncu.py joins them into records)
#   gemv_sweep_env.txt GPU, driver, clocks, ncu/Triton/PyTorch versions, command
# Then, on the workstation:
#   merge_ncu.py --records triton_gemv.jsonl --ncu triton_gemv_ncu.csv --out validate/results/<gpu> \
#                --dir triton_gemv --command validate/scripts/device_gemv_sweep.sh
#   triton_gemv_records.py --finish validate/results/<gpu>/triton_gemv   # compiler/profile facts -> workload
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
device_env device_gemv_sweep.sh validate/runner/cta_ubench.cu /tmp/gms-cta-ubench > "$OUT/gemv_sweep_env.txt" 2>&1
/tmp/gms-cta-ubench > "$OUT/cta_ubench.jsonl" 2>> "$OUT/gemv_sweep_env.txt"
echo "cta ubench exit $?"; cat "$OUT/cta_ubench.jsonl"
python3 "$here/triton_gemv_records.py" --jsonl "$OUT/triton_gemv.jsonl" --sass "$OUT/gemv_sass" 2>> "$OUT/gemv_sweep_env.txt"
echo "triton gemv records exit $?"
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$GEMV_RECORD_METRICS") 2>> "$OUT/gemv_sweep_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemv_revsplitk python3 "$here/triton_gemv_records.py" --profile \
  > "$OUT/triton_gemv_ncu.csv" 2>> "$OUT/gemv_sweep_env.txt"
echo "triton gemv ncu exit $?"

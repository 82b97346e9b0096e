#!/usr/bin/env bash
# One device call: triton_gemv_start_wait.py - how long seed 001's Triton GEMV's new programs wait for their first
# S2R, first wave and later programs, on the records' cases its --only REGEX picks - and the stamped kernel's SASS.
#   triton_gemv_start_wait.jsonl      per case: plain / stamped medians, registers, per run the waits' quantiles
#   triton_gemv_start_wait.tar.gz     <case>_run<r>.csv.gz (cta,sm,clk_entry,clk_s2r,clk_end)
#   triton_gemv_start_wait_env.txt    GPU, driver, clocks, Triton/PyTorch versions, command
set -uo pipefail
here=$(dirname "$0")
. "$here/device_env.sh"
tmp=$(mktemp -d)
device_env_lines "device_triton_gemv_start_wait.sh $*" > "$OUT/triton_gemv_start_wait_env.txt" 2>&1
PYTHONUNBUFFERED=1 TRITON_CACHE_DIR="$tmp/cache" python3 "$here/triton_gemv_start_wait.py" --out "$tmp/out" "$@" \
  2>> "$OUT/triton_gemv_start_wait_env.txt"
echo "triton_gemv_start_wait exit $?"
mv "$tmp/out/triton_gemv_start_wait.jsonl" "$OUT/" 2>/dev/null
# The stamped kernel's SASS around its entry (is the clock read guarded by the S2R's result?)
sass=$(find "$tmp/cache" -name 'gemv_revsplitk_start_stamped*.cubin' | head -1)
[ -n "$sass" ] && cuobjdump -sass "$sass" | grep -E "S2R|S2UR|CS2R|CLOCK|ISETP|@P" | head -30 >> "$OUT/triton_gemv_start_wait_env.txt"
tar czf "$OUT/triton_gemv_start_wait.tar.gz" -C "$tmp/out" .
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/triton_gemv_start_wait_env.txt"

#!/usr/bin/env bash
# One device call: triton_gemv_cta_times.py - per program of the Triton GEMV (the records' shapes,
# configurations and orders; --only REGEX picks some), its SM and its start/end (%globaltimer, clock64),
# three stamped runs per case.
#   triton_gemv_cta_times.jsonl      plain vs stamped medians per case
#   triton_gemv_cta_times.tar.gz     <case>_run<r>.csv.gz (the device returns at most 8 files)
#   triton_gemv_cta_times_env.txt    GPU, driver, clocks, Triton/PyTorch versions, command
# Then, on the workstation: validate/scripts/triton_gemv_waves.py DIR [--model CASE=RUN_DIR]
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
tmp=$(mktemp -d)
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,power.limit --format=csv
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "command: validate/scripts/device_triton_gemv_cta_times.sh $*"
} > "$OUT/triton_gemv_cta_times_env.txt" 2>&1
PYTHONUNBUFFERED=1 python3 "$here/triton_gemv_cta_times.py" --out "$tmp" "$@" 2>> "$OUT/triton_gemv_cta_times_env.txt"
echo "triton_gemv_cta_times exit $?"
mv "$tmp/triton_gemv_cta_times.jsonl" "$OUT/" 2>/dev/null
tar czf "$OUT/triton_gemv_cta_times.tar.gz" -C "$tmp" .
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/triton_gemv_cta_times_env.txt"

#!/usr/bin/env bash
# One device call: triton_cta_times.py - per CTA of the Triton GEMM (the records' tilings, shapes and
# orders), its SM and its start/end (%globaltimer, clock64), three stamped runs per case; with --gemv first,
# triton_gemv_cta_times.py - the same per program of seed 001's Triton GEMV (the records' shapes, configurations
# and orders; its --only REGEX picks some) - into triton_gemv_cta_times.*.
#   triton_cta_times.jsonl           plain vs stamped medians per case
#   triton_cta_times.tar.gz          <case>_run<r>.csv.gz (the device returns at most 8 files)
#   triton_cta_times_env.txt         GPU, driver, clocks, Triton/PyTorch versions, command
# Then, on the workstation: validate/scripts/cta_spread.py DIR [--model CASE=RUN_DIR] (the GEMV's:
# validate/scripts/triton_gemv_waves.py DIR [--model CASE=RUN_DIR])
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
name=triton_cta_times
if [ "${1:-}" = --gemv ]; then
  name=triton_gemv_cta_times
  shift
fi
tmp=$(mktemp -d)
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,power.limit --format=csv
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "command: validate/scripts/device_triton_cta_times.sh ${name/triton_gemv_cta_times/--gemv }$*"
} > "$OUT/${name}_env.txt" 2>&1
PYTHONUNBUFFERED=1 python3 "$here/$name.py" --out "$tmp" "$@" 2>> "$OUT/${name}_env.txt"
echo "$name exit $?"
mv "$tmp/$name.jsonl" "$OUT/" 2>/dev/null
tar czf "$OUT/$name.tar.gz" -C "$tmp" .
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"

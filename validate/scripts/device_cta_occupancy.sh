#!/usr/bin/env bash
# One device call: gms-cta-times (validate/runner/cta_times.cu) twice, back to back on one GPU - the WMMA
# GEMM's phase stamps with its usual two CTAs per SM and with one (dynamic shared memory that lets one
# CTA fit an SM; same kernel, same code) - to split the K step's time into what one warp per
# sub-partition takes alone and what the other CTA's warps beside it add.
#   cta_occupancy.tar.gz   two/ and one/: each cta_times.jsonl (kernel times, the CTAs per SM the driver
#                          places), <case>_run<r>.csv (per-CTA stamps) and cta_times_run.log
#   cta_occupancy_env.txt  GPU, driver, clocks, nvcc, command, the build
# Then, on the workstation: tar xzf it and validate/scripts/cta_phases.py DIR/two, DIR/one
# [--model CASE=RUN_DIR] (model runs with --set gpu.sm.max_ctas=1 for one).
set -uo pipefail
WORK=$(mktemp -d)
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=$CTA_TIMES_BIN
device_build_cta_times device_cta_occupancy.sh "$OUT/cta_occupancy_env.txt"
for n in two:2 one:1; do
  dir=$WORK/${n%%:*}
  mkdir -p "$dir"
  "$BIN" --out "$dir" --ctas-per-sm "${n##*:}" 2>&1 | tee "$dir/cta_times_run.log"
  gzip -9 "$dir"/*.csv
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/cta_occupancy_env.txt"
tar czf "$OUT/cta_occupancy.tar.gz" -C "$WORK" two one

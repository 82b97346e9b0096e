#!/usr/bin/env bash
# One device call: device_cta_occupancy.sh and device_cta_occupancy_ncu.sh for the WMMA GEMM's other two
# shared-memory pads (0 and 16; the padding records' three cases: 8192^3 grouped-8 and column-major,
# 16384x16384x2048 grouped-8) - phase stamps with two CTAs per SM and with one, and each mode's warp states
# and source page on 8192^3 grouped-8.
#   cta_occupancy_pad<P>.tar.gz   two/ and one/ as device_cta_occupancy.sh writes them
#   cta_occupancy_pad<P>_ncu.csv  both launches' raw counters (two CTAs per SM first)
#   cta_occupancy_pad<P>_source.csv.xz  both launches' source pages
#   cta_occupancy_pads_env.txt    GPU, driver, clocks, ncu, nvcc, command, the build
set -uo pipefail
WORK=$(mktemp -d)
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
ENV=$OUT/cta_occupancy_pads_env.txt
BIN=$CTA_TIMES_BIN
device_build_cta_times device_cta_occupancy_pads.sh "$ENV"
for pad in 0 16; do
  for n in two:2 one:1; do
    dir=$WORK/pad$pad/${n%%:*}
    mkdir -p "$dir"
    "$BIN" --out "$dir" --pad $pad --ctas-per-sm "${n##*:}" 2>&1 | tee "$dir/cta_times_run.log"
    gzip -9 "$dir"/*.csv
  done
  tar czf "$OUT/cta_occupancy_pad$pad.tar.gz" -C "$WORK/pad$pad" two one
  for n in 2 1; do
    ncu_first_gemm_launch --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
        --section ComputeWorkloadAnalysis --section SourceCounters --export "$WORK/p${pad}_$n.ncu-rep" \
        -- --out "$WORK" --pad $pad --ctas-per-sm $n > /dev/null 2>> "$ENV"
    ncu --import "$WORK/p${pad}_$n.ncu-rep" --page raw --csv > "$WORK/raw_$n.csv" 2>> "$ENV"
    ncu --import "$WORK/p${pad}_$n.ncu-rep" --page source --csv --print-source sass > "$WORK/src_$n.csv" 2>> "$ENV"
  done
  { grep '^"' "$WORK/raw_2.csv"; grep '^"' "$WORK/raw_1.csv" | tail -n +3; } > "$OUT/cta_occupancy_pad${pad}_ncu.csv"
  cat "$WORK/src_2.csv" "$WORK/src_1.csv" | xz -9 > "$OUT/cta_occupancy_pad${pad}_source.csv.xz"
  echo "pad $pad: $(wc -l < "$OUT/cta_occupancy_pad${pad}_ncu.csv") raw rows"
done
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$ENV"

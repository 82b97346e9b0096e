#!/usr/bin/env bash
# One device call: Nsight Compute's per-instruction warp states of the WMMA GEMM (pad 8, two CTAs per SM) in
# three CTA orders of 8192^3 - grouped-8, row-major, column-major (gms-cta-times --case 0|1|2, each case's first
# plain launch): where silicon's warps wait on their copies, and how much longer in the orders that read more
# from DRAM (docs/sm-sharing.md).
#   cta_order_ncu.csv          the three launches' counters (--page raw --csv; WarpStateStats, MemoryWorkloadAnalysis)
#   cta_order_source.csv.xz    their source pages with SASS (SourceCounters, WarpStateStats), in that order
#   cta_order_env.txt          GPU, driver, clocks, ncu, nvcc, command, the build
set -uo pipefail
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
device_build_cta_times device_cta_order_ncu.sh "$OUT/cta_order_env.txt"
: > /tmp/order_src.csv
for c in 0 1 2; do
  ncu_first_gemm_launch --section WarpStateStats --section MemoryWorkloadAnalysis \
      --metrics dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.max --page raw --csv -- --out /tmp/ord_$c --case $c \
      > /tmp/ord_$c.csv 2>> "$OUT/cta_order_env.txt"
  ncu_first_gemm_launch --section SourceCounters --section WarpStateStats --export /tmp/ord_src_$c.ncu-rep \
      -- --out /tmp/ord_src_$c --case $c > /dev/null 2>> "$OUT/cta_order_env.txt"
  ncu --import /tmp/ord_src_$c.ncu-rep --page source --csv --print-source sass >> /tmp/order_src.csv 2>> "$OUT/cta_order_env.txt"
done
{ grep '^"' /tmp/ord_0.csv; grep '^"' /tmp/ord_1.csv | tail -n +3; grep '^"' /tmp/ord_2.csv | tail -n +3; } > "$OUT/cta_order_ncu.csv"
echo "rows: $(wc -l < "$OUT/cta_order_ncu.csv")"
xz -9 < /tmp/order_src.csv > "$OUT/cta_order_source.csv.xz"
echo "source rows: $(wc -l < /tmp/order_src.csv)"

#!/usr/bin/env bash
# One device call: Nsight Compute's warp states of the WMMA GEMM (8192^3 grouped-8, pad 8) with two CTAs
# per SM and with one (gms-cta-times --ctas-per-sm, validate/runner/cta_times.cu): the first plain launch
# of the case in each mode, --section WarpStateStats / SchedulerStats / LaunchStats / Occupancy /
# ComputeWorkloadAnalysis, raw page as CSV. The stall reasons beside device_cta_occupancy.sh's phase stamps.
#   cta_occupancy_ncu.csv      both launches' counters (--page raw --csv)
#   cta_occupancy_source.csv.xz  both launches' per-instruction warp-state samples (--page source --csv
#                              --print-source sass, sections SourceCounters and WarpStateStats; two CTAs
#                              first, the section of each launch as ncu exports it)
#   cta_occupancy_ncu_env.txt  GPU, driver, clocks, ncu, nvcc, command, the build
set -uo pipefail
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
device_build_cta_times device_cta_occupancy_ncu.sh "$OUT/cta_occupancy_ncu_env.txt"
for n in 2 1; do
  ncu_first_gemm_launch --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
      --section ComputeWorkloadAnalysis --page raw --csv -- --out /tmp/ncu_$n --ctas-per-sm $n > /tmp/ncu_$n.csv 2>> "$OUT/cta_occupancy_ncu_env.txt"
done
{ grep -v '^"gemm\|^gemm' /tmp/ncu_2.csv | grep '^"'; grep -v '^"gemm\|^gemm' /tmp/ncu_1.csv | grep '^"' | tail -n +3; } > "$OUT/cta_occupancy_ncu.csv"
echo "rows: $(wc -l < "$OUT/cta_occupancy_ncu.csv")"
for n in 2 1; do
  ncu_first_gemm_launch --section SourceCounters --section WarpStateStats --export /tmp/src_$n.ncu-rep \
      -- --out /tmp/src_$n --ctas-per-sm $n > /dev/null 2>> "$OUT/cta_occupancy_ncu_env.txt"
  ncu --import /tmp/src_$n.ncu-rep --page source --csv --print-source sass > /tmp/src_$n.csv 2>> "$OUT/cta_occupancy_ncu_env.txt"
done
cat /tmp/src_2.csv /tmp/src_1.csv | xz -9 > "$OUT/cta_occupancy_source.csv.xz"
echo "source rows: $(cat /tmp/src_2.csv /tmp/src_1.csv | wc -l)"

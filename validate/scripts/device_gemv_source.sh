#!/usr/bin/env bash
# One device call: where Triton's GEMVs wait, per SASS instruction (issue 10/11). The model issues the
# in-CTA reduction's STS, LDS, LDSM and SHFL through the MIO queue and has its warps wait there half as
# long as silicon's (mio_throttle 7-28 % against 14-61 %): which instructions do silicon's warps wait
# in front of? ncu's source page samples each warp's state at each SASS instruction.
#   gemv_source.csv      ncu --page source --csv --print-source sass: per instruction of each profiled
#                        launch, its executed count and warp-state samples by reason
#   gemv_src_raw.csv     the same launches' kernel-level counters (which case is which: launch__grid_size,
#                        launch__block_size, and the stall percentages to hold the samples against)
#   gemv_source_env.txt  GPU, driver, ncu, Triton, the command, the cases in launch order
# Cases: the 1x4096x7168 llcc programs at BLOCK 32x64 w4, 64x64 w4, 128x32 w8, 256x16 w4, 256x64 w4,
# 512x64 w8 and 1x8192x28672 64x64 w4 (validate/results/*/triton_gemv). ~2 minutes.
# ONLY=REGEX picks other cases (names as triton_gemv_records.py --list prints them), e.g. the large shape's
# wide programs: ONLY='1x8192x28672_bn(256_bk64_w4|512_bk64_w8)_llcc$'.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
W=/tmp/gms-gemv-source
mkdir -p "$W"
here=$(dirname "$0")
only=${ONLY:-'1x4096x7168_bn(32_bk64_w4|64_bk64_w4|128_bk32_w8|256_bk16_w4|256_bk64_w4|512_bk64_w8)_llcc$|1x8192x28672_bn64_bk64_w4_llcc$'}
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  ncu --version | tail -1
  python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)'
  echo "command: ONLY='$only' validate/scripts/device_gemv_source.sh"
  echo "cases in launch order:"
  python3 "$here/triton_gemv_records.py" --list | grep -E "$only"
} > "$OUT/gemv_source_env.txt" 2>&1
ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:gemv_revsplitk \
  -o "$W/gemv_src" -f python3 "$here/triton_gemv_records.py" --profile --only "$only" >> "$OUT/gemv_source_env.txt" 2>&1
echo "ncu exit $?" >> "$OUT/gemv_source_env.txt"
ncu -i "$W/gemv_src.ncu-rep" --page source --csv --print-source sass > "$OUT/gemv_source.csv" 2>> "$OUT/gemv_source_env.txt"
echo "source page exit $? ($(wc -l < "$OUT/gemv_source.csv") lines)" >> "$OUT/gemv_source_env.txt"
ncu -i "$W/gemv_src.ncu-rep" --page raw --csv > "$OUT/gemv_src_raw.csv" 2>> "$OUT/gemv_source_env.txt"
echo "raw page exit $?" >> "$OUT/gemv_source_env.txt"
tail -3 "$OUT/gemv_source_env.txt"

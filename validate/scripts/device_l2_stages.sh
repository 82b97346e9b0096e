#!/usr/bin/env bash
# One device call: how busy each L2 stage is under the Triton GEMMs the model's slices hold in step (issue 11,
# docs/calibration.md "A late CTA catches up in the model": the model's slices' data stage near 90 % there).
# The 8192^3 Triton cases of validate/results/<gpu>/triton_gemm (three tilings x grouped-8 / row-major, cp.async)
# and the 128x128x64 TMA pair, each launched once under ncu with the L2 stages' utilisation:
#   l2_stages_ncu.csv   one row a case (ncu --page raw), the case names on the `profiled` lines before the rows
#   l2_stages_env.txt   GPU, driver, clocks, ncu/Triton/PyTorch versions, command
# Read with validate/scripts/l2_stages.py DIR.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/device_env.sh"
source "$here/ncu_metrics.sh"
device_env_lines device_l2_stages.sh > "$OUT/l2_stages_env.txt" 2>&1
metrics="gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second"
metrics="$metrics,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sector_op_read_hit_rate.pct"
metrics="$metrics,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum"
metrics="$metrics,lts__t_sectors_srcunit_ltcfabric.sum,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
keep=$(keep_known_metrics "$metrics" 2>> "$OUT/l2_stages_env.txt")
cd "$here"
: > "$OUT/l2_stages_ncu.csv"
for copy in cp_async tma; do
  tilings=""
  [ $copy = tma ] && tilings="--tilings 128x128x64w4s3"
  ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:matmul \
    python3 triton_gemm_records.py --profile --shapes 8192x8192x8192 --copy $copy $tilings \
    >> "$OUT/l2_stages_ncu.csv" 2>> "$OUT/l2_stages_env.txt"
  echo "ncu $copy exit $?"
done
grep -c '^profiled' "$OUT/l2_stages_ncu.csv"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/l2_stages_env.txt"

#!/usr/bin/env bash
# One device call: how busy silicon's L2 is while the WMMA GEMM runs, and where its warps wait
# (issue 11: the model's L2 slices queue ~1,000 cycles per request on these GEMMs, silicon's warps
# barely wait on global data). Nsight's utilisation of each L2 stage (tags, data, xbar ports) and
# every warp stall reason, on
#   gemm_busy.csv      the 8 CTA orders of the 8192^3 WMMA GEMM (gms-validate --set gemm, launches 0-7)
#   pad_busy.csv       the shared-row padding cases (gms-validate --set gemm_pad: pads 0/8/16 x 3 cases)
#   l2_load_busy.csv   gms-l2-load-ubench (W = 0..31 streaming warps per SM: the L2's saturated stages)
#   l2_busy_env.txt    GPU, driver, clocks, ncu version, command, the builds
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
source "$here/ncu_metrics.sh"
{
  device_env device_l2_busy.sh validate/runner/l2_load_ubench.cu /tmp/gms-l2-load-ubench
  nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_90,code=sm_90 -o /tmp/gms-validate validate/runner/runner_main.cu \
    validate/runner/ubench_runner.cu validate/runner/cases.cpp validate/runner/record.cpp 2>&1
} > "$OUT/l2_busy_env.txt" 2>&1
stalls=""
for r in long_scoreboard short_scoreboard wait barrier dispatch_stall branch_resolving not_selected selected \
         mio_throttle lg_throttle math_pipe_throttle no_instruction drain membar sleeping tex_throttle imc_miss misc; do
  stalls="$stalls,smsp__warp_issue_stalled_${r}_per_warp_active.pct"
done
metrics="gpu__time_duration.sum,sm__cycles_elapsed.max,lts__cycles_elapsed.max,dram__bytes_read.sum"
metrics="$metrics,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__t_sectors.max.pct_of_peak_sustained_elapsed,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__d_sectors.avg.pct_of_peak_sustained_elapsed,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_sectors_op_read.sum"
metrics="$metrics,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_xbar2l1tex_read_bytes.sum.per_second"
metrics="$metrics,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum"
metrics="$metrics,sm__warps_active.avg.pct_of_peak_sustained_active$stalls"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/l2_busy_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemm_fp16 --launch-skip 0 --launch-count 8 \
  /tmp/gms-validate --profile --set gemm --out /tmp > "$OUT/gemm_busy.csv" 2>> "$OUT/l2_busy_env.txt"
echo "gemm ncu exit $?"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemm_fp16 \
  /tmp/gms-validate --profile --set gemm_pad --out /tmp > "$OUT/pad_busy.csv" 2>> "$OUT/l2_busy_env.txt"
echo "pad ncu exit $?"
ncu --cache-control none --clock-control none --metrics "$keep" --csv --page raw /tmp/gms-l2-load-ubench \
  > "$OUT/l2_load_busy.csv" 2>> "$OUT/l2_busy_env.txt"
echo "l2 load ncu exit $?"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/l2_busy_env.txt"

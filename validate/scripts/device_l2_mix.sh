#!/usr/bin/env bash
# One device call: L2 hits beside L2 misses - does a miss's data take the read-out path that hits
# saturate? (gms-l2-mix-ubench, validate/runner/l2_mix_ubench.cu; issue 11, l2.miss_data_forwarded)
#   l2_mix_run.jsonl   per (hit warps, miss warps) per SM: hit / miss TB/s over a 2 ms window (median of 5)
#   l2_mix_ncu.csv     the same mixes under ncu (one warm launch, then one measured, per mix): the L2's
#                      stages (tags, data array, L2->crossbar), lookups hit / missed, DRAM bytes, clocks
#   l2_mix_env.txt     GPU, driver, clocks, ncu version, command, the build
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
source "$here/ncu_metrics.sh"
device_env device_l2_mix.sh validate/runner/l2_mix_ubench.cu /tmp/gms-l2-mix-ubench > "$OUT/l2_mix_env.txt" 2>&1
[ -x /tmp/gms-l2-mix-ubench ] || { echo "build failed"; cat "$OUT/l2_mix_env.txt"; exit 1; }
/tmp/gms-l2-mix-ubench > "$OUT/l2_mix_run.jsonl" 2>> "$OUT/l2_mix_env.txt"
echo "l2 mix ubench exit $?"; cat "$OUT/l2_mix_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/l2_mix_env.txt"
metrics="gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,lts__cycles_elapsed.avg.per_second"
metrics="$metrics,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum"
metrics="$metrics,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sector_op_read_hit_rate.pct,lts__d_sectors.sum"
metrics="$metrics,lts__d_sectors_fill_device.sum,lts__d_sectors_fill_sysmem.sum,lts__t_sectors_srcunit_ltcfabric.sum"
metrics="$metrics,lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__d_sectors.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed"
metrics="$metrics,l1tex__m_xbar2l1tex_read_bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
keep=$(keep_known_metrics "$metrics" 2>> "$OUT/l2_mix_env.txt")
# --cache-control none: the hit buffer stays in L2 between ncu's passes, as between the timed launches.
ncu --cache-control none --clock-control none --metrics "$keep" --csv --page raw -k regex:mix_stream \
  /tmp/gms-l2-mix-ubench --reps 1 > /tmp/l2_mix_ncu.csv 2>> "$OUT/l2_mix_env.txt"
echo "ncu exit $?"
grep '^"' /tmp/l2_mix_ncu.csv > "$OUT/l2_mix_ncu.csv"
echo "ncu rows: $(wc -l < "$OUT/l2_mix_ncu.csv")"

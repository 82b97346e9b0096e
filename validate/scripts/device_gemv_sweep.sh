#!/usr/bin/env bash
# One device call for issue 11's GEMV sweep and the per-CTA cost:
#   cta_ubench.jsonl   gms-cta-ubench: empty CTAs, 1..512 per SM, 32..1024 threads (per-CTA fixed cost)
#   triton_gemv.jsonl  triton_gemv_records.py: seed 001's GEMV at 14 block/warp configs x 2 orders x 2 shapes
#   gemv_sass/         the SASS of every compiled config (RED vs ATOM, spills)
#   triton_gemv_ncu.csv  the same cases once each under ncu (merge_ncu.py joins them into records)
#   gemv_sweep_env.txt GPU, driver, clocks, ncu/Triton/PyTorch versions, command
# Then, on the workstation:
#   merge_ncu.py --records triton_gemv.jsonl --ncu triton_gemv_ncu.csv --out validate/results/<gpu> \
#                --dir triton_gemv --command validate/scripts/device_gemv_sweep.sh
#   triton_gemv_records.py --finish validate/results/<gpu>/triton_gemv   # compiler/profile facts -> workload
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
device_env device_gemv_sweep.sh validate/runner/cta_ubench.cu /tmp/gms-cta-ubench > "$OUT/gemv_sweep_env.txt" 2>&1
/tmp/gms-cta-ubench > "$OUT/cta_ubench.jsonl" 2>> "$OUT/gemv_sweep_env.txt"
echo "cta ubench exit $?"; cat "$OUT/cta_ubench.jsonl"
python3 "$here/triton_gemv_records.py" --jsonl "$OUT/triton_gemv.jsonl" --sass "$OUT/gemv_sass" 2>> "$OUT/gemv_sweep_env.txt"
echo "triton gemv records exit $?"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests_op_red.sum,lts__t_requests_op_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,sm__ctas_launched.sum,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__waves_per_multiprocessor,launch__grid_size,launch__block_size,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,sm__cycles_elapsed.avg.per_second
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/gemv_sweep_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:gemv_revsplitk python3 "$here/triton_gemv_records.py" --profile \
  > "$OUT/triton_gemv_ncu.csv" 2>> "$OUT/gemv_sweep_env.txt"
echo "triton gemv ncu exit $?"

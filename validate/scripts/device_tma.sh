#!/usr/bin/env bash
# One device call for the TMA data path (issue 10): the copy engine's rate and Triton's GEMM with TMA tiles.
#   tma_ubench.jsonl       gms-tma-ubench (validate/runner/tma_ubench.cu): bulk tensor copies per SM
#                          cycle by bytes in flight, from L2 and DRAM, 4 SMs and every SM
#   triton_tma_gemm.jsonl  triton_gemm_records.py --copy tma: 2 shapes x 3 tilings x 2 orders, timed
#   triton_cp_async_gemm.jsonl  the same cases with cp.async tiles, timed in the same call (the pairs)
#   tma_ncu.csv            the TMA cases once each under ncu (merge_ncu.py joins them into records)
#   tma_sass.tar.gz        the TMA kernels' SASS and PTX (triton_gemm_asm.py --copy tma) and their
#                          per-instruction executed counts and stall samples (ncu --page source)
#   tma_metrics.txt        what this ncu names with "tma" / "utma" / "bulk" (the copy engine's counters)
#   tma_env.txt            GPU, driver, clocks, ncu/Triton/PyTorch versions, command, builds
# Then, on the workstation: merge_ncu.py --records triton_tma_gemm.jsonl --ncu tma_ncu.csv
#   --out validate/results/<gpu> --dir triton_tma_gemm
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
W=/tmp/gms-tma
mkdir -p "$W"
bin=$W/gms-tma-ubench
device_env device_tma.sh validate/runner/tma_ubench.cu $bin > "$OUT/tma_env.txt" 2>&1
cuobjdump -sass $bin | grep -cE "UTMALDG" | sed 's/^/# UTMALDG in gms-tma-ubench: /' >> "$OUT/tma_env.txt"
$bin > "$OUT/tma_ubench.jsonl" 2>> "$OUT/tma_env.txt"
echo "tma ubench exit $?"; cat "$OUT/tma_ubench.jsonl"
python3 "$here/triton_gemm_records.py" --copy tma --jsonl "$OUT/triton_tma_gemm.jsonl" 2>> "$OUT/tma_env.txt"
echo "triton tma records exit $?"
python3 "$here/triton_gemm_records.py" --jsonl "$OUT/triton_cp_async_gemm.jsonl" 2>> "$OUT/tma_env.txt"
echo "triton cp.async records exit $?"
ncu --query-metrics 2>&1 | grep -iE "tma|utma|bulk" > "$OUT/tma_metrics.txt"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write.sum,lts__t_sectors_srcunit_ltcfabric.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size,launch__waves_per_multiprocessor,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,smsp__inst_executed.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_ldsm.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_pipe_tensor_op_gmma.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_sleeping_per_warp_active.pct,smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct,sm__cycles_elapsed.avg.per_second,l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum,l1tex__m_xbar2l1tex_read_sectors_pipe_tma.sum,l1tex__tmain_requests.sum
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/tma_env.txt"
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:matmul_tma python3 "$here/triton_gemm_records.py" \
  --copy tma --profile > "$OUT/tma_ncu.csv" 2>> "$OUT/tma_env.txt"
echo "tma ncu exit $?"
# SASS and per-instruction counts of the three tilings at 4096^3 (the issue profile's inputs).
python3 "$here/triton_gemm_asm.py" "$W" --copy tma >> "$OUT/tma_env.txt" 2>&1
ncu --clock-control none --section SourceCounters --section WarpStateStats -k regex:matmul_tma -o "$W/triton_tma_src" -f \
  python3 "$here/triton_gemm_asm.py" "$W/again" --copy tma >> "$OUT/tma_env.txt" 2>&1
echo "tma source profile: ncu exit $?" >> "$OUT/tma_env.txt"
ncu -i "$W/triton_tma_src.ncu-rep" --page source --csv --print-source sass > "$W/triton_tma_source.csv" 2>> "$OUT/tma_env.txt"
ncu -i "$W/triton_tma_src.ncu-rep" --page raw --csv > "$W/triton_tma_src_raw.csv" 2>> "$OUT/tma_env.txt"
(cd "$W" && tar czf "$OUT/tma_sass.tar.gz" ./*.sass ./*.ptx ./triton_tma_source.csv ./triton_tma_src_raw.csv)
tail -5 "$OUT/tma_env.txt"

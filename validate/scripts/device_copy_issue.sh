#!/usr/bin/env bash
# One device call: do a warp's cp.async copies hold it longer when some of them miss to DRAM, though its
# work hides their latency? (gms-copy-issue-ubench, validate/runner/copy_issue_ubench.cu; docs/sm-sharing.md)
#   copy_issue_run.jsonl   one line per (work, misses per 8 copies): SM cycles per iteration, kernel time
#   copy_issue_ncu.csv     Nsight's warp states, DRAM bytes and L2 hit rate of every launch (warm-up, then
#                          measured, per configuration; --cache-control none: the warm-up leaves the window in L2)
#   copy_issue_env.txt     GPU, driver, clocks, ncu, nvcc, command, the build, the loop's SASS
set -uo pipefail
source "$(dirname "$0")/device_env.sh"  # sets OUT (default ./out) and creates it
BIN=/tmp/gms-copy-issue-ubench
device_ubench copy_issue device_copy_issue.sh validate/runner/copy_issue_ubench.cu "$BIN" "LDGSTS|DEPBAR|LDGDEPBAR"
source "$(dirname "$0")/ncu_metrics.sh"
keep=$(keep_known_metrics "gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct") 2>> "$OUT/copy_issue_env.txt"
ncu --cache-control none -k regex:copy_issue --metrics "$keep" --csv --page raw "$BIN" --profile > /tmp/copy_issue_ncu.csv 2>> "$OUT/copy_issue_env.txt"
echo "ncu exit $?"
grep '^"' /tmp/copy_issue_ncu.csv > "$OUT/copy_issue_ncu.csv"
echo "ncu rows: $(wc -l < "$OUT/copy_issue_ncu.csv")"

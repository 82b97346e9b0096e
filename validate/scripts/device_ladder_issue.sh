#!/usr/bin/env bash
# One device call: what each sub-partition's issue port does on seed 002's ladder rungs. The records'
# warp-state shares say how a warp spends its cycles; these say how full the port is - the cycles it
# issued (smsp__issue_active), the warps active and eligible per cycle - next to the same shares, so
# that one profile says how many of the warps' dispatch stalls left the port empty
# (validate/scripts/ladder_issue.py).
#   ladder_issue_ncu.csv   the rung names the runner prints ("profiled seed002_<rung>"), then one ncu
#                          row per rung (--page raw)
#   ladder_issue_env.txt   GPU, driver, clocks, ncu, command, the build
# Usage on the device machine, from the repository root: validate/scripts/device_ladder_issue.sh [SIZE] [--alone]
# (--alone: every rung with one CTA an SM, gms-ladder --alone - the same files, for a folder of their own)
set -uo pipefail
BIN=/tmp/gms-ladder
source "$(dirname "$0")/device_env.sh"
source "$(dirname "$0")/ncu_metrics.sh"
size=${1:-4096}
alone=${2:-}
device_env "device_ladder_issue.sh $size $alone" validate/runner/ladder_runner.cu "$BIN" > "$OUT/ladder_issue_env.txt" 2>&1
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__issue_active.sum,smsp__inst_issued.sum,smsp__inst_executed.sum,smsp__warps_active.avg.per_cycle_active,smsp__warps_eligible.avg.per_cycle_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_selected_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_no_instruction_per_warp_active.pct,smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct
keep=$(keep_known_metrics "$metrics")
ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:sgemm_ladder "$BIN" --size "$size" --profile $alone \
  > "$OUT/ladder_issue_ncu.csv" 2> /tmp/ladder_issue_ncu.log
echo "ncu exit $?" | tee -a "$OUT/ladder_issue_env.txt"
tail -2 /tmp/ladder_issue_ncu.log
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/ladder_issue_env.txt"

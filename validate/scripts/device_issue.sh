#!/usr/bin/env bash
# One device call: gms-issue-ubench (validate/runner/issue_ubench.cu) - how a sub-partition shares its
# issue slots among the CTAs of an SM (2-8 CTAs, 1-2 warps each per sub-partition, warps that can issue
# every cycle or every 2nd / 4th), twice.
#   issue_ubench.jsonl      one line per configuration and run
#   issue_env.txt           GPU, driver, clocks, ncu, command, the build, the FFMA loop's SASS
set -uo pipefail
BIN=/tmp/gms-issue-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env issue device_issue.sh validate/runner/issue_ubench.cu "$BIN" "Function|FFMA|BRA|ISETP|IADD"
for run in 1 2; do "$BIN" | sed "s/^{/{\"run\": $run, /"; done | tee "$OUT/issue_ubench.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/issue_env.txt"

#!/usr/bin/env bash
# One device call: gms-issue-trace-ubench (validate/runner/issue_trace_ubench.cu) - every warp's clock after each
# ~16 FFMAs, 1-4 warps a sub-partition from one CTA or two to four - and the SASS of it and of gms-issue-ubench with
# their control codes (stall counts, yield flags: which instructions let a greedy scheduler switch warps).
#   issue_trace_run.jsonl      one line per case (chains, CTAs an SM, threads): the stamps of up to 8 SMs' warps
#   issue_trace_env.txt        GPU, driver, clocks, nvcc, the command
#   issue_trace.sass.xz        cuobjdump -sass of both binaries (the hex words carry the control codes)
# Usage on the device machine, from the repository root: validate/scripts/device_issue_trace.sh [--waits]
# (--waits: every segment waits on a shared or an L2-hit global load - which waits let a younger warp in)
# Then: validate/scripts/issue_trace.py DIR
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
BIN=/tmp/gms-issue-trace-ubench
device_ubench issue_trace "device_issue_trace.sh $*" validate/runner/issue_trace_ubench.cu "$BIN" "CS2R|S2UR|BAR" "$@"
status=0
[ -s "$OUT/issue_trace_run.jsonl" ] || status=1
device_nvcc validate/runner/issue_ubench.cu /tmp/gms-issue-ubench >> "$OUT/issue_trace_env.txt" 2>&1
{ cuobjdump -sass "$BIN"; cuobjdump -sass /tmp/gms-issue-ubench; } | xz -9 > "$OUT/issue_trace.sass.xz"
exit "$status"

#!/usr/bin/env bash
# One device call: gms-mio-startup-ubench (validate/runner/mio_startup_ubench.cu) - behind which shared-memory
# traffic (stores, loads, both) does a new warp's first S2R wait, and do the first wave's CTAs wait by when they
# were placed?
#   mio_startup_run.jsonl   one line per traffic and rounds, two runs
#   mio_startup_env.txt     GPU, driver, clocks, ncu, command, the build, the kernel's S2R / LDS / STS / BAR lines
# Then: validate/scripts/mio_startup.py validate/results/<gpu>/mio_startup [--model build/gpumemsim --gpu G.yaml]
set -uo pipefail
BIN=/tmp/gms-mio-startup-ubench
source "$(dirname "$0")/device_env.sh"
device_build_env mio_startup device_mio_startup.sh validate/runner/mio_startup_ubench.cu "$BIN" "Function|S2R|S2UR|CS2R|LDS|STS|BAR"
for run in 1 2; do "$BIN" | sed "s/^{/{\"run\": $run, /"; done | tee "$OUT/mio_startup_run.jsonl"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/mio_startup_env.txt"

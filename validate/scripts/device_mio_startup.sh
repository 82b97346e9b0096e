#!/usr/bin/env bash
# One device call: gms-mio-startup-ubench (validate/runner/mio_startup_ubench.cu) - behind which shared-memory
# traffic (stores, loads, both) does a new warp's first S2R wait, and do the first wave's CTAs wait by when they
# were placed?
#   mio_startup_run.jsonl   one line per traffic and rounds, two runs
#   mio_startup_env.txt     GPU, driver, clocks, ncu, command, the build, the kernel's S2R / LDS / STS / BAR lines
# Then: validate/scripts/mio_startup.py validate/results/<gpu>/mio_startup [--model build/gpumemsim --gpu G.yaml]
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench_runs 2 mio_startup device_mio_startup.sh validate/runner/mio_startup_ubench.cu /tmp/gms-mio-startup-ubench "Function|S2R|S2UR|CS2R|LDS|STS|BAR" mio_startup_run.jsonl

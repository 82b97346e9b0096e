#!/usr/bin/env bash
# One device call: gms-mio-ubench (validate/runner/mio_ubench.cu) - how many shared-memory
# instructions a sub-partition holds before its warps stall in mio_throttle.
#   mio_run.jsonl  per layout and timed warp: the clock after each of 64 conflicted LDS, the knee
#   mio_env.txt    GPU, driver, clocks, ncu, command, the build, the timed loop's SASS
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench mio device_mio.sh validate/runner/mio_ubench.cu /tmp/gms-mio-ubench "Function|LDS|CS2R"

#!/usr/bin/env bash
# One device call: gms-mio-order-ubench (validate/runner/mio_order_ubench.cu) - in what order does the SM's
# shared-memory data path serve the warps queued at it: 16 CTAs an SM running a GEMV reduction's rounds (do they
# end one at a time, oldest first, or together?), and a chain of dependent conflicted loads in the oldest or the
# youngest CTA beside 60 warps flooding the path.
#   mio_order.jsonl      one line per measurement, two runs
#   mio_order_env.txt    GPU, driver, clocks, ncu, command, the build, the kernels' SASS (LDS/STS/BAR)
# Then: validate/scripts/mio_order.py validate/results/<gpu>/mio_order [--model build/gpumemsim --gpu G.yaml]
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench_runs 2 mio_order device_mio_order.sh validate/runner/mio_order_ubench.cu /tmp/gms-mio-order-ubench "Function|LDS|STS|BAR" mio_order.jsonl

#!/usr/bin/env bash
# One device call: gms-carveout-ubench (validate/runner/carveout_ubench.cu) - the L1 capacity left
# beside S bytes of shared memory per CTA (an L1-cached pointer chase over W bytes per S).
#   carveout_run.jsonl  cycles per dependent load per (S, W)
#   carveout_env.txt    GPU, driver, clocks, ncu, command, the build, the chase's SASS
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench carveout device_carveout.sh validate/runner/carveout_ubench.cu /tmp/gms-carveout-ubench "Function|LDG"

#!/usr/bin/env bash
# One device call: gms-ldg-backlog-ubench (validate/runner/ldg_backlog_ubench.cu) - does a global load wait behind
# the shared-memory instructions queued ahead of it on its SM (sm.loads_wait_in_mio_queue)?
#   ldg_backlog_run.jsonl     per chase (ldg_l2, ldg_l1, lds) and flood (none, same, other): cycles per hop, the flood's pace
#   ldg_backlog_env.txt       GPU, driver, clocks, ncu, command, the build, the chase's and the flood's SASS lines
#   ldg_backlog.sm90.sass.xz  the binary's whole SASS (cuobjdump -sass)
# Read with validate/scripts/ldg_backlog.py validate/results/<gpu>/ldg_backlog.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
device_ubench ldg_backlog device_ldg_backlog.sh validate/runner/ldg_backlog_ubench.cu /tmp/gms-ldg-backlog-ubench \
  "Function|LDG|LDS|CS2R|S2UR|IADD"
cuobjdump -sass /tmp/gms-ldg-backlog-ubench 2>/dev/null | xz -9 > "$OUT/ldg_backlog.sm90.sass.xz"

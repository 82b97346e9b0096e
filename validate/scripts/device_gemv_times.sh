#!/usr/bin/env bash
# One device call: gms-gemv-times (validate/runner/gemv_times.cu) - per program of the 1x8192x28672
# GEMV (BN 256, BK 64; 1 warp in both orders, 2/4/8 warps lclc), with its atomics and with plain stores,
# its SM and its start/end (%globaltimer), three stamped runs each.
#   gemv_times.jsonl                 plain vs stamped kernel times, registers, local bytes
#   gemv_times.tar.gz                <case>_<part>_run<r>.csv: program,sm,gt_start_ns,gt_end_ns (the device
#                                    returns few files: the CSVs travel packed)
#   gemv_times_env.txt               GPU, driver, clocks, ncu, command, the build, the stamped kernels' SASS tail
# `device_gemv_times.sh --resident 32,16,8,4`: only the 1-warp lclc programs, at most N a SM each time.
# Then, on the workstation: validate/scripts/gemv_times.py DIR [--model CASE=RUN_DIR]
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
source "$(dirname "$0")/device_env.sh"
BIN=/tmp/gms-gemv-times
device_build_env gemv_times "device_gemv_times.sh $*" validate/runner/gemv_times.cu "$BIN" "RED|STG|EXIT|S2UR|CS2R"
work=$(mktemp -d)
"$BIN" --out "$work" --runs 3 "$@" 2>&1 | tee "$OUT/gemv_times_run.log"
cp "$work/gemv_times.jsonl" "$OUT/"
tar czf "$OUT/gemv_times.tar.gz" -C "$work" $(cd "$work" && ls *.csv)
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/gemv_times_env.txt"

#!/usr/bin/env bash
# README command 2 (and CI): install dependencies, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The GPU sources are compiled to check that they build, never run here (no device): unoptimized.
GPUMEMSIM_GPU_COMPILE_CHECK=ON scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)"

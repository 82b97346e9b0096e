#!/usr/bin/env bash
# README command 1: install dependencies, build, install (~/.local: CLI, library, Python module), and
# simulate an 8192^3 fp16 GEMM on the H100 preset.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
scripts/install.sh
./build/gpumemsim run --gpu configs/gpus/h100.yaml --workload configs/workloads/gemm-8192-grouped8.yaml --out out/demo

#!/usr/bin/env bash
# Installs the build into a fresh prefix and checks what a user of the installed tree gets: the CLI
# (--version, a run that finds the installed presets), the CMake package (a separate project builds
# and runs against find_package(gpumemsim)) and the Python module when it was built.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
p=$work/prefix
test -x "$p/bin/gpumemsim"
test -f "$p/share/gpumemsim/configs/gpus/h100.yaml"
test -f "$p/share/gpumemsim/configs/isa/sm_90.yaml"
test -f "$p/include/gpumemsim/api/simulation.h"
"$p/bin/gpumemsim" --version | grep -E '^gpumemsim [0-9]+\.[0-9]+\.[0-9]+ \(commit [0-9a-f]{7,}'
# The installed presets, found through the environment as a user of a relocated tree would set it.
GPUMEMSIM_CONFIGS="$p/share/gpumemsim/configs" "$p/bin/gpumemsim" config show --gpu h100 | grep -q 'sm:'
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$p" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer" | tee "$work/consumer.out"
grep -q 'gpu__time_duration.sum = [0-9]' "$work/consumer.out"
echo "install test: ok"

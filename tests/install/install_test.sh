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
# (grep reads it all: `grep -q` would stop at the first match and, under pipefail, fail the test whenever the
# printer had not finished writing - SIGPIPE; it did since the presets' launch.sm_order made the listing longer.)
GPUMEMSIM_CONFIGS="$p/share/gpumemsim/configs" "$p/bin/gpumemsim" config show --gpu h100 | grep 'sm:' > /dev/null
cmake -S "$src/tests/install/consumer" -B "$work/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$p" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/consumer" | tee "$work/consumer.out"
grep -q 'gpu__time_duration.sum = [0-9]' "$work/consumer.out"
# The Python package, when the build has it, imports from the installed tree (outside the build).
if ls "$build"/python/gpumemsim/_core*.so >/dev/null 2>&1; then
  site=$(ls -d "$p"/lib/python3*/site-packages)
  py=$(grep -m1 '^_Python_EXECUTABLE:INTERNAL=' "$build/CMakeCache.txt" | cut -d= -f2)
  (cd "$work" && PYTHONPATH="$site" "${py:-python3}" -c "
import gpumemsim
assert gpumemsim.__file__.startswith('$site'), gpumemsim.__file__
r = gpumemsim.run(gpu='h100', workload={'kind': 'gemm', 'm': 1024, 'n': 1024, 'k': 1024, 'dtype': 'fp16'})
print('python', gpumemsim.__version__, gpumemsim.__commit__, r['gpu__time_duration.sum'])
assert r['gpu__time_duration.sum'] > 0")
fi
echo "install test: ok"

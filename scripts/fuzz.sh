#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in build-fuzz/ and runs each for SECONDS
# (default 30). A crash leaves its input in build-fuzz/crash-*; turn it into a test.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" -DGPUMEMSIM_FUZZ=ON -DGPUMEMSIM_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz --target layout_fuzz lane_list_fuzz trace_fuzz sass_fuzz local_program_fuzz trace_replay_fuzz -j"$(nproc)"
for t in layout_fuzz lane_list_fuzz trace_fuzz sass_fuzz local_program_fuzz trace_replay_fuzz; do
  mkdir -p "build-fuzz/corpus-$t"
  (cd build-fuzz && "tests/$t" -max_total_time="$secs" -print_final_stats=1 "corpus-$t" 2>&1 | tail -4)
done

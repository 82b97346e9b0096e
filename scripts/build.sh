#!/usr/bin/env bash
# Configures (once) and builds gpumemsim in ./build (Release). The validation runner is compiled too
# when the compilers are there: CUDA for sm_75/80/90 with nvcc, HIP for gfx906 with hipcc.
# GPUMEMSIM_GPU_COMPILE_CHECK=ON (scripts/test.sh): the GPU sources only checked to compile - device code
# unoptimized, binaries in build/gpu-compile-check/ (validate/CMakeLists.txt); unset, the measuring build.
set -euo pipefail
cd "$(dirname "$0")/.."
check=${GPUMEMSIM_GPU_COMPILE_CHECK:-OFF}
if [ -f build/build.ninja ] && ! grep -q "^GPUMEMSIM_GPU_COMPILE_CHECK:BOOL=$check\$" build/CMakeCache.txt; then
  cmake -S . -B build -DGPUMEMSIM_GPU_COMPILE_CHECK="$check" >/dev/null
fi
if [ ! -f build/build.ninja ]; then
  opts=()
  if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    opts+=(-DGPUMEMSIM_BUILD_CUDA=ON -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
  fi
  command -v hipcc >/dev/null && opts+=(-DGPUMEMSIM_BUILD_HIP=ON)
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUMEMSIM_GPU_COMPILE_CHECK="$check" "${opts[@]}" >/dev/null
fi
cmake --build build -j"$(nproc)"

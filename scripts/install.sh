#!/usr/bin/env bash
# Installs the build (scripts/build.sh) under PREFIX (default ~/.local): bin/gpumemsim, the libraries,
# headers, configs, the CMake package (find_package(gpumemsim)) and the Python package in
# PREFIX/lib/python3.X/site-packages - for ~/.local that is the user's site-packages, so
# `python3 -c "import gpumemsim"` works without any setting.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${GPUMEMSIM_PREFIX:-${1:-$HOME/.local}}
cmake --install build --prefix "$prefix" >/dev/null
echo "installed gpumemsim under $prefix ($("$prefix/bin/gpumemsim" --version))"

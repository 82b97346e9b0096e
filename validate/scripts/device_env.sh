# Sourced by the device scripts: device_env SCRIPT SOURCE BINARY [MORE_SOURCES...] prints the environment
# lines a record set keeps (date, GPU, driver, clocks, power limit, ncu/Triton/PyTorch versions, the
# command) and builds SOURCE (and MORE_SOURCES) into BINARY for this GPU's architecture (nvcc's
# messages go to the same stream).
device_env() {
  local script=$1 src=$2 bin=$3 arch
  shift 3
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,power.limit --format=csv
  ncu --version | tail -1
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "command: validate/scripts/$script; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch}"
  nvcc -std=c++17 -O2 -gencode=arch=compute_${arch},code=sm_${arch} -o "$bin" "$src" "$@" 2>&1
}

# Sourced by the device scripts: device_env SCRIPT SOURCE BINARY [MORE_SOURCES...] prints the environment
# lines a record set keeps (date, GPU, driver, clocks, power limit, ncu/Triton/PyTorch versions, the
# command) and builds SOURCE (and MORE_SOURCES) into BINARY for this GPU's architecture (nvcc's
# messages go to the same stream).
OUT=${OUT:-$PWD/out}  # where a device call's results go (the device sets it)
mkdir -p "$OUT"

# device_env_lines SCRIPT: the environment lines alone (a device call that builds nothing).
device_env_lines() {
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,power.limit,uuid,pci.bus_id --format=csv
  # What can make one machine slower than another of the same GPU (each field alone: an older
  # driver that lacks one fails only its own line).
  for q in mig.mode.current clocks.applications.graphics clocks_event_reasons.active; do
    nvidia-smi --query-gpu=$q --format=csv 2>&1 | tr '\n' ' '; echo
  done
  ncu --version | tail -1
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "command: validate/scripts/$1"
}

device_env() {
  local script=$1
  shift
  device_env_lines "$script"
  device_nvcc "$@"
}

# device_nvcc SOURCE BINARY [MORE_SOURCES...]: the build line (for the environment file) and the build of
# SOURCE into BINARY for this GPU's architecture (with GMS_ARCH_SUFFIX=a its arch-specific features: sm_90a's
# wgmma); nvcc's messages on the same stream.
device_nvcc() {
  local src=$1 bin=$2 arch
  shift 2
  arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)${GMS_ARCH_SUFFIX:-}
  echo "build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch}"
  nvcc -std=c++17 -O2 -gencode=arch=compute_${arch},code=sm_${arch} -o "$bin" "$src" "$@" 2>&1
}

# device_build_env NAME SCRIPT SOURCE BINARY SASS_PATTERN: device_env's lines and build into
# $OUT/NAME_env.txt, then the SASS lines of BINARY matching SASS_PATTERN (grep -E, control codes
# dropped, first 60); exits 1 with the log when the build failed.
device_build_env() {
  local name=$1 script=$2 src=$3 bin=$4 pattern=$5
  {
    device_env "$script" "$src" "$bin"
    echo "# SASS lines matching: $pattern"
    cuobjdump -sass "$bin" 2>/dev/null | grep -E "$pattern" | sed 's#/\* 0x[0-9a-f]* \*/##' | head -60
  } > "$OUT/${name}_env.txt" 2>&1
  [ -x "$bin" ] || { echo "build failed"; cat "$OUT/${name}_env.txt"; exit 1; }
}

# device_ubench NAME SCRIPT SOURCE BINARY SASS_PATTERN [ARGS...]: device_build_env, then the binary's JSON
# lines (run with ARGS) into $OUT/NAME_run.jsonl and the clocks after the run into NAME_env.txt.
device_ubench() {
  local name=$1 bin=$4
  device_build_env "${@:1:5}"
  "$bin" "${@:6}" | tee "$OUT/${name}_run.jsonl"
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
}

# device_ubench_runs RUNS NAME SCRIPT SOURCE BINARY SASS_PATTERN OUTFILE: device_build_env, then the binary run RUNS
# times, each JSON line tagged with its run ("run": 1..RUNS), into $OUT/OUTFILE, and the clocks after into NAME_env.txt.
device_ubench_runs() {
  local runs=$1 name=$2 bin=$5 outfile=$7
  device_build_env "${@:2:5}"
  for run in $(seq "$runs"); do "$bin" | sed "s/^{/{\"run\": $run, /"; done | tee "$OUT/$outfile"
  nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
}

# device_build_cta_times SCRIPT ENV_FILE: device_env's lines and the build of gms-cta-times
# (validate/runner/cta_times.cu) into $CTA_TIMES_BIN, written to ENV_FILE; exits 1 with the log when the
# build failed. For the scripts that run the WMMA GEMM's phase stamps (device_cta_times.sh,
# device_cta_occupancy*.sh).
CTA_TIMES_BIN=/tmp/gms-cta-times
device_build_cta_times() {
  local script=$1 env_file=$2
  device_env "$script" validate/runner/cta_times.cu "$CTA_TIMES_BIN" validate/runner/cases.cpp validate/runner/record.cpp \
    > "$env_file" 2>&1
  [ -x "$CTA_TIMES_BIN" ] || { echo "build failed"; cat "$env_file"; exit 1; }
}

# ncu_first_gemm_launch NCU_OPTIONS... -- CTA_TIMES_ARGS...: ncu on `$CTA_TIMES_BIN CTA_TIMES_ARGS`, profiling
# the GEMM's second launch - the first plain run of the first case run (the first launch is its warm-up).
ncu_first_gemm_launch() {
  local opts=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  ncu -k regex:gemm_fp16 --launch-skip 1 --launch-count 1 "${opts[@]}" "$CTA_TIMES_BIN" "$@"
}

# device_partition_map NAME: builds gms-partition-ubench (its build line into $OUT/NAME_env.txt), runs it
# twice into $OUT/NAME_partition.jsonl and sets PARTITION_MAP to the map validate/scripts/partition_map.py
# reads from it (one 0/1 per SM; the floor plan differs between chips), noted in NAME_env.txt; exits 1
# when either step fails.
device_partition_map() {
  local name=$1 pbin=/tmp/gms-partition-ubench rep
  device_nvcc validate/runner/partition_ubench.cu $pbin >> "$OUT/${name}_env.txt"
  [ -x $pbin ] || { echo "partition build failed"; exit 1; }
  for rep in 1 2; do $pbin | sed "s/^{/{\"rep\": $rep, /"; done > "$OUT/${name}_partition.jsonl" 2>> "$OUT/${name}_env.txt"
  PARTITION_MAP=$(python3 "$(dirname "${BASH_SOURCE[0]}")/partition_map.py" "$OUT/${name}_partition.jsonl") ||
    { echo "no partition map"; exit 1; }
  echo "partition map: $PARTITION_MAP" | tee -a "$OUT/${name}_env.txt"
}

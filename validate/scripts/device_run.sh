#!/usr/bin/env bash
# One device call: build the runner for the GPU at hand, check, measure, and leave everything under
# $OUT (at most 8 files). Usage on the device machine, from the repository root:
#   validate/scripts/device_run.sh measure   # build, smoke check, SASS order, ubench, gemm, gemv
#   validate/scripts/device_run.sh profile   # the same cases once each under ncu
set -uo pipefail
mode=${1:-measure}
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
BIN=/tmp/gms-validate
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
if [ ! -x "$BIN" ]; then
  nvcc -std=c++17 -O2 -lineinfo -gencode=arch=compute_${arch},code=sm_${arch} -o "$BIN" \
    validate/runner/runner_main.cu validate/runner/ubench_runner.cu validate/runner/cases.cpp validate/runner/record.cpp \
    || { echo "build failed"; exit 1; }
fi
if [ "$mode" = measure ]; then
  {
    echo "date: $(date -u +%FT%TZ)"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,memory.total,temperature.gpu --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
    echo "command: validate/scripts/device_run.sh measure; build: nvcc -O2 -gencode arch=compute_${arch},code=sm_${arch}"
  } > "$OUT/env.txt" 2>&1
  # Which order did the compiler really emit? Loads (LDG) and math (HFMA2/FFMA/...) runs per GEMV kernel.
  cuobjdump -sass "$BIN" > /tmp/all.sass 2>&1
  python3 - /tmp/all.sass > "$OUT/sass_order.txt" <<'PY'
import re, sys
fn, runs = None, {}
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m: fn = m.group(1); runs[fn] = []; continue
    if fn is None or 'gemv' not in fn: continue
    op = re.search(r'\b(LDG|STG|LDL|STL|HFMA2|FFMA|FADD|FMUL|HADD2|HMUL2|RED|ATOM)\b', line)
    if op:
        k = 'L' if op.group(1) in ('LDG',) else 'S' if op.group(1) in ('LDL','STL') else 'A' if op.group(1) in ('RED','ATOM','STG') else 'C'
        if runs[fn] and runs[fn][-1][0] == k: runs[fn][-1][1] += 1
        else: runs[fn].append([k, 1])
for fn, r in runs.items():
    if 'gemv' in fn: print(fn, ' '.join(f'{k}{n}' for k, n in r))
PY
  # Real compiler output for tests/data (order-from-asm): SASS of two GEMV kernels (4 warps).
  for f in 'gemv_splitk_kernelILi256ELi64ELi128ELi0E' 'gemv_splitk_kernelILi256ELi64ELi128ELi1E'; do
    name=$(grep -o "Function : [^ ]*$f[^ ]*" /tmp/all.sass | head -1 | cut -d' ' -f3)
    [ -n "$name" ] && cuobjdump -sass -fun "$name" "$BIN" >> "$OUT/gemv_sass.txt" 2>&1
  done
  "$BIN" --set smoke --out /tmp 2>&1 | tee "$OUT/run.log"
  "$BIN" --set ubench --set gemv --set gemm --out "$OUT" 2>&1 | tee -a "$OUT/run.log"
else
  metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct
  source "$(dirname "$0")/ncu_metrics.sh"
  keep=$(keep_known_metrics "$metrics") 2>> "$OUT/ncu.log"
  ncu --clock-control none --metrics "$keep" --csv --page raw -k regex:"gemm_fp16|gemv_splitk" \
    "$BIN" --profile --set gemv --set gemm --out /tmp > "$OUT/ncu_raw.csv" 2>> "$OUT/ncu.log"
  echo "ncu exit $?" >> "$OUT/ncu.log"
fi

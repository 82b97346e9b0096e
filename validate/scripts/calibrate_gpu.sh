#!/usr/bin/env bash
# validate/scripts/calibrate_gpu.sh GPU [--dry-run]: a GPU the project has no records of (A100, T4; the
# Z100 through HIP), calibrated end to end in one command - on a machine with the GPU (nvcc, ncu; or
# hipcc), from the repository root:
#   1. builds the simulator (scripts/build.sh) unless build/gpumemsim exists
#   2. measures and profiles the validate kernels (device_run.sh measure / profile; HIP: gms-validate-hip)
#   3. merges them into records: validate/results/GPU/{gemm,gemv}/*.json, with env.txt and preset_lines.yaml
#   4. measures a kernel's fixed cost (device_launch.sh; launch_model_check.py's median; CUDA only) and the L2's
#      dirty-way limits (device_local_writeback.sh; local_writeback.py --fit with build/local_writeback; CUDA only)
#   5. writes configs/gpus/GPU-measured.yaml: configs/gpus/GPU.yaml with every measured value on its line
#      (`gpumemsim calibrate --set ...`, nothing fitted), and scores it on the records (out/GPU/compare.md)
# The logs and raw files stay in out/GPU/. --dry-run prints the commands and runs nothing.
# Commit validate/results/GPU/ and the -measured preset with the environment (docs/calibration.md).
set -euo pipefail
gpu=${1:?usage: validate/scripts/calibrate_gpu.sh GPU [--dry-run]}
dry=0
[ "${2:-}" = --dry-run ] && dry=1
cd "$(dirname "$0")/../.."
preset=configs/gpus/$gpu.yaml
[ -f "$preset" ] || { echo "calibrate_gpu.sh: no preset $preset" >&2; exit 2; }
out=out/$gpu results=validate/results/$gpu sim=build/gpumemsim
run() {  # prints the command; runs it unless --dry-run
  echo "+ $*"
  [ "$dry" = 1 ] || "$@"
}
if command -v nvidia-smi > /dev/null || [ "$dry" = 1 ]; then backend=cuda; else backend=hip; fi
run mkdir -p "$out/run" "$out/launch" "$out/writeback" "$results"
[ -x "$sim" ] || run scripts/build.sh
if [ "$backend" = cuda ]; then
  run env OUT="$out/run" validate/scripts/device_run.sh measure
  run env OUT="$out/run" validate/scripts/device_run.sh profile
  run python3 validate/scripts/merge_ncu.py --records "$out/run/gemm.jsonl" "$out/run/gemv.jsonl" \
      --ncu "$out/run/ncu_raw.csv" --out "$results"
  run env OUT="$out/launch" validate/scripts/device_launch.sh
  run sh -c "python3 validate/scripts/launch_model_check.py $sim $preset $out/launch > $out/launch/model_check.md"
  overhead=$([ "$dry" = 1 ] && echo 0 ||
             sed -n 's/^fixed cost of a kernel that gives every SM a CTA: \([0-9]*\) cycles.*/\1/p' "$out/launch/model_check.md")
  run env OUT="$out/writeback" validate/scripts/device_local_writeback.sh both
  run mkdir -p "$results/local_writeback"
  run sh -c "cp $out/writeback/local_*_run.jsonl $out/writeback/local_*_ncu.csv $out/writeback/local_writeback_env.txt $results/local_writeback/"
  run sh -c "python3 validate/scripts/local_writeback.py $results/local_writeback --fit build/local_writeback $preset > $out/writeback/fit.md"
  dirty=$([ "$dry" = 1 ] && echo "l2.dirty_ways_per_set=K l2.local_dirty_ways_per_set=L" || sed -n 's/^fit: //p' "$out/writeback/fit.md")
else  # HIP (docs: validate/README.md "Running it on another GPU"): time only, no Nsight counters
  run cmake -S . -B build -DGPUMEMSIM_BUILD_HIP=ON
  run cmake --build build --target gms-validate-hip
  run build/gms-validate-hip --set smoke --out "$out/run"
  run build/gms-validate-hip --set ubench --set gemv --set gemm --out "$out/run"
  run python3 validate/scripts/merge_ncu.py --records "$out/run/gemm.jsonl" "$out/run/gemv.jsonl" --out "$results"
  overhead= dirty=
fi
run cp "$out/run/env.txt" "$out/run/preset_lines.yaml" "$results/"
bandwidth=BANDWIDTH  # the preset's resolved dram.bandwidth (a dry run without a build prints the name)
[ -x "$sim" ] && bandwidth=$("$sim" config show --gpu "$preset" | sed -n '/^dram:/,/^[a-z]/s/^  bandwidth: //p' | head -1)
run sh -c "python3 validate/scripts/preset_sets.py $results/preset_lines.yaml --dram-bandwidth $bandwidth \
${overhead:+--kernel-overhead $overhead} > $out/sets.txt"
sets=()
if [ "$dry" = 0 ]; then
  while read -r s; do sets+=(--set "$s"); done < "$out/sets.txt"
else
  sets=(--set "gpu.KEY=VALUE...")
fi
for kv in ${dirty:-}; do sets+=(--set "gpu.$kv"); done
run "$sim" calibrate --gpu "$preset" "${sets[@]}" --holdout 0 --out "configs/gpus/$gpu-measured.yaml" \
    --report "$out/calibrate.json" "$results/gemm" "$results/gemv"
run "$sim" compare --gpu "configs/gpus/$gpu-measured.yaml" "$results/gemm" "$results/gemv" --json "$out/compare.json"
run sh -c "python3 scripts/compare_report.py $out/compare.json > $out/compare.md"
echo "calibrate_gpu.sh: configs/gpus/$gpu-measured.yaml, the scorecard in $out/compare.md"

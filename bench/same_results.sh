#!/usr/bin/env bash
# Do two builds simulate the same? Runs 17 reference workloads with each binary and compares
# stats.json (all but the commit line) and ctas.csv byte for byte. For speed changes, which must not
# move a simulated number (docs/performance.md): `bench/same_results.sh OLD_BINARY NEW_BINARY`.
# Covers the Triton and CUDA GEMVs (MIO queue, compiled reduction, spills, windows), a Triton wgmma
# GEMM and a spilling one (frame swaps, the L1 carve-out, the SM's store rate), seed 002's tiled
# GEMM, the WMMA records (pads 0 and 8), the bench's GEMM on four waves, A100 and Z100 presets, seed
# 000 on the H200 and both trace replays. ~1 minute on 2 cores. Exit 1 on any difference.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 OLD_BINARY NEW_BINARY" >&2
  exit 2
fi
old=$(realpath "$1") new=$(realpath "$2")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
# stats.json but the commit; with METRICS_ONLY=1 its `metrics` object alone (for a change that adds
# configuration keys, which the configuration echo lists), less the metrics whose names match NEW_METRICS (a
# regular expression: for a change that adds metrics).
stats_of() {
  if [ -n "${METRICS_ONLY:-}" ]; then
    python3 -c 'import json, re, sys
m = json.load(open(sys.argv[1]))["metrics"]
new = sys.argv[2]
print(json.dumps({k: v for k, v in m.items() if not (new and re.search(new, k))}, indent=1, sort_keys=True))' "$1" "${NEW_METRICS:-}"
  else
    grep -v '"commit"' "$1"
  fi
}
same() {  # name, gpumemsim arguments...
  local name=$1
  shift
  if ! "$old" "$@" -o "$work/a" -q >/dev/null 2>&1 || ! "$new" "$@" -o "$work/b" -q >/dev/null 2>&1; then
    echo "FAIL $name (a run exited non-zero)"
    status=1
  elif diff <(stats_of "$work/a/stats.json") <(stats_of "$work/b/stats.json") >/dev/null &&
       cmp -s "$work/a/ctas.csv" "$work/b/ctas.csv"; then
    echo "same $name"
  else
    echo "DIFF $name"
    status=1
  fi
  rm -rf "$work/a" "$work/b"
}
h100=validate/results/h100
cal=configs/gpus/h100.yaml
for r in triton_gemv/triton_gemv_1x4096x7168_bn256_bk32_w4_llcc triton_gemv/triton_gemv_1x4096x7168_bn256_bk64_w1_llcc \
         triton_gemv/triton_gemv_1x4096x7168_bn32_bk16_w4_lclc triton_gemv/triton_gemv_1x4096x7168_bn512_bk64_w8_llcc \
         gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc triton_gemm/triton_gemm_4096x4096x4096_128x256x64_w8_s4_grouped8 \
         triton_gemm_spill/triton_gemm_2048x2048x2048_128x256x32_w4_s3_grouped8; do
  same "$r" run -g "$cal" --record "$h100/$r.json"
done
for r in seed002/seed002_r3_bk32 seed002/seed002_r0_naive padding/gemm_8192x8192x8192_grouped8_pad0 \
         padding/gemm_8192x8192x8192_grouped8; do
  same "$r (2 waves)" run -g "$cal" --record "$h100/$r.json" --set workload.cta_limit=264
done
same "bench GEMM (4 waves)" run -g configs/gpus/h100.yaml -w configs/workloads/gemm-8192-grouped8.yaml --set workload.cta_limit=528
same "A100 GEMM (2 waves)" run -g configs/gpus/a100.yaml -w configs/workloads/gemm-8192-grouped8.yaml --set workload.cta_limit=432
same "Z100 GEMV" run -g configs/gpus/z100.yaml -w configs/workloads/seed001-gemv-llcc.yaml
same "seed 000 on H200" run -g configs/gpus/h200.yaml -w configs/workloads/seed000-grouped.yaml
same "b+tree trace" run -g configs/gpus/h100-pcie.yaml -w configs/workloads/traces/btree-h100-pcie.yaml
same "FFMA chain trace" run -g configs/gpus/h100-pcie.yaml -w configs/workloads/traces/ffma-chain-h100-pcie.yaml
exit $status

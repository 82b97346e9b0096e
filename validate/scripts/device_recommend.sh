#!/usr/bin/env bash
# One device call for issue 14's judgement of `gpumemsim recommend`: measures, for every recommend JSON
# under validate/results/<gpu>/recommend/predicted/ (written on the workstation by
#   gpumemsim recommend -g <gpu> --gemm M,N,K --json ...), the top 5 picks, the Triton
# tutorial's autotune list and two left-out spilling tilings, with Triton's tutorial matmul.
#   recommend.jsonl      one line per shape x configuration (recommend_check.py)
#   recommend_env.txt    date, GPU, driver, clocks, power limit, Triton/PyTorch versions, command
# Then on the workstation: validate/scripts/recommend_table.py writes docs/results/recommend-<gpu>.md.
#   PREDICT=BIN device_recommend.sh GPU   first predicts the four shapes here with BIN (a packed build,
#     scripts/pack_for_device.sh: build-device/run) on every core, into $OUT/predicted/ - written before
#     anything is measured - and measures those instead of the committed predictions.
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
gpu=${1:-h100}
predicted=validate/results/$gpu/recommend/predicted
if [ -n "${PREDICT:-}" ]; then
  predicted=$OUT/predicted
  mkdir -p "$predicted"
  for shape in 1024,1024,8192 2048,2048,2048 4096,4096,1024 4096,4096,4096; do
    start=$(date +%s)
    # The printed ranking goes to one log beside the JSON: the call returns 7 files in all (the device tool
    # brings back at most 8).
    "$PREDICT" recommend -g "$gpu" --gemm "$shape" -j "$(nproc)" --top 5 \
      --json "$predicted/rec_${shape//,/x}.json" > /tmp/recommend_table.txt 2>&1
    echo "recommend $gpu $shape exit $? in $(( $(date +%s) - start )) s ($("$PREDICT" --version | head -1))" \
      | tee -a "$predicted/predict_log.txt"
    cat /tmp/recommend_table.txt >> "$predicted/predict_log.txt"
  done
fi
{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm,power.limit --format=csv
  python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
  echo "command: ${PREDICT:+PREDICT=$PREDICT }validate/scripts/device_recommend.sh $gpu"
} > "$OUT/recommend_env.txt" 2>&1
python3 "$here/recommend_check.py" --jsonl "$OUT/recommend.jsonl" "$predicted"/*.json \
  2>> "$OUT/recommend_env.txt"
echo "recommend_check exit $?"

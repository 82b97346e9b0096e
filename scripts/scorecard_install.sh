#!/usr/bin/env bash
# scripts/scorecard_install.sh DIR GPU...: installs the whole scorecards a device run made (scripts/device_scorecard.sh
# GPU, its $OUT fetched into DIR) as the committed ones: DIR/GPU.json, DIR/GPU-canary.json and DIR/GPU_env.txt become
# docs/results/GPU-compare.json.xz, GPU-canary.json.xz and GPU-compare_env.txt. First, for every GPU, this machine's
# build must replay the canary to the device's numbers, digit for digit (what CI's Fidelity.ScorecardIsTheModels.GPU
# checks), and score every committed record from the card (a record the card lacks is an error); if any GPU fails,
# nothing is installed. GPUMEMSIM (default build/gpumemsim), DEST (default docs/results) and CANARY (default
# docs/results/GPU-canary.txt; GPU replaced) may be set, for tests.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/scorecard_install.sh DIR GPU...}
shift
[ $# -gt 0 ] || { echo "usage: scripts/scorecard_install.sh DIR GPU..." >&2; exit 2; }
bin=${GPUMEMSIM:-build/gpumemsim}
dest=${DEST:-docs/results}
for gpu in "$@"; do
  for f in "$dir/$gpu.json" "$dir/$gpu-canary.json" "$dir/${gpu}_env.txt"; do
    [ -f "$f" ] || { echo "scorecard_install: $f is missing (scripts/device_scorecard.sh $gpu writes it)" >&2; exit 2; }
  done
  list=${CANARY:-docs/results/GPU-canary.txt}
  mapfile -t canary < <(grep -v '^#' "${list//GPU/$gpu}")
  if ! "$bin" compare --gpu "configs/gpus/$gpu.yaml" "${canary[@]}" --sample-waves 2 --jobs "$(nproc)" \
       --expect-simulated "$dir/$gpu-canary.json" > "$dir/$gpu-canary-check.txt" 2>&1; then
    echo "scorecard_install: this build does not replay $dir/$gpu-canary.json to the same numbers (a different model," \
         "or a machine that computes differently): $dir/$gpu-canary-check.txt" >&2
    exit 1
  fi
  sets=()
  for s in $(grep -v '^#' validate/results/scorecard_sets.txt); do
    [ -d "validate/results/$gpu/$s" ] && sets+=("validate/results/$gpu/$s")
  done
  [ -n "${CANARY:-}" ] && sets=("${canary[@]}")  # a test's card holds only its canary's records
  "$bin" compare --gpu "configs/gpus/$gpu.yaml" "${sets[@]}" --simulated "$dir/$gpu.json" > /dev/null
done
mkdir -p "$dest"
for gpu in "$@"; do
  xz -9 -c "$dir/$gpu.json" > "$dest/$gpu-compare.json.xz"
  xz -9 -c "$dir/$gpu-canary.json" > "$dest/$gpu-canary.json.xz"
  cp "$dir/${gpu}_env.txt" "$dest/$gpu-compare_env.txt"
  echo "scorecard_install: $gpu installed in $dest (canary replayed to the same numbers)"
done

#!/usr/bin/env bash
# scripts/scorecard_install.sh on a small device run of its own making (two GEMV records): installed when this build
# replays the canary to the same numbers; nothing installed when the canary was moved, or a file is missing.
set -euo pipefail
bin=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/run"
cd "$src"
printf '# test canary\nvalidate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc.json\nvalidate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w8_lclc.json\n' \
  > "$work/h100-canary.txt"
mapfile -t records < <(grep -v "^#" "$work/h100-canary.txt")
"$bin" compare --gpu configs/gpus/h100.yaml "${records[@]}" --jobs 2 --json "$work/run/h100.json" > /dev/null
"$bin" compare --gpu configs/gpus/h100.yaml "${records[@]}" --sample-waves 2 --jobs 2 --json "$work/run/h100-canary.json" > /dev/null
echo "binary: test" > "$work/run/h100_env.txt"
export GPUMEMSIM=$bin CANARY=$work/GPU-canary.txt
DEST=$work/dest scripts/scorecard_install.sh "$work/run" h100
cmp <(xz -dc "$work/dest/h100-compare.json.xz") "$work/run/h100.json"
cmp <(xz -dc "$work/dest/h100-canary.json.xz") "$work/run/h100-canary.json"
cmp "$work/dest/h100-compare_env.txt" "$work/run/h100_env.txt"
# A canary value moved by one part in 10^9: refused, nothing installed.
python3 - "$work/run/h100-canary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
m = d["cases"][0]["metrics"]["gpu__time_duration.sum"]
m["simulated"] *= 1 + 1e-9
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
if DEST=$work/moved scripts/scorecard_install.sh "$work/run" h100 2> "$work/moved.err"; then
  echo "a moved canary was installed" >&2; exit 1
fi
grep -q "does not replay" "$work/moved.err"
[ ! -e "$work/moved" ]
# A missing file: a usage error (exit 2).
rm "$work/run/h100_env.txt"
set +e
DEST=$work/missing scripts/scorecard_install.sh "$work/run" h100 2> /dev/null
rc=$?
set -e
[ $rc -eq 2 ] && [ ! -e "$work/missing" ]
echo "scorecard_install: all checks passed"

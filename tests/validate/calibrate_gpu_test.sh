#!/usr/bin/env bash
# Issue 11: validate/scripts/calibrate_gpu.sh, the one command that calibrates a GPU without records
# (A100, T4, Z100). Without such a GPU here: every step it would run exists, and its tail - the runner's
# measured preset lines written into a preset copy by `gpumemsim calibrate --set`, nothing fitted - runs
# on a committed record. Usage: calibrate_gpu_test.sh GPUMEMSIM SOURCE_DIR WORK_DIR
set -euo pipefail
sim=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cd "$src"
for gpu in a100 t4 z100; do
  bash validate/scripts/calibrate_gpu.sh "$gpu" --dry-run > "$work/$gpu.txt"
  # every script a step names is in the tree
  for f in $(grep -o '\(validate\|scripts\)/[A-Za-z0-9_/]*\.\(sh\|py\)' "$work/$gpu.txt" | sort -u); do
    [ -f "$f" ] || { echo "calibrate_gpu.sh $gpu runs $f, which does not exist"; exit 1; }
  done
  grep -q "calibrate --gpu configs/gpus/$gpu.yaml" "$work/$gpu.txt"
done
# A preset without its file is refused (exit 2).
if bash validate/scripts/calibrate_gpu.sh no_such_gpu --dry-run 2> /dev/null; then echo "no_such_gpu accepted"; exit 1; fi
# The H100's measured lines as --set values, written into the A100 preset's copy.
python3 validate/scripts/preset_sets.py validate/results/h100/preset_lines.yaml --dram-bandwidth 1.555TB/s \
    --kernel-overhead 4697 > "$work/sets.txt"
grep -qx "gpu.l2.hit_latency=283cycles" "$work/sets.txt"
grep -qx "gpu.launch.kernel_overhead=4697cycles" "$work/sets.txt"
sets=()
while read -r s; do sets+=(--set "$s"); done < "$work/sets.txt"
"$sim" calibrate --gpu configs/gpus/a100.yaml "${sets[@]}" --holdout 0 --jobs 1 --out "$work/a100-measured.yaml" \
    validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc.json > "$work/calibrate.txt"
grep -q "^  hit_latency: 283cycles .*# calibrated (see header); was 206cycles" "$work/a100-measured.yaml"
grep -q "^# Set launch.kernel_overhead: 0cycles -> 4697cycles (--set, not fitted)" "$work/a100-measured.yaml"
"$sim" config show --gpu "$work/a100-measured.yaml" > /dev/null
# A malformed line is one clear error (exit 2).
printf 'l2: {hit_latency 283cycles}\n' > "$work/bad.yaml"
set +e
python3 validate/scripts/preset_sets.py "$work/bad.yaml" --dram-bandwidth 1TB/s 2> "$work/bad.txt"
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "line 1" "$work/bad.txt"
# Fuzzed: 150 files of random lines (flow maps, comments, junk) - each parses (exit 0, every output a
# gpu.KEY=V line) or is refused with one message (exit 2), never a traceback.
python3 - "$work" <<'PY'
import random, subprocess, sys
rng = random.Random(11)
atoms = ["l2", "dram", "sm", ":", "{", "}", ",", " ", "hit_latency", "283cycles", "# dram read 3084 GB/s", "#", "x: 1",
         "\t", "launch", "kernel_overhead", "9", "GB/s", "é", "{a: }", "{: b}"]
for n in range(150):
    text = "\n".join("".join(rng.choice(atoms) for _ in range(rng.randint(0, 8))) for _ in range(rng.randint(0, 5)))
    path = f"{sys.argv[1]}/fuzz.yaml"
    open(path, "w").write(text)
    r = subprocess.run([sys.executable, "validate/scripts/preset_sets.py", path, "--dram-bandwidth", "1TB/s"],
                       capture_output=True, text=True)
    ok = (r.returncode == 0 and all(l.startswith("gpu.") and "=" in l for l in r.stdout.splitlines())) or \
         (r.returncode == 2 and r.stderr.count("\n") == 1 and not r.stdout)
    if not ok:
        sys.exit(f"preset_sets.py on {text!r}: exit {r.returncode}\n{r.stdout}{r.stderr}")
PY
echo "calibrate_gpu.sh: dry runs and the measured preset's tail pass"

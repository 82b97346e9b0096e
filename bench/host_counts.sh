#!/usr/bin/env bash
# How much host work does a build spend per simulated L2 line request? Counts, under valgrind's cachegrind,
# the host instructions, L1 data misses and misses of a 2 MiB last level (a server core's private L2) of one
# `gpumemsim run` - by default the bench's 8192^3 GEMM on its first 132 CTAs, one thread - and divides them by
# the run's L2 read requests (`lts__t_requests_srcunit_tex_op_read.sum`). The counts are exact and repeat
# bit for bit, where wall time on a shared VM moves 10-50 % from run to run (docs/performance.md, "Host
# instructions per line request"): a speed change that saves instructions or misses shows here at once.
#   bench/host_counts.sh BINARY [BINARY...]            one row per binary (~70 s each on 2 cores, in parallel)
#   WORKLOAD=... SETS="--set workload.cta_limit=264" bench/host_counts.sh BINARY
# Needs valgrind (apt-get install valgrind). Exit 2 on a usage error.
set -uo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 BINARY [BINARY...]" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "$0: valgrind not found (apt-get install valgrind)" >&2; exit 2; }
bins=()
for b in "$@"; do
  [ -x "$b" ] || { echo "$0: $b: not an executable" >&2; exit 2; }
  bins+=("$(realpath "$b")")
done
cd "$(dirname "$0")/.."
gpu=${GPU:-configs/gpus/h100.yaml}
workload=${WORKLOAD:-configs/workloads/gemm-8192-grouped8.yaml}
read -r -a sets <<<"${SETS:---set workload.cta_limit=132}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for i in "${!bins[@]}"; do
  valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=2097152,16,64 \
    --cachegrind-out-file="$work/cg.$i" "${bins[$i]}" run -q -g "$gpu" -w "$workload" "${sets[@]}" --threads 1 \
    -o "$work/out.$i" >"$work/log.$i" 2>&1 &
done
wait
printf '%-40s %14s %12s %12s %10s %10s %10s\n' binary 'instructions' 'D1 misses' 'LL misses' 'instr/req' 'D1/req' 'LL/req'
status=0
for i in "${!bins[@]}"; do
  if [ ! -f "$work/out.$i/stats.json" ]; then
    echo "$0: ${bins[$i]} did not finish:" >&2
    tail -5 "$work/log.$i" >&2
    status=1
    continue
  fi
  python3 - "$work/log.$i" "$work/out.$i/stats.json" "${bins[$i]}" <<'PY' || status=1
import json, re, sys
log = open(sys.argv[1]).read()
def total(name):
    m = re.search(r"==\d+== " + name + r":\s+([\d,]+)", log)
    return int(m.group(1).replace(",", ""))
ir, d1, ll = total("I +refs"), total("D1 +misses"), total("LL misses")
stats = json.load(open(sys.argv[2]))
metrics = stats.get("metrics", stats)
req = metrics["lts__t_requests_srcunit_tex_op_read.sum"]
if not req:
    sys.exit(f"{sys.argv[3]}: the run made no L2 read requests (a workload without global loads?)")
print(f"{sys.argv[3][-40:]:<40} {ir:>14,} {d1:>12,} {ll:>12,} {ir / req:>10.0f} {d1 / req:>10.2f} {ll / req:>10.2f}")
PY
done
exit $status

#!/usr/bin/env bash
# Issue 14: `mpirun -n N gpumemsim sweep` equals the single-process sweep bit for bit for N = 1, 2, 3
# (ranks on localhost, oversubscribed), --resume keeps the rows an interrupted run finished, and
# compare / calibrate / recommend under mpirun give the single-process report, fitted file and ranking.
# usage: sweep_ranks_test.sh GPUMEMSIM SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# CI containers run as root; Open MPI refuses that unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
args=(-g "$src/configs/gpus/h100.yaml" -g "$src/configs/gpus/h200.yaml"
      -w "$src/configs/workloads/gemm-8192-grouped8.yaml"
      --set workload.m=2048 --set workload.n=1536 --set workload.k=512
      --grid workload.cta_order.group_m=1,4,8 --grid workload.warps=4,8)
"$bin" sweep "${args[@]}" -o "$work/single" -j 2 >/dev/null 2>&1
test "$(wc -l < "$work/single/sweep.csv")" -eq 13   # header + 2 GPUs x 3 x 2
if ! command -v mpirun >/dev/null; then echo "mpirun not found"; exit 77; fi
for n in 1 2 3; do
  mpirun -n $n "$bin" sweep "${args[@]}" -o "$work/mpi$n" -j 1 >"$work/mpi$n.log" 2>&1 || { cat "$work/mpi$n.log"; exit 1; }
  cmp "$work/single/sweep.csv" "$work/mpi$n/sweep.csv"
  cmp "$work/single/sweep.md" "$work/mpi$n/sweep.md"
  test ! -e "$work/mpi$n/sweep.partial.csv"
done
grep -q "(12 points, 3 ranks)" "$work/mpi3.log"
# Resume: a run killed after 4 rows (the 5th cut off mid-line). The kept rows are reused as they are
# (one is marked so that recomputing it would show), the rest are simulated.
mkdir "$work/resume"
{ head -n 5 "$work/single/sweep.csv" | sed -E '3s/^(([^,]*,){3})[^,]*/\112345/'; sed -n 6p "$work/single/sweep.csv" | head -c 20; } \
  > "$work/resume/sweep.partial.csv"
mpirun -n 2 "$bin" sweep "${args[@]}" -o "$work/resume" -j 1 --resume >"$work/resume.log" 2>&1 || { cat "$work/resume.log"; exit 1; }
grep -q "resuming: 4 of 12 points already done" "$work/resume.log"
diff <(sed 3d "$work/single/sweep.csv") <(sed 3d "$work/resume/sweep.csv")
sed -n 3p "$work/resume/sweep.csv" | grep -q ",12345,"
# A partial file of another sweep is refused (exit 2), not mixed in.
printf 'other,header\n' > "$work/resume/sweep.partial.csv"
set +e
"$bin" sweep "${args[@]}" -o "$work/resume" -j 1 --resume >"$work/bad.log" 2>&1
rc=$?
set -e
test $rc -eq 2 && grep -q "belongs to another sweep" "$work/bad.log"
# compare and calibrate: every rank replays its share of the records and gets all results; rank 0
# reports. Same report and same fitted file as one process.
recs=("$src"/validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w{1_lclc,2_lclc,4_llcc,8_llcc}.json)
"$bin" compare -g h100 "${recs[@]}" -j 2 --json "$work/cmp1.json" >"$work/cmp1.txt" 2>/dev/null
mpirun -n 3 "$bin" compare -g h100 "${recs[@]}" -j 1 --json "$work/cmp3.json" >"$work/cmp3.txt" 2>/dev/null
cmp "$work/cmp1.json" "$work/cmp3.json"
cmp "$work/cmp1.txt" "$work/cmp3.txt"
fit=(-g h100 "${recs[@]}" --fit dram.efficiency=0.6:1 --holdout 0 --max-evals 6)
"$bin" calibrate "${fit[@]}" -j 2 -o "$work/cal1.yaml" --report "$work/cal1.json" >/dev/null 2>&1
mpirun -n 2 "$bin" calibrate "${fit[@]}" -j 1 -o "$work/cal2.yaml" --report "$work/cal2.json" >/dev/null 2>&1
cmp "$work/cal1.yaml" "$work/cal2.yaml"
cmp "$work/cal1.json" "$work/cal2.json"
grep -q "Fitted dram.efficiency: 0.905 -> " "$work/cal1.yaml"
# recommend: the candidates over ranks; the same ranking, table and JSON as one process.
rec=(recommend -g h100 --gemm 1024,1024,512 --tiles 64x128x64,128x128x64 --warps 4,8 --stages 3 --group-m 8)
"$bin" "${rec[@]}" -j 2 --json "$work/rec1.json" >"$work/rec1.txt" 2>/dev/null
mpirun -n 3 "$bin" "${rec[@]}" -j 1 --json "$work/rec3.json" >"$work/rec3.txt" 2>/dev/null
cmp "$work/rec1.json" "$work/rec3.json"
cmp "$work/rec1.txt" "$work/rec3.txt"
grep -q "4 simulated" "$work/rec1.txt"
# Commands that do not split over ranks refuse to run under mpirun rather than repeat the job per rank.
set +e
mpirun -n 2 "$bin" run -g h100 -w "$src/configs/workloads/gemm-8192-grouped8.yaml" >"$work/run.log" 2>&1
rc=$?
set -e
test $rc -ne 0 && grep -q "does not split over MPI ranks" "$work/run.log"
echo "sweep ranks test: ok"

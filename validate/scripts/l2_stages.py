#!/usr/bin/env python3
"""How busy each L2 stage is under the Triton GEMMs (validate/scripts/device_l2_stages.sh), beside the model's.

Per case (the `profiled NAME` lines of the ncu file name its rows, in order): time, L2 read lookups TB/s, the L2 ->
crossbar stage (lts__lts2xbar_cycles_active), the tag stage (lts__t_tag_requests), the data array (lts__d_sectors),
the crossbar -> L2 input (lts__xbar2lts_cycles_active), the read hit rate, DRAM GB, SM clock, tensor pipe. With
--model CASE=DIR (a `gpumemsim run` output of that case's record), the model's tag stage and its slices' data stage
(gpumemsim__l2_slice_data_busy.pct) beside; silicon's L2 -> crossbar stage caps at ~0.9 of its peak where the
model's data stage caps at 1.0 (validate/results/h200/l2_mix), so the column `/0.9` is silicon's on the model's scale.

  l2_stages.py validate/results/h200/l2_stages [--model triton_gemm_8192x8192x8192_128x128x64_w4_s3_row_major=DIR ...]
  l2_stages.py DIR --check    # exit 1 unless every 128x128x64 case (cp.async, TMA) keeps silicon's L2 -> crossbar
                              # stage at >= 85 % of what it carries (/0.9): the load the model's slices run at
"""
import argparse
import csv
import json
import sys

STAGE = "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"
TAG = "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed"
SILICON_CAP = 0.9  # L2 -> crossbar busy where hits alone saturate it (l2_mix: 88.5-91.7 %)


def cases(directory):
    lines = open(f"{directory}/l2_stages_ncu.csv").read().splitlines()
    names = [l.split()[1] for l in lines if l.startswith("profiled ")]
    head, rows = None, []
    for r in csv.reader(l for l in lines if l.startswith('"')):
        if r[0] == "ID":
            head = r
        elif head and r[0].isdigit():
            rows.append({k: v for k, v in zip(head, r)})
    if len(names) != len(rows):
        sys.exit(f"l2_stages.py: {len(names)} cases named but {len(rows)} profiled in {directory}")
    num = lambda d, k: float(d[k].replace(",", ""))
    out = {}
    for name, d in zip(names, rows):
        t = num(d, "gpu__time_duration.sum") * 1e-9
        out[name] = {"time ms": t * 1e3, "L2 reads TB/s": num(d, "lts__t_sectors_op_read.sum") * 32 / t / 1e12,
                     "L2->xbar %": num(d, STAGE), "L2->xbar /0.9": num(d, STAGE) / SILICON_CAP, "tags %": num(d, TAG),
                     "data array %": num(d, "lts__d_sectors.avg.pct_of_peak_sustained_elapsed"),
                     "xbar->L2 %": num(d, "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed"),
                     "read hit %": num(d, "lts__t_sector_op_read_hit_rate.pct"), "DRAM GB": num(d, "dram__bytes_read.sum") / 1e9,
                     "SM MHz": num(d, "sm__cycles_elapsed.avg.per_second") / 1e6,
                     "tensor %": num(d, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active")}
    return out


def model(directory):
    m = json.load(open(f"{directory}/stats.json"))
    m = m.get("metrics", m)
    g = lambda k: m[k]["value"] if isinstance(m[k], dict) else m[k]
    return {"model time ms": g("gpu__time_duration.sum") * 1e-6, "model data stage %": g("gpumemsim__l2_slice_data_busy.pct"),
            "model tags %": g(TAG), "model read hit %": g("lts__t_sector_op_read_hit_rate.pct"),
            "model MHz": g("sm__cycles_elapsed.avg.per_second") / 1e6}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--model", action="append", default=[], help="CASE=DIR: the model's run of that case")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    table = cases(a.dir)
    for spec in a.model:
        name, _, d = spec.partition("=")
        if name not in table:
            sys.exit(f"l2_stages.py: no case {name} in {a.dir}")
        table[name].update(model(d))
    cols = []
    for r in table.values():
        cols += [c for c in r if c not in cols]
    print("| case | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols))
    for name, r in table.items():
        short = name.replace("triton_gemm_", "").replace("triton_tma_gemm_", "tma ")
        print(f"| {short} | " + " | ".join(f"{r[c]:.2f}" if c in r else "-" for c in cols) + " |")
    if not a.check:
        return 0
    big = {n: r for n, r in table.items() if "_128x128x64_" in n}
    bad = [n for n, r in big.items() if r["L2->xbar /0.9"] < 85]
    for n in bad:
        print(f"off: {n}: L2 -> crossbar at {big[n]['L2->xbar /0.9']:.1f} % of its ceiling")
    ok = len(big) >= 4 and not bad
    print("check passed" if ok else f"check failed ({len(big)} 128x128x64 cases)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

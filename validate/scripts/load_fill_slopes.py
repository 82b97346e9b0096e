#!/usr/bin/env python3
"""What a global load's data (LDG into registers) costs the SM's shared-memory data path, from gms-fill-ubench --loads.

Per pattern (reader pitch, load flavour .cg / .ca / .cg_dram, bytes per lane): the ldmatrix readers' cycles grow
with the loads that share the path with them; the least-squares slope of reader cycles over LDG per SM is the path
cycles one load takes, and bytes per warp over it the rate (128 bytes a cycle: one data-stage wavefront a 128
bytes, ncu's l1tex__data_pipe_lsu_wavefronts_mem_lgds). Also the loaders' own cycles per LDG alone and beside the
readers at the sweep's largest point, and ncu's wavefronts per LDG for the profiled launches.

  load_fill_slopes.py validate/results/h200/load_fill/load_fill_run.jsonl
  load_fill_slopes.py FILE --check configs/gpus/h200.yaml   # the preset's sm.load_data_bytes_per_cycle is the
                                                            # median rate, within 10 %
"""
import argparse
import csv
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fill_slopes import preset_rate, slope  # noqa: E402  the copies' sweep's slope and preset reader



def patterns(path):
    groups = {}
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("measure") != "load_mix":
            continue
        g = groups.setdefault((r["pitch"], r["load"], r["bytes_per_lane"]), {"mixed": [], "alone": []})
        if r["ldmatrix_per_sm"] > 0:
            g["mixed"].append((r["ldg_per_sm"], r["reader_cycles"], r["loader_cycles"]))
        else:
            g["alone"].append((r["ldg_per_sm"], r["loader_cycles"]))
    rows = []
    for (pitch, load, bpl), g in sorted(groups.items(), key=lambda kv: (kv[0][1], -kv[0][2], kv[0][0])):
        # Only points where the loaders finished before the readers: the path was shared throughout.
        pts = [(n, rc) for n, rc, lc in g["mixed"] if n == 0 or lc < rc]
        if len(pts) < 2 or not any(n == 0 for n, _ in pts):
            continue
        big = max(g["mixed"])
        alone = max(g["alone"]) if g["alone"] else None
        cost = slope(pts)
        rows.append(dict(pitch=pitch, load=load, bytes=32 * bpl, cost=cost, rate=32 * bpl / cost,
                         beside=big[2] / big[0] if big[0] else float("nan"),
                         alone=alone[1] / alone[0] if alone else float("nan")))
    return rows


def ncu_wavefronts(folder):
    """Per profiled kernel: data-stage wavefronts of global/local data (mem_lgds) per global load instruction."""
    path = os.path.join(folder, "load_fill_ncu.csv")
    if not os.path.exists(path):
        return []
    per = {}
    for r in csv.reader(open(path)):
        if len(r) > 14 and r[12] != "Metric Name":
            per.setdefault(r[4], {})[r[12]] = float(r[14].replace(",", ""))
    out = []
    for kernel, m in per.items():
        ldg = m.get("smsp__sass_inst_executed_op_global_ld.sum")
        lgds = m.get("l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum")
        if ldg and lgds is not None:
            out.append((re.sub(r"\(.*", "", kernel.replace("void <unnamed>::", "")), ldg, lgds / ldg))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="load_fill_run.jsonl of validate/scripts/device_load_fill.sh")
    ap.add_argument("--check", metavar="PRESET", help="require the preset's sm.load_data_bytes_per_cycle to match")
    a = ap.parse_args()
    rows = patterns(a.run)
    if not rows:
        print(f"load_fill_slopes.py: no usable load_mix sweep in {a.run}", file=sys.stderr)
        return 2
    print("| ldmatrix rows (B apart) | load | bytes a warp | path cycles per LDG | bytes per path cycle | "
          "loaders' cycles per LDG beside the readers | alone |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['pitch']} | .{r['load']} | {r['bytes']} | {r['cost']:.2f} | {r['rate']:.0f} | {r['beside']:.1f} | "
              f"{r['alone']:.1f} |")
    med = statistics.median(r["rate"] for r in rows)
    print(f"median: {med:.0f} bytes of load data per data-path cycle")
    waves = ncu_wavefronts(os.path.dirname(os.path.abspath(a.run)))
    if waves:
        print()
        print("| profiled kernel (readers beside 512 loads a warp) | LDG | mem_lgds wavefronts per LDG |")
        print("|---|---|---|")
        for k, n, w in waves:
            print(f"| {k} | {n:.0f} | {w:.2f} |")
    if a.check:
        rate = preset_rate(a.check, "load_data_bytes_per_cycle")
        if rate is None or rate <= 0:
            print(f"CHECK FAILED: {a.check} sets no sm.load_data_bytes_per_cycle", file=sys.stderr)
            return 1
        if abs(rate - med) > 0.1 * med:
            print(f"CHECK FAILED: {a.check}: load_data_bytes_per_cycle {rate:g}; measured {med:.0f}", file=sys.stderr)
            return 1
        print(f"check passed: {a.check}: {rate:g} bytes per cycle (measured {med:.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

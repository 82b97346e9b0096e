#!/usr/bin/env python3
"""The CUDA GEMV's atomics taken apart (validate/scripts/device_gemv_atomics.sh): per case, each part's
median kernel time and its cost over the `stores` part (the same program with plain stores), and
from the Nsight Compute pass the reductions' L2 sectors and requests, the slices' crossbar-input
activity, DRAM throughput and the warps' lg_throttle / drain / barrier shares.

    validate/scripts/gemv_atomics_table.py validate/results/h100/gemv_atomics [--run gemv_atomics_run1] [--check]

--check: exit 1 unless, in every case, the reductions cost the 1- and 2-warp programs at least 5 % over
stores and the same adds in an eighth of the requests (redcoalesced) cost within 2 % of stores (both
GPUs); --check-warps adds what the H100 shows and the H200 does not: the 8-warp programs' cost under a
third of the 1-warp ones', and (where measured) their reductions to lines of their own (redprivate)
costing at least 3x those to the shared y (validate/results/h100/gemv_atomics/README.md).
"""
import argparse
import csv
import json
import re
import sys
from pathlib import Path

PARTS = {0: "full", 3: "stores", 4: "redspread", 5: "redcoalesced", 6: "redonce", 7: "redprivate"}
NCU = [("lts__t_sectors_op_red.sum", "RED sectors", 1e-6, "%.2f M"),
       ("lts__t_requests_op_red.sum", "RED requests", 1e-6, "%.3f M"),
       ("lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed", "xbar2lts %", 1, "%.1f"),
       ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM %", 1, "%.1f"),
       ("smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct", "lg_throttle %", 1, "%.1f"),
       ("smsp__warp_issue_stalled_drain_per_warp_active.pct", "drain %", 1, "%.1f"),
       ("smsp__warp_issue_stalled_barrier_per_warp_active.pct", "barrier %", 1, "%.1f")]


def ncu_rows(path):
    lines = path.read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    hdr, out = rows[0], {}
    for r in rows[2:]:
        m = re.search(r"<256, 64, (\d+), (\d)(?:, (\d))?>", r[hdr.index("Kernel Name")])
        if not m:
            continue
        key = (int(m.group(1)) // 32, "llcc" if m.group(2) == "0" else "lclc", PARTS[int(m.group(3) or 0)])
        out[key] = {k: float(r[hdr.index(k)].replace(",", "")) for k, *_ in NCU if k in hdr}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--run", default="gemv_atomics", help="file stem of the run (default gemv_atomics)")
    ap.add_argument("--check", action="store_true", help="exit 1 unless the README's findings hold")
    ap.add_argument("--check-warps", action="store_true", help="with --check: the H100's fall with warps too")
    a = ap.parse_args()
    times = {}
    for line in (a.dir / f"{a.run}.jsonl").read_text().splitlines():
        r = json.loads(line)
        m = re.search(r"_w(\d)_(llcc|lclc)$", r["case"])
        times[(int(m.group(1)), m.group(2), r["part"])] = r["median_ns"] / 1e3
    ncu_path = a.dir / f"{a.run}_ncu.csv"
    ncu = ncu_rows(ncu_path) if ncu_path.exists() else {}
    cols = ["case", "part", "us", "over stores"] + [n for _, n, *_ in NCU]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for (w, order, part), us in sorted(times.items(), key=lambda kv: (kv[0][0], kv[0][1], list(PARTS.values()).index(kv[0][2]))):
        base = times.get((w, order, "stores"))
        n = ncu.get((w, order, part), {})
        cells = [f"w{w} {order}", part, f"{us:.1f}", f"{us - base:+.1f}" if base else "-"]
        cells += [(fmt % (n[k] * s)) if k in n else "-" for k, _, s, fmt in NCU]
        print("| " + " | ".join(cells) + " |")
    if a.check:
        failures = check(times, a.check_warps)
        for f in failures:
            print("CHECK FAILED:", f)
        if failures:
            sys.exit(1)
        print("check: the findings hold")


def check(times, warps):
    out = []

    def over(w, order, part):
        return times[(w, order, part)] / times[(w, order, "stores")] - 1

    for order in ("llcc", "lclc"):
        for w in (1, 2):
            if over(w, order, "full") < 0.05:
                out.append(f"w{w} {order}: full only {over(w, order, 'full'):+.1%} over stores")
        for w in (1, 2, 4, 8):
            if abs(over(w, order, "redcoalesced")) > 0.02:
                out.append(f"w{w} {order}: redcoalesced {over(w, order, 'redcoalesced'):+.1%} over stores")
        if not warps:
            continue
        if over(8, order, "full") > over(1, order, "full") / 3:
            out.append(f"{order}: w8 full {over(8, order, 'full'):+.1%} not under a third of w1's {over(1, order, 'full'):+.1%}")
        if (8, order, "redprivate") in times and over(8, order, "redprivate") < 3 * over(8, order, "full"):
            out.append(f"{order}: w8 redprivate {over(8, order, 'redprivate'):+.1%} under 3x full's {over(8, order, 'full'):+.1%}")
    return out


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reads device_launch.sh's results: per empty grid of gms-cta-ubench, the duration ncu gives one
kernel (gpu__time_duration.sum, the time every record scores) and its elapsed SM cycles, medians over
the last 5 of each grid's 6 profiled launches; beside them the event-timed back-to-back launches.
The grid of one CTA is the fixed cost of a kernel (launch.kernel_overhead stands for it); the slope
over CTAs per SM is the per-CTA cost (launch.cta_dispatch_interval).

  launch_cost.py DIR [--json OUT.json]     (launch_ubench.jsonl, launch_ncu.csv)"""
import csv
import io
import json
import os
import statistics
import sys

SCALE = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}


def ncu_table(path):
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    table = list(csv.reader(io.StringIO("".join(lines))))
    if len(table) < 2:
        sys.exit(f"launch_cost: no ncu rows in {path}")
    header, units = table[0], table[1]
    return [dict(zip(header, r)) for r in table[2:]], dict(zip(header, units))


def num(row, key, units=None):
    """The row's value of `key`; with `units` (ncu's units row), a time converted to ns."""
    v = row.get(key, "")
    if v in ("", "n/a"):
        return float("nan")
    x = float(v.replace(",", ""))
    return x * SCALE.get(units.get(key), 1.0) if units else x  # a time in ns, whatever unit ncu printed


def profiled_grids(rows, units):
    """Per (grid, threads), in launch order: medians of the last 5 of its 6 profiled launches (the
    first warms the grid's code and state)."""
    groups = {}
    for r in rows:
        groups.setdefault((r["Grid Size"], r["Block Size"]), []).append(r)
    out = []
    for (grid, block), rs in groups.items():
        if len(rs) != 6:
            sys.exit(f"launch_cost: grid {grid} block {block}: {len(rs)} profiled launches, expected 6")
        kept = rs[1:]
        out.append({"grid": int(grid.strip("()").split(",")[0]), "threads": int(block.strip("()").split(",")[0]),
                    "ncu_ns": statistics.median(num(r, "gpu__time_duration.sum", units) for r in kept),
                    "sm_cycles_elapsed_max": statistics.median(num(r, "sm__cycles_elapsed.max") for r in kept),
                    "sm_hz": statistics.median(num(r, "sm__cycles_elapsed.avg.per_second") for r in kept)})
    return out


def print_shared_slopes(rows):
    """Per shared-memory size: time per launch at each CTAs-per-SM count, and the slope from 16 to 256
    CTAs per SM - the cost of one more CTA on every SM, where launches no longer hide it."""
    by = {}
    for r in rows:
        by.setdefault(r["shared_bytes"], {})[r["ctas_per_sm"]] = r["ns"]
    counts = sorted({r["ctas_per_sm"] for r in rows})
    print("\n| shared memory per CTA (bytes) | " + " | ".join(f"{c} CTAs/SM (ns)" for c in counts) +
          " | ns per added CTA per SM (16 -> 256) |")
    print("|---|" + "---|" * (len(counts) + 1))
    for b in sorted(by):
        t = by[b]
        slope = (t[256] - t[16]) / (256 - 16) if 16 in t and 256 in t else float("nan")
        print(f"| {b} | " + " | ".join(f"{t.get(c, float('nan')):.0f}" for c in counts) + f" | {slope:.1f} |")


def main():
    args = sys.argv[1:]
    out_json = None
    if "--json" in args:
        i = args.index("--json")
        out_json = args[i + 1]
        del args[i:i + 2]
    d = args[0] if args else "."
    rows, units = ncu_table(os.path.join(d, "launch_ncu.csv"))
    events = {}
    for l in open(os.path.join(d, "launch_ubench.jsonl")):
        if l.strip():
            e = json.loads(l)
            events[(e["grid"], e["threads"])] = e["ns"]
    result = profiled_grids(rows, units)
    for r in result:
        r["event_ns_back_to_back"] = events.get((r["grid"], r["threads"]))
    print("| grid | threads | ncu gpu__time_duration (ns) | sm__cycles_elapsed.max | SM clock (MHz) | event-timed, back to back (ns) |")
    print("|---|---|---|---|---|---|")
    for r in result:
        ev = f"{r['event_ns_back_to_back']:.0f}" if r["event_ns_back_to_back"] else "-"
        print(f"| {r['grid']} | {r['threads']} | {r['ncu_ns']:.0f} | {r['sm_cycles_elapsed_max']:.0f} | "
              f"{r['sm_hz'] / 1e6:.0f} | {ev} |")
    smem = os.path.join(d, "launch_smem.jsonl")
    if os.path.exists(smem):
        print_shared_slopes([json.loads(l) for l in open(smem) if l.strip()])
    if out_json:
        with open(out_json, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()

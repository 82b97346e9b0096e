#!/usr/bin/env python3
"""Each SM's share of a contended DRAM, from `gms-gpc-ubench contention` (validate/scripts/device_gpc_contention.sh).

Per set of gpc_contention_run.jsonl (medians of its repetitions): the SMs' GB/s in all, the mean GB/s of
the SMs the x4 stream found ahead (its `ahead_at_x4` line) and of the rest, their ratio; and the set's
DRAM read rate under ncu (gpc_contention_ncu.csv: the same binary run again, its stream launches in order
beside the JSON lines it printed). Prints a markdown table.

  gpc_split.py validate/results/h100/gpc
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_launches import json_lines, paired, profiles  # noqa: E402


def split_rows(runs):
    ahead = next((set(r["ahead_at_x4"]) for r in runs if "ahead_at_x4" in r), set())
    sets = {}
    for r in runs:
        if "set" not in r:
            continue
        gbps = {int(k): v for k, v in r["gbps"].items()}
        fast = [v for k, v in gbps.items() if k in ahead]
        rest = [v for k, v in gbps.items() if k not in ahead]
        sets.setdefault(r["set"], []).append((len(gbps), sum(gbps.values()), statistics.mean(fast) if fast else None,
                                              statistics.mean(rest) if rest else None))
    return ahead, sets


def ncu_dram_tbps(path):
    """Per set, the median DRAM read TB/s of its launches under ncu."""
    runs = [r for r in json_lines(path) if "set" in r]
    if not profiles(path):
        return {}
    out = {}
    for run, m in paired(runs, path, "gpc_split.py"):
        out.setdefault(run["set"], []).append(m["dram__bytes_read.sum"] / m["gpu__time_duration.sum"] / 1e3)
    return {k: statistics.median(v) for k, v in out.items()}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    ahead, sets = split_rows(json_lines(f"{d}/gpc_contention_run.jsonl"))
    dram = ncu_dram_tbps(f"{d}/gpc_contention_ncu.csv")
    print(f"SMs ahead at x4 ({len(ahead)}): {sorted(ahead)}\n")
    print("| set | SMs | sum of the SMs' rates TB/s | DRAM TB/s (ncu) | ahead GB/s | rest GB/s | ahead / rest |")
    print("|---|---|---|---|---|---|---|")
    med = lambda xs: statistics.median(xs) if xs and None not in xs else None
    for name, reps in sets.items():
        fast, rest = med([r[2] for r in reps]), med([r[3] for r in reps])
        ratio = med([r[2] / r[3] for r in reps]) if fast and rest else None
        f = lambda x, p=1: "-" if x is None else f"{x:.{p}f}"
        print(f"| {name} | {reps[0][0]} | {statistics.median(r[1] for r in reps) / 1e3:.2f} | {f(dram.get(name), 2)} | "
              f"{f(fast)} | {f(rest)} | {f(ratio, 3)} |")


if __name__ == "__main__":
    main()

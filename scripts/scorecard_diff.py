#!/usr/bin/env python3
"""A what-if scorecard against the committed one: per record set the time MAPE, DRAM read MAPE and L2 hit-rate
MAE (percentage points) of the base and of the what-if over the cases both have, the time MAPE over all of them,
and every Spearman group's rank correlation base -> what-if.

  scorecard_diff.py BASE.json[.xz] WHATIF.json[.xz] [WHATIF2.json[.xz] ...] [--cases]

BASE: `compare --json` of the preset (docs/results/GPU-compare.json.xz; a what-if made before the presets' card
last moved: that card, e.g. GPU-compare-59110df.json.xz); WHATIF: the same records replayed with
some --set (scripts/device_scorecard.sh GPU NAME --set ...), possibly in parts (SETS=...), each part a file.
The Spearman of time is computed here, per case group, from the cases both have (the base's own, over launches,
may join cases of other parts or count a repeated launch once); compare's own groups follow where a part holds
the same group as the base.
--cases also lists every case's time error, base -> what-if."""
import argparse
import json
import lzma
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "validate", "scripts"))
from rank_stats import spearman  # noqa: E402

METRICS = ("gpu__time_duration.sum", "dram__bytes_read.sum", "lts__t_sector_hit_rate.pct")


def load(path):
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        return json.load(f)


def error(case, metric):
    m = case["metrics"].get(metric)
    return None if m is None else m["error"]


def key(case):
    """A case's name and measured time: two record sets may hold records of one name (the WMMA GEMM's
    gemm/ and padding/ sets both have gemm_16384x16384x2048_grouped8), which their measurements tell apart."""
    m = case["metrics"].get(METRICS[0])
    return case["case"], None if m is None else m["measured"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base")
    ap.add_argument("whatif", nargs="+")
    ap.add_argument("--cases", action="store_true")
    a = ap.parse_args()
    base = load(a.base)
    parts = [load(p) for p in a.whatif]
    by_case = {key(c): c for c in base["cases"]}
    per_set = defaultdict(lambda: defaultdict(list))
    groups = defaultdict(list)  # case group -> (measured, base, what-if) times
    rows = []
    for part in parts:
        for c in part["cases"]:
            b = by_case.get(key(c))
            if b is None:
                continue
            record_set = c["group"].split(" ")[0]
            for m in METRICS:
                eb, ew = error(b, m), error(c, m)
                if eb is not None and ew is not None:
                    per_set[record_set][m].append((abs(eb), abs(ew)))
            rows.append((c["case"], error(b, METRICS[0]), error(c, METRICS[0])))
            t = METRICS[0]
            if t in c["metrics"] and t in b["metrics"]:
                groups[c["group"]].append((c["metrics"][t]["measured"], b["metrics"][t]["simulated"],
                                           c["metrics"][t]["simulated"]))
    if not rows:
        sys.exit("scorecard_diff: the what-if has no case of the base")
    mean = lambda v, i: sum(x[i] for x in v) / len(v)
    print(f"# {base.get('gpu', '?')}: base {a.base} -> what-if {' '.join(a.whatif)}")
    print("| record set | cases | time MAPE (%) | DRAM read MAPE (%) | L2 hit rate MAE (pp) |")
    print("|---|---|---|---|---|")
    for record_set, d in sorted(per_set.items()):
        cells = [f"{mean(d[m], 0):.1f} -> {mean(d[m], 1):.1f}" if d[m] else "-" for m in METRICS]
        print(f"| {record_set} | {len(d[METRICS[0]])} | " + " | ".join(cells) + " |")
    every = [x for d in per_set.values() for x in d[METRICS[0]]]
    print(f"| all | {len(every)} | {mean(every, 0):.2f} -> {mean(every, 1):.2f} | | |")
    print()
    print("| Spearman of time, case group | cases | base | what-if |")
    print("|---|---|---|---|")
    for group, cases in sorted(groups.items()):
        if len(cases) < 3:
            continue
        measured = [m for m, _, _ in cases]
        rho_base = spearman(measured, [b for _, b, _ in cases])
        rho_whatif = spearman(measured, [w for _, _, w in cases])
        print(f"| {group} | {len(cases)} | {rho_base:+.2f} | {rho_whatif:+.2f} |")
    # compare's own groups (tilings of one shape and order, over launches) where a part holds the whole group
    print()
    print("| Spearman of time, compare's group | base | what-if |")
    print("|---|---|---|")
    for part in parts:
        for group, rho in sorted(part.get("spearman_time", {}).items()):
            size = part.get("spearman_time_group_sizes", {}).get(group)
            if group in base.get("spearman_time", {}) and base.get("spearman_time_group_sizes", {}).get(group) == size:
                print(f"| {group} | {base['spearman_time'][group]:+.2f} | {rho:+.2f} |")
    if a.cases:
        print()
        for name, eb, ew in rows:
            print(f"{name:70s} {eb:+7.1f} -> {ew:+7.1f}")


if __name__ == "__main__":
    main()

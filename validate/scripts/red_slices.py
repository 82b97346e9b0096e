#!/usr/bin/env python3
"""How evenly the L2 slices take gms-red-ubench's reductions (validate/scripts/device_red.sh slices): Nsight's
per-slice sum, max, min and mean of each row's reduction sectors, read from red_slices_ncu.csv (the plain rows:
112 and 16,384 blocks of y) and red_slices_hot_ncu.csv (the hot rows: 1, 8 and 112 blocks).

    validate/scripts/red_slices.py validate/results/h200/red_slices [--check]
    validate/scripts/red_slices.py PLAIN.csv HOT.csv [--check]

The second form reads two profiles of the same rows by their paths: the H100's, profiled before this script with
the per-slice rollups already in them (validate/results/h100/red/red_ncu.csv, validate/results/h100/red_hot/
red_hot_ncu.csv). The model's side: build/slice_spread GPU.yaml [gpu.KEY=V ...].

The rows are the kernel launches in the order validate/runner/red_ubench.cu makes them: per y spread, per op
(red, store), three rows (every warp adds, half add, half add and half read); the hot run then adds its
one-adder and SMs-apart rows. Printed: per reducing row where every warp adds, the busiest and the idlest
slice over the mean.

--check: exit 1 unless the spread the model's slice hash is chosen by holds - over 16,384 blocks (131,072 lines)
the busiest slice within 5 % of the mean, over the GEMV's 112 blocks (896 lines) at least 1.4x the mean, over
8 blocks (64 lines) at least 3x.
"""
import argparse
import sys
from pathlib import Path

from check_result import report
from ncu_launches import raw_launches


def every_warp_adds(spreads, n):
    """Indices of the launches where every warp adds (the first of each op's three rows), by y spread."""
    return {blocks: i * 6 for i, blocks in enumerate(spreads) if i * 6 < n}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", type=Path, nargs="+", help="a folder of red_slices_ncu.csv and red_slices_hot_ncu.csv, or the two CSVs")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if len(a.paths) == 1:
        plain, hot = a.paths[0] / "red_slices_ncu.csv", a.paths[0] / "red_slices_hot_ncu.csv"
    elif len(a.paths) == 2:
        plain, hot = a.paths
    else:
        sys.exit("red_slices.py: give a folder or the plain and the hot profile")
    found = {}
    for path, spreads in ((plain, (112, 16384)), (hot, (1, 8, 112))):
        name = path.name
        if not path.exists():
            sys.exit(f"red_slices.py: {path} is missing")
        rows = raw_launches(path)
        for blocks, i in every_warp_adds(spreads, len(rows)).items():
            r = rows[i]
            avg = r.get("lts__t_sectors_op_red.avg", 0)
            if avg <= 0:
                sys.exit(f"red_slices.py: {name} launch {i} ({blocks} blocks) counts no reduction sectors")
            found.setdefault(blocks, []).append((r["lts__t_sectors_op_red.max"] / avg, r["lts__t_sectors_op_red.min"] / avg))
    print("| y blocks | lines | busiest slice / mean | idlest / mean |")
    print("|---|---|---|---|")
    for blocks in sorted(found):
        for hi, lo in found[blocks]:
            print(f"| {blocks} | {blocks * 8} | {hi:.3f} | {lo:.3f} |")
    bad = []
    for blocks, want in ((16384, lambda hi: hi <= 1.05), (112, lambda hi: hi >= 1.4), (8, lambda hi: hi >= 3.0)):
        for hi, _ in found.get(blocks, []):
            if not want(hi):
                bad.append(f"{blocks} blocks: the busiest slice takes {hi:.3f}x the mean")
        if blocks not in found:
            bad.append(f"no row over {blocks} blocks")
    report(bad, a.check)


if __name__ == "__main__":
    main()

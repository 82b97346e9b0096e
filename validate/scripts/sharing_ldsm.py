#!/usr/bin/env python3
"""ldmatrix beside the tensor pipe (gms-sharing-ubench --ldsm, validate/scripts/device_sharing_ldsm.sh;
validate/results/<gpu>/sharing_ldsm; docs/sm-sharing.md).

  sharing_ldsm.py DIR [--check]

Prints, per ldmatrix stream - a dependent chain (chase4/8/16: 16 ldmatrix an iteration, each waiting for the
last one's data) and a stream of 32 independent ones (ldsm, ldsm8, ldsm16) at 4, 8 and 16 wavefronts - its
cycles per ldmatrix alone and beside each neighbour, with the cycles it loses per neighbour HMMA (the
neighbour's HMMAs in its window counted from the neighbour's own rate), and the SM's shared data path's busy
share alone (all four sub-partitions run the stream). Then the streams beside a dependent HMMA chain (mma1)
against one ldmatrix at a time: the chain's cycles per hop beside mma1.

--check: exit 1 unless each chain loses under 3 cycles per neighbour HMMA (mma1, mma8, mixed: an ldmatrix's
own latency barely changes beside the tensor pipe), the 4- and 8-wavefront streams beside mma1 take within
10 % of one ldmatrix at a time (the chain's hop beside mma1, per ldmatrix), the 4-wavefront stream alone
takes under 0.7 of that (more than one at a time), and with an HMMA of its own after each ldmatrix under 0.8
of it (a warp's own HMMAs add their pipe interval; they do not make its ldmatrix go one at a time) - what the
H200 measured on 2026-11-29 (sm.ldmatrix_one_at_a_time_beside_mma in the presets)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import finish  # noqa: E402
from sharing import load  # noqa: E402

HMMA_PER_ITERATION = {"mma1": 16, "mma8": 64, "mixed": 64}
LDSM_PER_ITERATION = {"chase4": 16, "chase8": 16, "chase16": 16, "ldsm": 32, "ldsm8": 32, "ldsm16": 32, "ldsm_mma": 32,
                      "ldsm8_mma": 32}
WAVEFRONTS = {"chase4": 4, "chase8": 8, "chase16": 16, "ldsm": 4, "ldsm8": 8, "ldsm16": 16, "ldsm_mma": 4, "ldsm8_mma": 8}
CHAIN_OF = {"ldsm": "chase4", "ldsm8": "chase8", "ldsm16": "chase16"}
OWN_MMA = {"ldsm_mma": ("ldsm", "chase4"), "ldsm8_mma": ("ldsm8", "chase8")}  # with an HMMA after each ldmatrix
SUBPARTITIONS = 4


def per_ldsm(runs, stream, neighbour):
    return runs[(stream, neighbour)]["cycles_per_iteration"] / LDSM_PER_ITERATION[stream]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    runs = load(a.dir, "sharing_ldsm")
    failures = []
    neighbours = ["none", "imad", "alu", "mma1", "mma8", "mixed", "ldsm"]
    print("| stream (cycles per ldmatrix) | " + " | ".join(neighbours) + " | path busy alone |")
    print("|---" * (len(neighbours) + 2) + "|")
    for s in LDSM_PER_ITERATION:
        if (s, "none") not in runs:
            continue
        alone = per_ldsm(runs, s, "none")
        busy = SUBPARTITIONS * WAVEFRONTS[s] / alone
        cells = [f"{per_ldsm(runs, s, n):.1f}" if (s, n) in runs else "-" for n in neighbours]
        print(f"| {s} | " + " | ".join(cells) + f" | {busy:.0%} |")
    print()
    for s in LDSM_PER_ITERATION:
        for n in HMMA_PER_ITERATION:
            if (s, n) not in runs or (s, "none") not in runs:
                continue
            r = runs[(s, n)]
            hmma = HMMA_PER_ITERATION[n] * r["cycles_per_iteration"] / r["neighbour_cycles_per_iteration"]
            lost = (r["cycles_per_iteration"] - runs[(s, "none")]["cycles_per_iteration"]) / hmma
            print(f"{s} beside {n}: {hmma:.1f} neighbour HMMAs an iteration, {lost:.2f} cycles lost per HMMA")
            if a.check and s.startswith("chase") and lost >= 3:
                failures.append(f"{s} beside {n}: {lost:.2f} cycles per neighbour HMMA, expected under 3")
    print()
    for s, chain in CHAIN_OF.items():
        if (s, "mma1") not in runs or (chain, "mma1") not in runs:
            continue
        one = per_ldsm(runs, chain, "mma1")
        beside, alone = per_ldsm(runs, s, "mma1"), per_ldsm(runs, s, "none")
        print(f"{s}: {alone:.1f} cycles per ldmatrix alone, {beside:.1f} beside mma1; one at a time beside mma1 "
              f"(the chain's hop): {one:.1f} ({beside / one - 1:+.1%})")
        if a.check and s in ("ldsm", "ldsm8") and abs(beside / one - 1) > 0.10:
            failures.append(f"{s} beside mma1: {beside:.1f} cycles per ldmatrix, not within 10 % of one at a time ({one:.1f})")
        if a.check and s == "ldsm" and alone / per_ldsm(runs, chain, "none") >= 0.7:
            failures.append(f"{s} alone: {alone:.1f} cycles per ldmatrix, not under 0.7 of its chain's hop")
    print()
    for s, (plain, chain) in OWN_MMA.items():
        if (s, "none") not in runs:
            continue
        own, alone, one = per_ldsm(runs, s, "none"), per_ldsm(runs, plain, "none"), per_ldsm(runs, chain, "mma1")
        print(f"{s}: {own:.1f} cycles per ldmatrix with its own HMMA after each ({plain} alone {alone:.1f}: "
              f"{own - alone:+.1f} a pair); one at a time beside another warp's HMMAs {one:.1f}")
        # A warp's own HMMAs add their pipe interval; they do not make its ldmatrix go one at a time.
        if a.check and s == "ldsm_mma" and own >= 0.8 * one:  # (ldsm8's path is near its limit alone)
            failures.append(f"{s}: {own:.1f} cycles per ldmatrix, not under 0.8 of one at a time ({one:.1f})")
    if a.check:
        finish(failures)


if __name__ == "__main__":
    main()

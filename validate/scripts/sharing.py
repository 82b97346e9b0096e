#!/usr/bin/env python3
"""What a second warp on an SM sub-partition costs the first (gms-sharing-ubench,
validate/scripts/device_sharing.sh; validate/results/<gpu>/sharing; docs/sm-sharing.md).

  sharing.py DIR [--check]

Prints, per measured stream, its cycles per iteration alone and beside each neighbour stream; then what
one of the neighbour's mma.sync costs an integer stream (the cycles it loses per neighbour HMMA, with
the neighbour's HMMAs in its window counted from the neighbour's own rate), and the pair of WMMA-shaped
`mixed` streams against what the dispatch hold predicts: each warp's iteration holds the sub-partition
for its integer instructions' issue cycles and its 64 HMMAs' tensor-pipe cycles (mma8's cycles per
HMMA alone), so the pair takes twice that.

--check: exit 1 unless each HMMA of an mma8 neighbour costs the alu stream (which issues every cycle alone)
at least 4 cycles (one issue cycle would cost ~1), imad beside mma8 and the mixed pair are within 10 % of
the held port's time, and the mixed pair is at least 1.35x the stream alone - what the H100 measured on 2026-11-27 (sm.mma_sync_holds_dispatch in the presets)."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import finish  # noqa: E402

HMMA_PER_ITERATION = {"none": 0, "imad": 0, "alu": 0, "mma1": 16, "mma8": 64, "mixed": 64, "ldsm": 0}
# issue slots an iteration takes besides its HMMAs (ldsm: its 32 ldmatrix and 64 LOP3)
OTHER_ISSUE_SLOTS_PER_ITERATION = {"imad": 256, "alu": 256, "mixed": 256, "mma1": 0, "mma8": 0, "ldsm": 96}


def load(directory, stem="sharing"):
    """{(measured, neighbour): run} from DIR/STEM_run.jsonl (gms-sharing-ubench's lines; --ldsm's: sharing_ldsm)."""
    path = os.path.join(directory, f"{stem}_run.jsonl")
    if not os.path.isfile(path):
        sys.exit(f"{stem}: no {stem}_run.jsonl in {directory}")
    runs = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("measure") == "sharing":
                runs[(r["measured"], r["neighbour"])] = r
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    runs = load(a.dir)
    streams = [m for m in ("imad", "alu", "mma1", "mma8", "mixed", "ldsm") if (m, "none") in runs]
    neighbours = ["none"] + streams
    print("| measured \\ neighbour | " + " | ".join(neighbours) + " |")
    print("|---" * (len(neighbours) + 1) + "|")
    for m in streams:
        alone = runs[(m, "none")]["cycles_per_iteration"]
        cells = [f"{alone:.0f}"] + [f"{runs[(m, n)]['cycles_per_iteration']:.0f} ({runs[(m, n)]['cycles_per_iteration'] / alone:.2f}x)"
                                    if (m, n) in runs else "-" for n in streams]
        print(f"| {m} | " + " | ".join(cells) + " |")
    print("\n(cycles per iteration of the measured warps, median over sub-partitions; beside a neighbour: x its time alone)\n")

    failures = []
    per_hmma = runs[("mma8", "none")]["cycles_per_iteration"] / HMMA_PER_ITERATION["mma8"]
    print(f"mma8 alone: {per_hmma:.2f} cycles per HMMA (the tensor pipe's interval)")
    for m in ("imad", "alu", "ldsm"):
        for n in ("mma1", "mma8"):
            if (m, n) not in runs:
                continue
            r, alone = runs[(m, n)], runs[(m, "none")]["cycles_per_iteration"]
            hmma = HMMA_PER_ITERATION[n] * r["cycles_per_iteration"] / r["neighbour_cycles_per_iteration"]
            lost = (r["cycles_per_iteration"] - alone) / hmma
            port = OTHER_ISSUE_SLOTS_PER_ITERATION[m] + hmma * per_hmma
            print(f"{m} beside {n}: {r['cycles_per_iteration'] - alone:.0f} cycles lost per iteration, "
                  f"{hmma:.1f} neighbour HMMAs in it: {lost:.2f} cycles per HMMA; the port held for them and "
                  f"the {OTHER_ISSUE_SLOTS_PER_ITERATION[m]} instructions: {port:.0f} cycles ({r['cycles_per_iteration'] / port - 1:+.1%})")
            # alu issues every cycle alone: each neighbour HMMA takes its pipe interval from it (one
            # issue cycle would take ~1); mma8 beside imad keeps the port busy: the hold's sum.
            if a.check and m == "alu" and n == "mma8" and lost < 4:
                failures.append(f"{m} beside {n}: {lost:.2f} cycles per neighbour HMMA, expected >= 4")
            if a.check and m == "imad" and n == "mma8" and abs(r["cycles_per_iteration"] / port - 1) > 0.10:
                failures.append(f"{m} beside {n}: {r['cycles_per_iteration']:.0f} cycles vs the held port's {port:.0f}")
    alone = runs[("mixed", "none")]["cycles_per_iteration"]
    pair = runs[("mixed", "mixed")]["cycles_per_iteration"]
    held = 2 * (OTHER_ISSUE_SLOTS_PER_ITERATION["mixed"] + HMMA_PER_ITERATION["mixed"] * per_hmma)
    print(f"mixed beside mixed: {pair:.0f} cycles per iteration ({pair / alone:.2f}x alone); the dispatch hold "
          f"predicts 2 x (256 + 64 x {per_hmma:.2f}) = {held:.0f} ({pair / held - 1:+.1%})")
    if a.check:
        if abs(pair / held - 1) > 0.10:
            failures.append(f"mixed pair {pair:.0f} vs the hold's {held:.0f}: more than 10 % apart")
        if pair / alone < 1.35:
            failures.append(f"mixed pair only {pair / alone:.2f}x alone")
        finish(failures)


if __name__ == "__main__":
    main()

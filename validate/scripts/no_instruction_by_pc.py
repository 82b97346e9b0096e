#!/usr/bin/env python3
"""Where in each kernel's main loop Nsight's no_instruction samples fall (ncu's source view, `stall_no_inst` per SASS
instruction: validate/results/h100/issue/ladder_source.csv.xz): per kernel the loop (its largest backward branch), its
samples in tenths of the loop by position and the instructions that drew the most. A loop whose warps ask for more
than their fetch delivers waits everywhere in it; one whose warps ask for less waits only where a branch sends the
fetch elsewhere (the loop's head, BSYNC reconvergence points).

    validate/scripts/no_instruction_by_pc.py validate/results/h100/issue/ladder_source.csv.xz [--top N]
"""
import argparse
import csv
import lzma
import re
import sys


def kernels(path):
    """[(name, header index, rows)] of ncu's --page source CSV, one block per kernel (of a kernel profiled twice, its first)."""
    out, seen = [], set()
    with lzma.open(path, "rt") as f:
        cur = None
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "Kernel Name":
                cur = [row[1], None, []]
                if row[1] not in seen:
                    seen.add(row[1])
                    out.append(cur)
            elif cur[1] is None:
                cur[1] = {h: i for i, h in enumerate(row)}
            else:
                cur[2].append(row)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("source_csv")
    ap.add_argument("--top", type=int, default=3)
    a = ap.parse_args()
    try:
        ks = kernels(a.source_csv)
    except (OSError, lzma.LZMAError) as e:
        sys.exit(f"no_instruction_by_pc.py: {e}")
    for name, idx, rows in ks:
        if idx is None or "stall_no_inst" not in idx:
            continue
        addrs = [int(r[idx["Address"]], 16) for r in rows]
        at = set(addrs)
        loop = None  # (first, last) address of the largest backward branch's body
        for r, a_ in zip(rows, addrs):
            m = re.search(r"BRA[^;]*0x([0-9a-f]+)", r[idx["Source"]])
            if m and int(m.group(1), 16) in at and int(m.group(1), 16) < a_:
                t = int(m.group(1), 16)
                if loop is None or a_ - t > loop[1] - loop[0]:
                    loop = (t, a_)
        samples = [int(r[idx["stall_no_inst"]] or 0) for r in rows]
        total = sum(samples)
        every = sum(int(r[idx["Warp Stall Sampling (All Samples)"]] or 0) for r in rows)
        args = re.search(r"<(.*)>", name)
        print(f"{args.group(1) if args else name}: no_instruction {total} of {every} samples ({100 * total / max(every, 1):.1f} %)")
        if loop is None:
            continue
        n = (loop[1] - loop[0]) // 16 + 1
        tenths, outside, top = [0] * 10, 0, []
        for r, a_, s in zip(rows, addrs, samples):
            if loop[0] <= a_ <= loop[1]:
                k = (a_ - loop[0]) // 16
                tenths[min(9, k * 10 // n)] += s
                top.append((s, k, r[idx["Source"]].strip()))
            else:
                outside += s
        top.sort(key=lambda x: -x[0])
        print(f"  loop of {n} instructions; by tenth: {' '.join(str(x) for x in tenths)}; outside it {outside}")
        for s, k, src in top[:a.top]:
            print(f"    {s:6d} at +{k}: {src[:60]}")


if __name__ == "__main__":
    main()

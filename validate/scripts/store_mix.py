#!/usr/bin/env python3
"""An SM's stores beside its loads, from `gms-store-ubench mix` (validate/scripts/device_store.sh mix).

Per case (stores alone, loads alone, both) and number of loading warps: the storers' half sectors and the
loaders' lines per SM cycle, medians of the repetitions. The model's side of the same program:
build/store_mix (bench/store_mix.cpp), which prints both.

  store_mix.py validate/results/h200/store_mix            # the table
  store_mix.py DIR --check                                 # exit 1 unless the record says what its README does
"""
import argparse
import json
import statistics
import sys


def rates(path):
    rows = {}
    for line in open(path):
        if '"store_load_mix"' not in line:
            continue
        r = json.loads(line)
        rows.setdefault((r["case"], r.get("loaders", 28)), []).append((r["store_half_sectors_per_cycle"], r["load_lines_per_cycle"]))
    return {k: tuple(statistics.median(c) for c in zip(*v)) for k, v in rows.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    r = rates(f"{a.dir}/store_mix_run.jsonl")
    print("| case | loader warps | stores: half sectors per SM cycle | loads: lines per SM cycle |\n|---|---|---|---|")
    for (case, n), (st, ld) in sorted(r.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(f"| {case} | {n} | {st:.3f} | {ld:.3f} |")
    if not a.check:
        return
    failed = []
    alone = r[("stores", 0)][0]
    if abs(alone - 0.5) > 0.02:
        failed.append(f"the epilogue's half sectors left one SM at {alone:.3f} a cycle alone (0.5 measured before)")
    for n in (4, 8):  # stores go first: they keep their rate, the loads fall to under a third of theirs
        st, ld = r[("stores + loads", n)]
        if st < 0.95 * alone or ld > 0.3 * r[("loads", n)][1]:
            failed.append(f"beside {n} loading warps the stores ran at {st:.3f}, the loads at {ld:.3f} (alone {r[('loads', n)][1]:.3f})")
    if failed:
        sys.exit("store_mix.py: " + "; ".join(failed))


if __name__ == "__main__":
    main()

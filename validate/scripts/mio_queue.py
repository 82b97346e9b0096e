#!/usr/bin/env python3
"""How many shared-memory instructions the MIO queue holds, from gms-mio-ubench's mio_run.jsonl.

Per conflict degree (wavefronts per LDS) and layout: each timed warp's LDS issued before its first stall (a gap of more than 16 cycles
between two clock reads after the fourth - the first three include the clock read's own start-up),
summed per sub-partition and per SM, and the path's steady pace per SM (cycles per LDS). The
instructions still outstanding when the queue first fills are those issued minus those the path
finished meanwhile (the pace from the first LDS's issue).

usage: mio_queue.py FILE.jsonl [--check PRESET]
  --check: exit 1 unless the preset's sm.mio_queue_per_subpartition and sm.mio_queue_per_sm are
           within 2 of what the file gives (the one- and two-warp layouts on one sub-partition; the
           layouts on all four)
"""
import argparse
import collections
import json
import re
import sys


def first_stall(clocks):
    for i in range(4, len(clocks)):
        if clocks[i] - clocks[i - 1] > 16:
            return i, clocks[i - 1]
    return len(clocks), clocks[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--check", metavar="PRESET")
    a = ap.parse_args()
    path = a.run
    layouts = collections.OrderedDict()
    for line in open(path):
        d = json.loads(line)
        layouts.setdefault((d.get("conflict_ways", 32), d["layout"]), []).append(d)
    per_sp, per_sm = [], []
    print("ways  layout   timed warps  issued before the first stall (per warp)  per sub-partition  per SM  "
          "SM pace (cycles/LDS)  finished by then  outstanding per SM")
    for (ways, name), rows in layouts.items():
        issued, at, by_sp = [], [], collections.Counter()
        for d in rows:
            n, t = first_stall(d["clock_after_lds"])
            issued.append(n)
            at.append(t)
            by_sp[d["subpartition"]] += n
        # Steady state: every timed warp stalled; the SM finishes one LDS per (warp pace / warps).
        pace = 1.0 / sum(1.0 / d["steady_cycles_per_lds"] for d in rows)
        finished = max(at) / pace
        total = sum(issued)
        (per_sp if name in ("w0", "w0,w4") else per_sm).append(total - finished)
        print(f"{ways:4}  {name:8} {len(rows):11}  {','.join(map(str, issued)):40}  {max(by_sp.values()):17}  {total:6}  "
              f"{pace:20.1f}  {finished:16.1f}  {total - finished:18.1f}")


    if not per_sp or not per_sm:
        print(f"mio_queue.py: {path} lacks the one-sub-partition or the four-sub-partition layouts", file=sys.stderr)
        return 2
    sp, sm = sum(per_sp) / len(per_sp), sum(per_sm) / len(per_sm)
    print(f"outstanding at the first stall: {sp:.1f} per sub-partition, {sm:.1f} per SM (means)")
    if a.check:
        text = open(a.check).read()
        for key, measured in (("mio_queue_per_subpartition", sp), ("mio_queue_per_sm", sm)):
            m = re.search(rf"^\s*{key}:\s*([0-9]+)", text, re.M)
            if not m:
                print(f"CHECK FAILED: {a.check} sets no sm.{key}", file=sys.stderr)
                return 1
            if abs(int(m.group(1)) - measured) > 2:
                print(f"CHECK FAILED: {a.check}: {key} {m.group(1)}, measured {measured:.1f}", file=sys.stderr)
                return 1
            print(f"check passed: {a.check}: {key} {m.group(1)}, measured {measured:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The L1 capacity beside a CTA's shared memory, from gms-carveout-ubench's carveout_run.jsonl.

Per dynamic shared-memory size S: the largest working set W whose L1-cached chase still hits
(cycles per load below 60; misses cost ~270), and what the driver would need for as many such CTAs
as the other limits let run on an SM (32 one-warp CTAs; 1 KB reserved per CTA).
usage: l1_carveout.py FILE.jsonl
"""
import collections
import json
import sys


def main(path):
    runs = collections.defaultdict(dict)
    for line in open(path):
        r = json.loads(line)
        runs[r["shared_bytes"]][r["working_set_bytes"]] = r["cycles_per_load"]
    print("shared per CTA (KB)  CTAs that fit 228 KB  their need (KB)  L1 hits up to (KB)  first miss (KB, cycles)")
    for s, curve in sorted(runs.items()):
        hits = [w for w, c in sorted(curve.items()) if c < 60]
        top = max(hits) if hits else 0
        miss = min((w for w in curve if w > top), default=None)
        ctas = min(32, 228 * 1024 // (s + 1024))
        need = ctas * (s + 1024) / 1024
        print(f"{s / 1024:19.0f}  {ctas:20d}  {need:15.0f}  {top / 1024:18.0f}  "
              f"{'' if miss is None else f'{miss / 1024:.0f} ({curve[miss]:.0f})'}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

#!/usr/bin/env python3
"""What a partly written sector costs an SM's stores: gms-store-ubench's rates (device_store.sh,
DIR/store_run.jsonl), per shape and grid, and the slots a half sector takes against a whole one -
the presets' icnt.partial_sector_write_slots.

  store_rates.py DIR [--check] [--preset GPU.yaml ...]

--check: exit 1 unless, on one SM, half sectors (frag16, half64: 32- and 64-bit stores) leave at
0.45-0.55 a cycle and whole ones (frag32, full32, rows) at 0.9-1.05, and with every SM storing the half
sectors go at 0.4-0.6 of the whole ones' rate (the same store width: frag16 / full32). --preset: also
exit 1 unless each preset's icnt.partial_sector_write_slots is the one-SM ratio, rounded."""
import argparse
import json
import os
import re
import sys


def rates(directory):
    """{(mode, ctas, ctas_per_sm): sectors per SM cycle}."""
    out = {}
    with open(os.path.join(directory, "store_run.jsonl")) as f:
        for line in f:
            d = json.loads(line)
            out[(d["mode"], d["ctas"], d["ctas_per_sm"])] = d["sectors_per_sm_cycle"]
    return out


def preset_slots(path):
    with open(path) as f:
        m = re.search(r"^\s+partial_sector_write_slots:\s*([0-9.]+)", f.read(), re.M)
    return float(m.group(1)) if m else 1.0  # the schema's default


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--preset", action="append", default=[])
    a = ap.parse_args()
    r = rates(a.dir)
    grids = sorted({(c, p) for _, c, p in r})
    modes = ["frag16", "half64", "frag32", "full32", "rows"]
    print("| shape | " + " | ".join(f"{c} CTAs, {p} per SM" for c, p in grids) + " |")
    print("|---|" + "---|" * len(grids))
    for m in modes:
        print(f"| {m} | " + " | ".join(f"{r[(m, c, p)]:.3f}" for c, p in grids) + " |")
    one = grids[0]
    half = (r[("frag16",) + one] + r[("half64",) + one]) / 2
    whole = (r[("frag32",) + one] + r[("full32",) + one] + r[("rows",) + one]) / 3
    slots = whole / half
    print(f"one SM: half sectors {half:.3f} a cycle, whole {whole:.3f}: a half sector takes {slots:.2f} slots")
    bad = []
    if a.check:
        for m in ("frag16", "half64"):
            if not 0.45 <= r[(m,) + one] <= 0.55:
                bad.append(f"{m} on one SM at {r[(m,) + one]:.3f}")
        for m in ("frag32", "full32", "rows"):
            if not 0.9 <= r[(m,) + one] <= 1.05:
                bad.append(f"{m} on one SM at {r[(m,) + one]:.3f}")
        for c, p in grids[1:]:
            ratio = r[("frag16", c, p)] / r[("full32", c, p)]
            if not 0.4 <= ratio <= 0.6:
                bad.append(f"frag16 / full32 at {c} CTAs: {ratio:.2f}")
    for path in a.preset:
        s = preset_slots(path)
        if s != round(slots):
            bad.append(f"{path}: partial_sector_write_slots {s:g}, measured {slots:.2f}")
        else:
            print(f"{path}: partial_sector_write_slots {s:g} (measured {slots:.2f})")
    if bad:
        sys.exit("store_rates: " + "; ".join(bad))
    if a.check:
        print("check: half sectors at half the whole ones' rate on one SM and on all")


if __name__ == "__main__":
    main()

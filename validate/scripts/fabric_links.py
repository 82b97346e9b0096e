#!/usr/bin/env python3
"""The L2 fabric's link rate per direction from gms-fabric-ubench (validate/scripts/device_fabric.sh).

Each stream launch of fabric_run.jsonl (in order) has its ncu profile in fabric_ncu.csv (in launch
order): the far sectors (lts__t_sectors_srcunit_ltcfabric.sum, 32 bytes each) over its duration is what
crossed. `far:p0` / `far:p1` (one partition's SMs reading only lines homed in the other) fill one
link; the link rate is the median of their repetitions. Prints every set's DRAM and fabric TB/s.

  fabric_links.py validate/results/h200/fabric
  fabric_links.py DIR --check configs/gpus/h200.yaml   # the preset's l2.fabric_bytes_per_cycle (per
                                                       # clock.l2 cycle) is the measured rate, within 1 %
"""
import argparse
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_launches import json_lines, paired  # noqa: E402


def launches(directory):
    runs = [r for r in json_lines(f"{directory}/fabric_run.jsonl") if "set" in r]
    out = {}
    for run, m in paired(runs, f"{directory}/fabric_ncu.csv", "fabric_links.py"):
        ns = m["gpu__time_duration.sum"]
        out.setdefault(run["set"], []).append((m["dram__bytes_read.sum"] / ns / 1e3,
                                              m["lts__t_sectors_srcunit_ltcfabric.sum"] * 32 / ns / 1e3))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--check", metavar="PRESET")
    a = ap.parse_args()
    sets = launches(a.dir)
    for name, reps in sets.items():
        print(f"{name:>14}: DRAM {statistics.median(r[0] for r in reps):.2f} TB/s, "
              f"fabric {statistics.median(r[1] for r in reps):.2f} TB/s")
    one_link = [r[1] for name in ("far:p0", "far:p1") for r in sets.get(name, [])]
    if not one_link:
        print(f"fabric_links.py: {a.dir} has no far:p0 / far:p1 streams", file=sys.stderr)
        return 2
    link = statistics.median(one_link)
    print(f"one link: {link:.3f} TB/s")
    if a.check:
        text = open(a.check).read()
        rate = re.search(r"^\s*fabric_bytes_per_cycle:\s*([0-9.]+)", text, re.M)
        clock = re.search(r"^\s*l2:\s*([0-9.]+)MHz", text, re.M)
        if not rate or not clock or float(rate.group(1)) <= 0:
            print(f"CHECK FAILED: {a.check} sets no l2.fabric_bytes_per_cycle (or no clock.l2)", file=sys.stderr)
            return 1
        measured = link * 1e12 / (float(clock.group(1)) * 1e6)
        if abs(float(rate.group(1)) / measured - 1) > 0.01:
            print(f"CHECK FAILED: {a.check}: fabric_bytes_per_cycle {rate.group(1)}, measured {measured:.1f}", file=sys.stderr)
            return 1
        print(f"check passed: {a.check}: {rate.group(1)} B per clock.l2 cycle, measured {measured:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Reductions to lines other reductions are still in flight to (validate/scripts/device_red.sh hot,
gms-red-ubench over 1, 8 and 112 blocks of y): per row, the kernel time, the adds per ns and - from the
Nsight Compute pass - the time between two RED requests to one line, i.e. the kernel's time over the
requests each line took (requests as the SMs sent them: Nsight counts a far one at two slices,
lts__t_requests_op_red / (1 + far share)), in ns and in Nsight's L2 cycles (lts__cycles_elapsed).

    validate/scripts/red_hot.py validate/results/h100/red_hot [--check] [--preset configs/gpus/h100.yaml]

--check: exit 1 unless the 1- and 8-block rows (every warp of the GPU adding to 8 and 64 lines) give
the same interval within 25 %, i.e. a line takes one request per so many cycles however many lines there
are; with --preset, unless the preset's l2.atomic_line_interval (cycles of its clock.l2) is within 10 % of
the 1-block interval in ns.
"""
import argparse
import csv
import json
import re
import sys
from pathlib import Path

LINES_PER_BLOCK = 8  # a 1 KB block of y


def rows(d):
    js = [json.loads(l) for l in (d / "red_hot_ubench.jsonl").read_text().splitlines()]
    lines = (d / "red_hot_ncu.csv").read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    recs = list(csv.reader(lines[start:]))
    hdr = recs[0]
    kernels = [r for r in recs[2:] if "red_and_read" in r[hdr.index("Kernel Name")]]
    if len(kernels) != len(js):
        sys.exit(f"{len(kernels)} profiled launches against {len(js)} timed rows")
    for j, r in zip(js, kernels):
        v = {k: float(r[hdr.index(k)].replace(",", "")) for k in hdr if re.match(r"^(lts|gpu|dram)__", k)
             and r[hdr.index(k)].replace(",", "").replace(".", "", 1).isdigit()}
        yield j, v


def interval(j, v):
    """(ns, Nsight L2 cycles) between two RED requests to one line, or None."""
    req = v.get("lts__t_requests_op_red.sum", 0.0)
    if j["op"] != "red" or req == 0:
        return None
    per_line = req / 1.5 / (LINES_PER_BLOCK * j["y_blocks"])  # far requests (half) are counted at two slices
    return v["gpu__time_duration.sum"] / per_line, v["lts__cycles_elapsed.max"] / per_line


def preset_interval_ns(path):
    """The preset's l2.atomic_line_interval in ns (its cycles at its clock.l2, else clock.sm), or None."""
    cycles = l2 = sm = None
    for line in Path(path).read_text().splitlines():
        m = re.match(r"\s*atomic_line_interval:\s*([0-9.]+)", line)
        cycles = float(m.group(1)) if m else cycles
        m = re.match(r"\s*(l2|sm):\s*([0-9.]+)MHz", line)
        if m:
            l2, sm = (float(m.group(2)), sm) if m.group(1) == "l2" else (l2, float(m.group(2)))
    mhz = l2 or sm
    return cycles / mhz * 1e3 if cycles and mhz else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--preset", action="append", default=[])
    a = ap.parse_args()
    print("| op | blocks | adding / reading warps | ms | adds per ns | ns per request per line | L2 cycles | reads' span ms |")
    print("|---|---|---|---|---|---|---|---|")
    found = {}
    for j, v in rows(a.dir):
        iv = interval(j, v)
        if iv is not None and j["read_warps"] == 0 and not j.get("sms_apart"):
            found.setdefault(j["y_blocks"], []).append(iv[0])
        cells = ("%.2f | %.1f" % iv) if iv is not None else "- | -"
        warps = "even SMs / odd SMs" if j.get("sms_apart") else f"{j['add_warps']} / {j['read_warps']}"
        print(f"| {j['op']} | {j['y_blocks']} | {warps} | {j['median_ms']:.3f} | "
              f"{j['ops_per_ns']:.2f} | {cells} | {('%.3f' % j['read_span_ms']) if j.get('read_span_ms') else '-'} |")
    failures = []
    if a.check or a.preset:
        one, eight = min(found[1]), min(found[8])
        print(f"interval: {one:.2f} ns over 8 lines, {eight:.2f} over 64")
        if abs(eight / one - 1) > 0.25:
            failures.append(f"8 lines {one:.2f} against 64 lines {eight:.2f} ns: not a per-line interval")
        for p in a.preset:
            got = preset_interval_ns(p)
            print(f"{p}: {got and round(got, 2)} ns")
            if got is None or abs(got / one - 1) > 0.1:
                failures.append(f"{p}: l2.atomic_line_interval {got and round(got, 2)} ns against the measured {one:.2f}")
    for f in failures:
        print("CHECK FAILED:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

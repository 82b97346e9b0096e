#!/usr/bin/env python3
"""The fixed cost of a kernel, silicon against the model: replays gms-cta-ubench's empty grids
(validate/results/<gpu>/launch, device_launch.sh) as Accel-Sim traces of one EXIT per warp on a preset
with launch.kernel_overhead 0, and prints per grid ncu's sm__cycles_elapsed.max, the model's cycles
and what silicon spends beyond them. Their median over the grids that give every SM a CTA is the
measured launch.kernel_overhead (the CTA dispatch the model already times is not in it).

  launch_model_check.py GPUMEMSIM PRESET.yaml DIR [--threads 32] [--check] [--tol PCT]

--check: exit 1 unless the preset's launch.kernel_overhead is within PCT % (default 2) of the median."""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launch_cost  # noqa: E402
from accelsim_trace import kernel_header  # noqa: E402


def write_trace(d, grid, threads):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    warp = "".join(f"\nwarp = {w}\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 0 \n" for w in range((threads + 31) // 32))
    with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header("empty_cta", grid, threads, 8))
        for c in range(grid):
            f.write(f"\n#BEGIN_TB\n\nthread block = {c},0,0\n{warp}\n#END_TB\n")
    with open(os.path.join(d, "w.yaml"), "w") as f:
        f.write(f"kind: trace\npath: {d}/kernelslist.g\n")


def model_cycles(binary, preset, d):
    out = os.path.join(d, "run")
    subprocess.run([binary, "run", "-g", preset, "-w", os.path.join(d, "w.yaml"), "-q", "-o", out,
                    "--set", "gpu.launch.kernel_overhead=0cycles"], check=True)
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f)["metrics"]["sm__cycles_elapsed.max"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("preset")
    ap.add_argument("dir")
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tol", type=float, default=2.0)
    a = ap.parse_args()
    rows, units = launch_cost.ncu_table(os.path.join(a.dir, "launch_ncu.csv"))
    cases = {g["grid"]: g["sm_cycles_elapsed_max"] for g in launch_cost.profiled_grids(rows, units)
             if g["threads"] == a.threads}
    sms = min(g for g in cases if g > 1)  # the grids are 1 and multiples of the SM count
    print("| grid | silicon sm__cycles_elapsed.max | model (kernel_overhead 0) | silicon - model |")
    print("|---|---|---|---|")
    extra = []
    with tempfile.TemporaryDirectory() as tmp:
        for grid in sorted(cases):
            silicon = cases[grid]
            d = os.path.join(tmp, f"g{grid}")
            write_trace(d, grid, a.threads)
            model = model_cycles(a.binary, a.preset, d)
            print(f"| {grid} | {silicon:.0f} | {model:.0f} | {silicon - model:.0f} |")
            if grid >= sms:
                extra.append(silicon - model)
    overhead = statistics.median(extra)
    print(f"\nfixed cost of a kernel that gives every SM a CTA: {overhead:.0f} cycles (median over {len(extra)} grids, "
          f"{min(extra):.0f}..{max(extra):.0f})")
    if a.check:
        with open(a.preset) as f:
            m = re.search(r"^\s+kernel_overhead:\s*(\d+)\s*cycles", f.read(), re.M)
        if not m:
            sys.exit(f"launch_model_check: no launch.kernel_overhead in cycles in {a.preset}")
        value = float(m.group(1))
        off = abs(value - overhead) / overhead * 100
        print(f"preset's launch.kernel_overhead {value:.0f} cycles: {off:.1f} % from it (tolerance {a.tol} %)")
        if off > a.tol:
            sys.exit(1)


if __name__ == "__main__":
    main()

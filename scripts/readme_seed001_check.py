#!/usr/bin/env python3
"""Does the README's seed-001 worked example say what the model computes? Reads its table "What the
model says, 4 warps" (rows `| preset | order | registers | CTAs/SM | <time> us | <DRAM %> |`), runs
`gpumemsim run --gpu configs/gpus/<preset>.yaml --workload configs/workloads/seed001-gemv-<order>.yaml`
for each row and exits 1 unless registers, CTAs per SM, the time (to the digits the table prints) and
the DRAM share of peak (to 0.1 %) are the run's. With --print, prints the rows as the runs give them.

    scripts/readme_seed001_check.py GPUMEMSIM README.md [--print]
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROW = re.compile(r"\| (z100|t4|a100|h100|h200) \| (llcc|lclc) \| (\d+) \| (\d+) \| ([\d.]+) us \| ([\d.]+) \|$")


def run(binary, root, preset, order):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "run", "--gpu", str(root / f"configs/gpus/{preset}.yaml"), "--workload",
                        str(root / f"configs/workloads/seed001-gemv-{order}.yaml"), "--out", out, "-q"], check=True)
        d = json.loads((Path(out) / "stats.json").read_text())
    m = d["metrics"]
    return {"registers": int(d["occupancy"]["registers_per_thread"]), "ctas": int(d["occupancy"]["ctas_per_sm"]),
            "us": m["gpu__time_duration.sum"] / 1000, "dram": m["dram__throughput.avg.pct_of_peak_sustained_elapsed"]}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, readme = sys.argv[1], Path(sys.argv[2])
    show = "--print" in sys.argv[3:]
    root = readme.resolve().parent
    bad, seen = [], 0
    for line in readme.read_text().splitlines():
        m = ROW.match(line)
        if not m:
            continue
        seen += 1
        preset, order, regs, ctas, us, dram = m.groups()
        r = run(binary, root, preset, order)
        digits = len(us.split(".")[1]) if "." in us else 0
        got_us = f"{r['us']:.{digits}f}"
        if show:
            print(f"| {preset} | {order} | {r['registers']} | {r['ctas']} | {got_us} us | {r['dram']:.1f} |")
        if (int(regs), int(ctas)) != (r["registers"], r["ctas"]) or got_us != us or f"{r['dram']:.1f}" != dram:
            bad.append(f"{preset} {order}: README says {regs} registers, {ctas} CTAs/SM, {us} us, {dram} %; the run gives "
                       f"{r['registers']}, {r['ctas']}, {got_us} us, {r['dram']:.1f} %")
    if seen < 6:
        bad.append(f"only {seen} seed-001 rows found in {readme}")
    for b in bad:
        print("FAIL:", b)
    if bad:
        sys.exit(1)
    print(f"the README's {seen} seed-001 rows are the model's")


if __name__ == "__main__":
    main()

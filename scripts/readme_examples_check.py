#!/usr/bin/env python3
"""Do the README's worked examples say what the tool computes? Exit 1, with the rows that differ, unless
every row of the checked table is what the tool gives.

    scripts/readme_examples_check.py ladder README.md LADDER.json
        the seed-002 table (rows `| rN ... | <silicon> us | <model> us (<error> %) | ...`) against a
        `gpumemsim compare --json` of validate/results/h100/seed002: each row's model time to the
        microsecond the table prints and its error to the 0.1 % it prints
    scripts/readme_examples_check.py seed001 README.md GPUMEMSIM [--print]
        the seed-001 table "What the model says, 4 warps" (rows `| preset | order | registers | CTAs/SM |
        <time> us | <DRAM %> |`): each row run again (`gpumemsim run --gpu configs/gpus/<preset>.yaml
        --workload configs/workloads/seed001-gemv-<order>.yaml`), registers, CTAs per SM, the time to the
        digits printed and the DRAM share to 0.1 %; --print prints the rows as the runs give them
"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# The seed-002 table's rows by their first words, and the records they replay.
LADDER_ROWS = {
    "r0 naive": "seed002_r0_naive",
    "r1 TiledCopy": "seed002_r1_tiledcopy128",
    "r2 128 threads": "seed002_r2_threads128",
    "r2 256 threads": "seed002_r2_threads256",
    "r3 BK 32": "seed002_r3_bk32",
    "r3 BK 64": "seed002_r3_bk64",
    "r4 double": "seed002_r4_double_buffer",
    "r5 + padding": "seed002_r5_padding",
    "r6 register": "seed002_r6_register_blocking",
}
SEED001_ROW = re.compile(r"\| (z100|t4|a100|h100|h200) \| (llcc|lclc) \| (\d+) \| (\d+) \| ([\d.]+) us \| ([\d.]+) \|$")


def check_ladder(readme, replay_file):
    replay = json.load(open(replay_file))
    sim = {c["case"]: c["metrics"]["gpu__time_duration.sum"] for c in replay["cases"]}
    bad, seen = [], 0
    for line in readme.read_text().splitlines():
        for prefix, case in LADDER_ROWS.items():
            m = re.match(r"\| " + re.escape(prefix) + r"[^|]*\| \d+ us \| (\d+) us \(([+-]\d+\.\d) %\)", line)
            if not m:
                continue
            seen += 1
            t = sim[case]
            us, err = t["simulated"] / 1000, t["error"]
            if abs(int(m.group(1)) - us) > 0.5 or abs(float(m.group(2)) - err) > 0.05 + 1e-9:
                bad.append(f"{prefix}: README says {m.group(1)} us ({m.group(2)} %), the replay gives {us:.0f} us ({err:+.1f} %)")
    if seen != len(LADDER_ROWS):
        bad.append(f"{seen} of the {len(LADDER_ROWS)} ladder rows found in {readme}")
    return bad, f"the README's {seen} ladder rows are the replay's"


def run_seed001(binary, root, preset, order):
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([binary, "run", "--gpu", str(root / f"configs/gpus/{preset}.yaml"), "--workload",
                        str(root / f"configs/workloads/seed001-gemv-{order}.yaml"), "--out", out, "-q"], check=True)
        d = json.loads((Path(out) / "stats.json").read_text())
    m = d["metrics"]
    return {"registers": int(d["occupancy"]["registers_per_thread"]), "ctas": int(d["occupancy"]["ctas_per_sm"]),
            "us": m["gpu__time_duration.sum"] / 1000, "dram": m["dram__throughput.avg.pct_of_peak_sustained_elapsed"]}


def check_seed001(readme, binary, show):
    root = readme.resolve().parent
    bad, seen = [], 0
    for line in readme.read_text().splitlines():
        m = SEED001_ROW.match(line)
        if not m:
            continue
        seen += 1
        preset, order, regs, ctas, us, dram = m.groups()
        r = run_seed001(binary, root, preset, order)
        digits = len(us.split(".")[1]) if "." in us else 0
        got_us = f"{r['us']:.{digits}f}"
        if show:
            print(f"| {preset} | {order} | {r['registers']} | {r['ctas']} | {got_us} us | {r['dram']:.1f} |")
        if (int(regs), int(ctas)) != (r["registers"], r["ctas"]) or got_us != us or f"{r['dram']:.1f}" != dram:
            bad.append(f"{preset} {order}: README says {regs} registers, {ctas} CTAs/SM, {us} us, {dram} %; the run gives "
                       f"{r['registers']}, {r['ctas']}, {got_us} us, {r['dram']:.1f} %")
    if seen < 6:
        bad.append(f"only {seen} seed-001 rows found in {readme}")
    return bad, f"the README's {seen} seed-001 rows are the model's"


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("ladder", "seed001"):
        sys.exit(__doc__)
    readme = Path(sys.argv[2])
    if sys.argv[1] == "ladder":
        bad, ok = check_ladder(readme, sys.argv[3])
    else:
        bad, ok = check_seed001(readme, sys.argv[3], "--print" in sys.argv[4:])
    for b in bad:
        print("FAIL:", b)
    if bad:
        sys.exit(1)
    print(ok)


if __name__ == "__main__":
    main()

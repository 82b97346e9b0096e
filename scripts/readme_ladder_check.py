#!/usr/bin/env python3
"""Does the README's seed-002 worked example say what the model computes? Reads the ladder table of
README.md (rows `| rN ... | <silicon> us | <model> us (<error> %) | ...`) and a `gpumemsim compare --json`
of validate/results/h100/seed002, and exits 1 unless every row's model time is the replay's (to the
microsecond the table prints) and its error the replay's (to the 0.1 % it prints).

    scripts/readme_ladder_check.py README.md LADDER.json
"""
import json
import re
import sys

# The table's rows by their first words, and the records they replay.
ROWS = {
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


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    readme, replay = sys.argv[1], json.load(open(sys.argv[2]))
    sim = {c["case"]: c["metrics"]["gpu__time_duration.sum"] for c in replay["cases"]}
    bad, seen = [], 0
    for line in open(readme).read().splitlines():
        for prefix, case in ROWS.items():
            m = re.match(r"\| " + re.escape(prefix) + r"[^|]*\| \d+ us \| (\d+) us \(([+-]\d+\.\d) %\)", line)
            if not m:
                continue
            seen += 1
            t = sim[case]
            us, err = t["simulated"] / 1000, t["error"]
            if abs(int(m.group(1)) - us) > 0.5 or abs(float(m.group(2)) - err) > 0.05 + 1e-9:
                bad.append(f"{prefix}: README says {m.group(1)} us ({m.group(2)} %), the replay gives {us:.0f} us ({err:+.1f} %)")
    if seen != len(ROWS):
        bad.append(f"{seen} of the {len(ROWS)} ladder rows found in {readme}")
    for b in bad:
        print("FAIL:", b)
    if bad:
        sys.exit(1)
    print(f"the README's {seen} ladder rows are the replay's")


if __name__ == "__main__":
    main()

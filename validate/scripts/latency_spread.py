#!/usr/bin/env python3
"""dram.latency_spread from gms-latency-spread-ubench's percentiles (validate/scripts/device_latency_spread.sh).

The unloaded 1 GiB walk (every load a DRAM miss) has two modes: misses homed in the SM's near L2 partition and in
the far one - the model has that split already (l2.far_extra_latency). What it lacks is each mode's own spread
about its median (row state, refresh, bank timing), a tail included. This takes the percentiles (the runs'
mean; the 100th replaced by the 99.9th, one outlier is no quantile), splits them at the widest gap between the
20th and 80th, pools each side's offsets from its own median, and prints them at 0, 5, ..., 100 % as the
preset's line (the model centres them on their mean itself).

    validate/scripts/latency_spread.py validate/results/h200/latency_spread/latency_spread_run.jsonl
"""
import json
import statistics
import sys


def spread(rows, points=21):
    sel = [r for r in rows if r["working_set_bytes"] >= 1 << 30 and r["background_ctas"] == 0]
    if not sel:
        raise SystemExit("latency_spread.py: no unloaded 1 GiB walk in the input")
    p = [statistics.mean(r["percentiles"][i] for r in sel) for i in range(101)]
    p[100] = statistics.mean(r["p99_9"] for r in sel)
    cut = max(range(20, 80), key=lambda i: p[i + 1] - p[i])
    near, far = p[: cut + 1], p[cut + 1:]
    offsets = sorted([x - statistics.median(near) for x in near] + [x - statistics.median(far) for x in far])
    step = (len(offsets) - 1) / (points - 1)
    return cut, statistics.median(near), statistics.median(far), [round(offsets[round(i * step)]) for i in range(points)]


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    with open(sys.argv[1]) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    cut, near, far, table = spread(rows)
    print(f"# modes split after the {cut}th percentile: near median {near:.0f}, far median {far:.0f} cycles")
    print("dram: {latency_spread: \"" + ", ".join(f"{v}cycles" for v in table) + "\"}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""dram.latency_spread from gms-latency-spread-ubench's percentiles (validate/scripts/device_latency_spread.sh).

The unloaded 1 GiB walk (every load a DRAM miss) has two modes: misses homed in the SM's near L2 partition and in
the far one - the model has that split already (l2.far_extra_latency). What it lacks is each mode's own spread
about its median (row state, refresh, bank timing), a tail included. This takes the percentiles (the runs'
mean; the 100th replaced by the 99.9th, one outlier is no quantile), splits them at the widest gap between the
20th and 80th, pools each side's offsets from its own median, and prints them at 0, 5, ..., 100 % as the
preset's line (the model centres them on their mean itself).

    validate/scripts/latency_spread.py validate/results/h200/latency_spread/latency_spread_run.jsonl
    ... --check configs/gpus/h200.yaml configs/gpus/h100.yaml    exit 1 unless each preset holds that line
"""
import json
import re
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


def preset_spread(path):
    """The dram block's latency_spread value of a preset (text, without its quotes), or None."""
    in_dram = False
    with open(path) as f:
        for line in f:
            if not line.startswith((" ", "#")) and line.strip():
                in_dram = line.startswith("dram:")
            m = re.match(r'\s+latency_spread:\s*"([^"]*)"', line)
            if in_dram and m:
                return m.group(1)
    return None


def main():
    args = sys.argv[1:]
    if not args or (len(args) > 1 and args[1] != "--check") or len(args) == 2:
        raise SystemExit(__doc__)
    with open(args[0]) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    cut, near, far, table = spread(rows)
    text = ", ".join(f"{v}cycles" for v in table)
    print(f"# modes split after the {cut}th percentile: near median {near:.0f}, far median {far:.0f} cycles")
    print("dram: {latency_spread: \"" + text + "\"}")
    failed = False
    for preset in args[2:]:
        held = preset_spread(preset)
        ok = held == text
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} {preset}: " + ("holds this line" if ok else f"holds {held!r}"))
    if len(args) > 2:
        print("check failed" if failed else "check passed")
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

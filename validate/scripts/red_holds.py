#!/usr/bin/env python3
"""What reductions pending in the L2 hold back (validate/scripts/device_red.sh queue and backlog,
gms-red-ubench): per GPU, one warp's load after n reductions of its own to one line (red_queue/), and
another SM's loads while 0-131 SMs pile 1,024 reductions each on one line (red_backlog/), and the
hand-over of the GEMV's reductions with 1-32 warps a SM handing them over at once (red_burst/). Every run in
those folders (red_*_ubench.jsonl, red_*_run2_ubench.jsonl, ...) is read and printed.

    validate/scripts/red_holds.py validate/results/h100 [--check]

--check: exit 1 unless, in every run, what the model stands on holds - the load after 1,024 own
reductions takes what it takes after none (within 10 %; the model does not hold a warp's reads behind
its own reductions), other lines' median load stays within 10 % of its unloaded value at every backlog,
a read of the added line waits at least 10x its unloaded time behind 64 or more SMs' reductions
(TagArray::hold_until) but not behind 1-4 SMs' (within 25 %), and (red_burst/, where measured) warps hand
over 8 of the GEMV's RED instructions unheld while the GPU hands over at most ~34,000 requests at once,
and take 10x as long from 135,000 on.
"""
import argparse
import json
import sys
from pathlib import Path

from check_result import report


def runs(folder, prefix):
    for f in sorted(folder.glob(f"{prefix}*_ubench.jsonl")):
        yield f.name, [json.loads(l) for l in f.read_text().splitlines() if l.strip()]


def check_queue(name, rows, bad):
    base = next(r["load_cycles"] for r in rows if r["reductions"] == 0)
    print(f"{name}: load after 0 reductions {base} cycles")
    for r in rows:
        print(f"  {r['reductions']:5d} reductions: issued in {r['issue_cycles']:5d} cycles, load {r['load_cycles']} (min {r['load_cycles_min']})")
        if abs(r["load_cycles"] - base) > 0.10 * base:
            bad.append(f"{name}: the load after {r['reductions']} own reductions takes {r['load_cycles']} cycles, "
                       f"{base} after none: it waits behind them")


def check_backlog(name, rows, bad):
    base = next(r for r in rows if r["adders"] == 0)
    print(f"{name}: unloaded other lines {base['spread_load_cycles_median']} cycles, added line {base['hot_line_load_cycles_median']}")
    for r in rows:
        other, hot = r["spread_load_cycles_median"], r["hot_line_load_cycles_median"]
        print(f"  {r['adders']:3d} SMs adding: other lines median/p90/max {other}/{r['spread_load_cycles_p90']}/"
              f"{r['spread_load_cycles_max']}, the added line {hot}")
        if abs(other - base["spread_load_cycles_median"]) > 0.10 * base["spread_load_cycles_median"]:
            bad.append(f"{name}: other lines' median {other} cycles with {r['adders']} SMs adding, "
                       f"{base['spread_load_cycles_median']} with none")
        h0 = base["hot_line_load_cycles_median"]
        if r["adders"] >= 64 and hot < 10 * h0:
            bad.append(f"{name}: the added line's read takes {hot} cycles behind {r['adders']} SMs' reductions, "
                       f"under 10x its unloaded {h0}")
        if 1 <= r["adders"] <= 4 and abs(hot - h0) > 0.25 * h0:
            bad.append(f"{name}: the added line's read takes {hot} cycles behind {r['adders']} SMs' reductions, "
                       f"{h0} unloaded")


def check_burst(name, rows, bad):
    """The hand-over of the GEMV's reductions against how many the GPU hands over at once (red_burst)."""
    # The first run's rows carry no op / y_blocks: reductions over the GEMV's 112 blocks.
    gemv = [r for r in rows if r.get("op", "red") == "red" and r.get("y_blocks", 112) == 112]
    base = {r["instructions_per_warp"]: r["issue_cycles_median"] for r in gemv if r["warps_per_sm"] == 1}
    print(f"{name}: hand-over of n instructions per warp (8 requests each), all warps at once")
    for r in rows:
        print(f"  {r.get('op', 'red'):5s} over {r.get('y_blocks', 112):5d} blocks, n {r['instructions_per_warp']:3d}, "
              f"{r['warps_per_sm']:2d} warps a SM ({r['requests']:8d} requests): issue cycles median/p90/max "
              f"{r['issue_cycles_median']}/{r['issue_cycles_p90']}/{r['issue_cycles_max']}, kernel {r['kernel_ns_median'] / 1000:.1f} us")
    for r in gemv:
        if r["instructions_per_warp"] != 8:
            continue
        if r["requests"] <= 34000 and r["issue_cycles_median"] > 1.5 * base[8]:
            bad.append(f"{name}: {r['requests']} requests at once held (median {r['issue_cycles_median']} cycles, "
                       f"{base[8]} for one warp a SM)")
        if r["requests"] >= 135000 and r["issue_cycles_median"] < 10 * base[8]:
            bad.append(f"{name}: {r['requests']} requests at once not held (median {r['issue_cycles_median']} cycles)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gpu_dir", type=Path)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    bad, seen = [], 0
    for sub, prefix, check in (("red_queue", "red_queue", check_queue), ("red_backlog", "red_backlog", check_backlog),
                               ("red_burst", "red_burst", check_burst)):
        for name, rows in runs(a.gpu_dir / sub, prefix):
            seen += 1
            try:
                check(f"{sub}/{name}", rows, bad)
            except (StopIteration, KeyError) as e:
                bad.append(f"{sub}/{name}: incomplete ({e!r})")
    if seen == 0:
        sys.exit(f"no red_queue/ or red_backlog/ runs under {a.gpu_dir}")
    report(bad, a.check)


if __name__ == "__main__":
    main()

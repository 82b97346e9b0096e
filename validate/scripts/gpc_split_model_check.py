#!/usr/bin/env python3
"""The model's side of `gms-gpc-ubench contention` (validate/results/<gpu>/gpc): for 1, 2, 4 and 8 loads per
thread in flight, writes the stream's trace (gpc_contention_trace.py, 2 MB per SM) to a temporary folder,
replays it with gpumemsim on a GPU preset and prints the mean GB/s of the SMs of the smallest GPCs over
that of the largest GPCs' (icnt.gpc_sms; each SM's window over its CTA's span in ctas.csv) beside
silicon's `ahead / rest` (gpc_split.py).

  gpc_split_model_check.py GPUMEMSIM PRESET RESULTS_DIR [--set KEY=VALUE ...] [--check TOLERANCE]

--check: exit 1 if any case is further than TOLERANCE from silicon's ratio."""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import gpc_split  # noqa: E402
from dispatch_order import sm_order_ids  # noqa: E402
from accelsim_trace import trace_metrics  # noqa: E402
from gpc_contention_trace import write_trace  # noqa: E402

WINDOW_KB, THREADS = 2048, 1024


def sm_gpcs(sizes, sms, order=None):
    """sim/model/gpc_layout.cpp's sm_gpcs: TPCs join GPCs round robin, skipping full ones, in the dispatcher's
    visiting order (launch.sm_order; SM-id order when it is empty)."""
    order = order or list(range(sms))
    room, out, g = list(sizes), [None] * sms, 0
    for i in range(sms):
        if (i % 2 == 0 or room[g] == 0) and i > 0:
            g = (g + 1) % len(sizes)
        while room[g] == 0:
            g = (g + 1) % len(sizes)
        out[order[i]] = g
        room[g] -= 1
    return out


def gpc_layout(gpumemsim, preset, sets):
    """icnt.gpc_sms and launch.sm_order of `preset` with `sets` applied, as the simulator reads them."""
    shown = subprocess.run([gpumemsim, "config", "show", "--gpu", preset] + sum((["--set", kv] for kv in sets), []),
                           check=True, capture_output=True, text=True).stdout
    listed = re.search(r'gpc_sms: "([0-9, ]+)"', shown)
    if not listed:
        sys.exit(f"gpc_split_model_check: {preset} has no icnt.gpc_sms (set it with --set gpu.icnt.gpc_sms=...)")
    order = re.search(r'sm_order: "([0-9, -]*)"', shown)
    return [int(n) for n in listed.group(1).split(",")], sm_order_ids(order.group(1) if order else "")


def model_ratio(gpumemsim, preset, sets, sizes, order, in_flight, work):
    work = os.path.join(work, f"x{in_flight}")
    trace = write_trace(work, 132, THREADS, in_flight, WINDOW_KB)
    mhz = trace_metrics(gpumemsim, preset, trace, work, sets)["gpumemsim__sm_clock_simulated"] / 1e6
    gpc = sm_gpcs(sizes, sum(sizes), order)
    rate = {}
    for r in csv.DictReader(open(os.path.join(work, "run", "ctas.csv"))):
        ns = (int(r["end_cycle"]) - int(r["start_cycle"])) / mhz * 1e3
        rate[int(r["sm"])] = WINDOW_KB * 1024 / ns
    small = [v for sm, v in rate.items() if sizes[gpc[sm]] == min(sizes)]
    large = [v for sm, v in rate.items() if sizes[gpc[sm]] == max(sizes)]
    return statistics.mean(small) / statistics.mean(large)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gpumemsim")
    ap.add_argument("preset")
    ap.add_argument("results")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    ap.add_argument("--check", type=float)
    a = ap.parse_args()
    _, sets = gpc_split.split_rows(gpc_split.json_lines(os.path.join(a.results, "gpc_contention_run.jsonl")))
    sizes, order = gpc_layout(a.gpumemsim, a.preset, a.sets)
    worst = 0.0
    with tempfile.TemporaryDirectory() as work:
        for n in (1, 2, 4, 8):
            reps = sets[f"dram:all x{n}"]
            silicon = statistics.median(r[2] / r[3] for r in reps)
            model = model_ratio(a.gpumemsim, a.preset, a.sets, sizes, order, n, work)
            worst = max(worst, abs(model - silicon))
            print(f"x{n}: smallest GPCs' SMs over the largest's {model:.3f}, silicon (ahead / rest) {silicon:.3f}")
    if a.check is not None and worst > a.check:
        sys.exit(f"gpc_split_model_check: {worst:.3f} from silicon (tolerance {a.check})")


if __name__ == "__main__":
    main()

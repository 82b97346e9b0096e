#!/usr/bin/env python3
"""When the programs of seed 001's GEMV end, with its atomics and with plain stores (gms-gemv-times,
validate/scripts/device_gemv_times.sh): per case, part and stamped run, the span from the first
program's start to the last one's end, the first wave's end times (the programs that started within
2 us of the first: quantiles, in us from the kernel's start), the median program duration and, where
the runs have the compute-done stamp, the reduction's hand-over (from the program's last FMA to its end:
median / p90 / max, all programs and the first wave's).

    validate/scripts/gemv_times.py validate/results/h200/gemv_times [--model CASE=RUN_DIR --clock-mhz 1980] [--check]

Cases named `_resN` (`device_gemv_times.sh --resident ...`) are printed, not checked.
--model: the same numbers from a `gpumemsim run --record ... --out RUN_DIR` of CASE (its ctas.csv; cycles
at --clock-mhz, the preset's clock.sm). --check: exit 1 unless, in every 1-warp run, the atomics hold the
first wave's programs - its 90th-percentile end at least 5 us later than with plain stores, the span at
least 10 us longer and, where the runs have the compute-done stamp, the first wave's 90th-percentile
hand-over at least 3 us longer (what silicon shows and the model's exits, which wait only for a slice's
input to take the reductions, do not).
"""
import argparse
import csv
import io
import json
import re
import sys
import tarfile
from pathlib import Path

from check_result import report

WAVE_START_US = 2.0


def quantile(a, p):
    return a[int(p * (len(a) - 1))]


def summary(starts, ends, computed=None):
    s0 = min(starts)
    starts = [s - s0 for s in starts]
    ends = [e - s0 for e in ends]
    first = sorted(e for s, e in zip(starts, ends) if s < WAVE_START_US)
    dur = sorted(e - s for s, e in zip(starts, ends))
    out = {"span": max(ends), "wave1": len(first), "q": [quantile(first, p) for p in (0, .1, .5, .9, 1)],
           "dur": quantile(dur, .5)}
    if computed:  # the reduction's hand-over: from the program's last FMA to its end
        tail = sorted(e - (c - s0) for e, c in zip(ends, computed))
        tail1 = sorted(e - (c - s0) for s, e, c in zip(starts, ends, computed) if s < WAVE_START_US)
        out["handover"] = [quantile(tail, p) for p in (.5, .9, 1)]
        out["handover1"] = [quantile(tail1, p) for p in (.5, .9, 1)]
    return out


def silicon_runs(folder):
    with tarfile.open(folder / "gemv_times.tar.gz") as tar:
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            k = re.match(r"(.+)_(full|stores)_run(\d+)\.csv$", Path(m.name).name)
            if not k:
                continue
            rows = list(csv.DictReader(io.TextIOWrapper(tar.extractfile(m))))
            computed = [int(r["gt_compute_done_ns"]) / 1000 for r in rows] if "gt_compute_done_ns" in rows[0] else None
            yield k.group(1), k.group(2), int(k.group(3)), summary(
                [int(r["gt_start_ns"]) / 1000 for r in rows], [int(r["gt_end_ns"]) / 1000 for r in rows], computed)


def model_run(run_dir, mhz):
    rows = list(csv.DictReader(open(Path(run_dir) / "ctas.csv")))
    return summary([float(r["start_cycle"]) / mhz for r in rows], [float(r["end_cycle"]) / mhz for r in rows])


def line(name, s):
    q = "/".join(f"{x:.1f}" for x in s["q"])
    text = f"{name:58s} span {s['span']:6.1f} us  first wave {s['wave1']:4d} ends p0/10/50/90/100 {q}  duration median {s['dur']:.1f}"
    if "handover" in s:
        h, h1 = ("/".join(f"{x:.2f}" for x in s[k]) for k in ("handover", "handover1"))
        text += f"  hand-over p50/90/100 {h} (first wave {h1})"
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--model", action="append", default=[], metavar="CASE=RUN_DIR")
    ap.add_argument("--clock-mhz", type=float, default=1980.0)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    for l in (a.folder / "gemv_times.jsonl").read_text().splitlines():
        j = json.loads(l)
        print(f"{j['case']} {j['part']}: plain {j['plain_ns.median'] / 1000:.1f} us, stamped {j['stamped_ns.median'] / 1000:.1f} us "
              f"(event-timed), {j['registers']} / {j['stamped_registers']} registers")
    runs = {}
    for case, part, r, s in silicon_runs(a.folder):
        runs.setdefault(case, {}).setdefault(part, []).append(s)
        print(line(f"{case} {part} run {r}", s))
    for m in a.model:
        case, run_dir = m.split("=", 1)
        print(line(f"{case} model", model_run(run_dir, a.clock_mhz)))
    bad = []
    for case, parts in runs.items():
        # Runs at a forced residency (`_resN`) carry dynamic shared memory, which moves the L1 carve-out:
        # read, not held.
        if "_w1_" not in case or "_res" in case or "full" not in parts or "stores" not in parts:
            continue
        stores_p90 = max(s["q"][3] for s in parts["stores"])
        stores_span = max(s["span"] for s in parts["stores"])
        stores_handover = max((s["handover1"][1] for s in parts["stores"] if "handover1" in s), default=None)
        for s in parts["full"]:
            if stores_handover is not None and s["handover1"][1] < stores_handover + 3:
                bad.append(f"{case}: the first wave's p90 hand-over {s['handover1'][1]:.2f} us with atomics, "
                           f"{stores_handover:.2f} with stores")
            if s["q"][3] < stores_p90 + 5:
                bad.append(f"{case}: the first wave's p90 end {s['q'][3]:.1f} us with atomics, {stores_p90:.1f} with stores")
            if s["span"] < stores_span + 10:
                bad.append(f"{case}: span {s['span']:.1f} us with atomics, {stores_span:.1f} with stores")
    if not runs:
        sys.exit(f"no stamped runs in {a.folder}/gemv_times.tar.gz")
    report(bad, a.check)


if __name__ == "__main__":
    main()

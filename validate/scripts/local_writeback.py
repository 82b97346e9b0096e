#!/usr/bin/env python3
"""Which stored spill frames reach DRAM though they fit L2 (gms-local-ubench --writeback,
validate/scripts/device_local_writeback.sh; validate/results/<gpu>/local_writeback; docs/calibration.md).

  local_writeback.py DIR [--check]

Per case (store-only rounds of 90 STL.64 a thread, 200 rounds, frames missing L1; `store` to local memory,
`fstore` to global memory laid out frame by frame as local memory lays it out): the CTAs (one an SM), threads, the
frames' footprint, the bytes stored per launch, and what the launch wrote to DRAM (the median of its three timed
launches under ncu, whose cache control writes L2 back before each), as MB and per footprint.

--check: exit 1 unless every case has its three launches, no case up to 5 MB of frames writes more than 1 % of its
footprint, the largest footprint's local stores write at least 10x their footprint and 10x the same layout's
global stores, and those global stores still write at least half their footprint - what the H200 measured on
2026-11-29: the L2 (60 MiB) writes stored lines back well below its size, local ones far sooner than global."""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import report  # noqa: E402
from ncu_launches import json_lines, raw_launches  # noqa: E402

FRAME_BYTES = 720  # per thread: 90 doubles
LAUNCHES_PER_CASE = 4  # a warm-up (2 rounds) and three timed launches (200 rounds)


def cases(directory):
    """Per case of the run (in its order): its JSON line, the stored bytes and the DRAM bytes written of its three
    timed launches."""
    runs = json_lines(os.path.join(directory, "local_writeback_run.jsonl"))
    launches = raw_launches(os.path.join(directory, "local_writeback_ncu.csv"))
    if len(launches) != LAUNCHES_PER_CASE * len(runs):
        sys.exit(f"{directory}: {len(runs)} cases but {len(launches)} profiled launches (expected {LAUNCHES_PER_CASE} each)")
    out = []
    for i, run in enumerate(runs):
        timed = launches[LAUNCHES_PER_CASE * i + 1:LAUNCHES_PER_CASE * (i + 1)]
        for t in timed:
            if int(t["launch__grid_size"]) != run["ctas"] or int(t["launch__block_size"]) != run["threads"]:
                sys.exit(f"{directory}: case {i} ({run['mode']}, {run['ctas']} x {run['threads']}) paired with a launch of "
                         f"{t['launch__grid_size']:.0f} x {t['launch__block_size']:.0f}")
        op = "local" if run["mode"] == "store" else "global"
        stored = [32 * t[f"l1tex__t_sectors_pipe_lsu_mem_{op}_op_st.sum"] for t in timed]
        written = [t["dram__bytes_write.sum"] for t in timed]
        out.append((run, statistics.median(stored), statistics.median(written)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    rows = cases(a.dir)
    gpu = rows[0][0]["gpu"] if rows else "?"
    print(f"# {gpu}: stored frames and what reached DRAM, per launch of 200 store rounds")
    print("| mode | CTAs | threads | frames (MB) | stored (MB) | DRAM written (MB) | written / frames |")
    print("|---|---|---|---|---|---|---|")
    by = {}
    for run, stored, written in rows:
        footprint = run["ctas"] * run["threads"] * FRAME_BYTES
        by[(run["mode"], run["ctas"], run["threads"])] = (footprint, written)
        print(f"| {run['mode']} | {run['ctas']} | {run['threads']} | {footprint / 1e6:.2f} | {stored / 1e6:.0f} | "
              f"{written / 1e6:.2f} | {written / footprint:.2f} |")
    failures = []
    for (mode, ctas, threads), (footprint, written) in by.items():
        if footprint <= 5e6 and written > 0.01 * footprint:
            failures.append(f"{mode} {ctas} x {threads}: {written / 1e6:.2f} MB written from {footprint / 1e6:.2f} MB of frames")
    largest = max((k for k in by if k[0] == "store"), key=lambda k: by[k][0], default=None)
    if largest is None or ("fstore",) + largest[1:] not in by:
        failures.append("no store / fstore pair of cases")
    else:
        (fp, local), (_, glob) = by[largest], by[("fstore",) + largest[1:]]
        print(f"\nlargest frames ({fp / 1e6:.1f} MB): local stores write {local / fp:.1f}x them, global stores laid out "
              f"the same {glob / fp:.2f}x ({local / max(glob, 1):.0f}x less)")
        if local < 10 * fp or local < 10 * glob:
            failures.append(f"largest frames: local {local / 1e6:.0f} MB written, global {glob / 1e6:.0f} MB, frames {fp / 1e6:.1f} MB")
        if glob < 0.5 * fp:
            failures.append(f"largest frames: global stores write {glob / 1e6:.1f} MB, under half their {fp / 1e6:.1f} MB")
    report(failures, a.check)


if __name__ == "__main__":
    main()

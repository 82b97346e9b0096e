#!/usr/bin/env python3
"""Which spill frames reach DRAM though they fit L2 (gms-local-ubench --writeback / --reload,
validate/scripts/device_local_writeback.sh; validate/results/<gpu>/local_writeback; docs/calibration.md).

  local_writeback.py DIR [--model FILE] [--check]
  local_writeback.py DIR --fit BENCH PRESET

Per case (rounds of 90 8-byte accesses a thread, 200 rounds, frames missing L1; `store` to local memory, `fstore`
to global memory laid out frame by frame as local memory lays it out; with the --reload files, `fload` loading
those global frames, `fswap` storing and loading them, `swap` doing both to local memory): the CTAs (one an SM),
threads, the frames' footprint, the bytes stored per launch, and what the launch read from and wrote to DRAM (the
median of its three timed launches under ncu, whose cache control writes L2 back and empties it before each), as
MB and per footprint.

--check: exit 1 unless every case has its three launches, no store case up to 5 MB of frames writes more than 1 %
of its footprint, the largest footprint's local stores write at least 10x their footprint and 10x the same layout's
global stores, and those global stores still write at least half their footprint; and, with the --reload files,
unless loading the global frames reads each once (0.98-1.05x the footprint: clean lines stay), and at the largest
footprint storing and loading them writes at least their footprint to DRAM while reading under a third of it
back (local) or 2 % (global) - what the H200 measured on 2026-11-29: the L2 (60 MiB) writes dirty lines back long
before it is full and keeps them, local ones far more often than global.

--model FILE: the model's side (build/local_writeback's JSON lines: l2.dirty_ways_per_set and
l2.local_dirty_ways_per_set replaying the same rounds) beside each case; with --check also exit 1 unless, from 8 MB
of frames on, the model writes within 3x of silicon for local frames (store, swap) and for global ones up to 12 MB
(fstore, fswap; beyond, the global limit's curve rises 3-6x more steeply than silicon's: printed, not held),
and writes local frames back more than global ones at the largest footprint.

--fit BENCH PRESET: the limits that replay DIR best - BENCH (build/local_writeback) run on PRESET with both limits
at 4..14 ways, each run scoring the global limit on fstore / fswap and the local one on store / swap (local stores
take only the local limit, global ones only the global one) by the mean |log((model + 1 MB) / (silicon + 1 MB))| over
the cases; prints the table and `fit: l2.dirty_ways_per_set=K l2.local_dirty_ways_per_set=L` (what
validate/scripts/calibrate_gpu.sh puts in a GPU's measured preset)."""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import report  # noqa: E402
from ncu_launches import json_lines, raw_launches  # noqa: E402

FRAME_BYTES = 720  # per thread: 90 doubles
LAUNCHES_PER_CASE = 4  # a warm-up (2 rounds) and three timed launches (200 rounds)


def cases(directory, part="writeback"):
    """Per case of the run (in its order): its JSON line, the stored bytes, the DRAM bytes written and read (each the
    median of its three timed launches)."""
    runs = json_lines(os.path.join(directory, f"local_{part}_run.jsonl"))
    launches = raw_launches(os.path.join(directory, f"local_{part}_ncu.csv"))
    if len(launches) != LAUNCHES_PER_CASE * len(runs):
        sys.exit(f"{directory}: {len(runs)} cases but {len(launches)} profiled launches (expected {LAUNCHES_PER_CASE} each)")
    out = []
    for i, run in enumerate(runs):
        timed = launches[LAUNCHES_PER_CASE * i + 1:LAUNCHES_PER_CASE * (i + 1)]
        for t in timed:
            if int(t["launch__grid_size"]) != run["ctas"] or int(t["launch__block_size"]) != run["threads"]:
                sys.exit(f"{directory}: case {i} ({run['mode']}, {run['ctas']} x {run['threads']}) paired with a launch of "
                         f"{t['launch__grid_size']:.0f} x {t['launch__block_size']:.0f}")
        op = "local" if run["mode"] in ("store", "swap") else "global"
        stored = [32 * t.get(f"l1tex__t_sectors_pipe_lsu_mem_{op}_op_st.sum", 0) for t in timed]
        written = [t["dram__bytes_write.sum"] for t in timed]
        read = [t["dram__bytes_read.sum"] for t in timed]
        out.append((run, statistics.median(stored), statistics.median(written), statistics.median(read)))
    return out


def model_failures(by, model):
    """What --check holds of the model's side (see the module's text)."""
    failures = []
    for key, (footprint, written, _) in sorted(by.items()):
        if key not in model:
            failures.append(f"no model line for {key}")
            continue
        mode, ctas, threads = key
        held = mode in ("store", "swap") or (mode in ("fstore", "fswap") and footprint <= 12.5e6)
        if footprint >= 8e6 and held and written > 0:
            ratio = model[key][0] / written
            if not 1 / 3 <= ratio <= 3:
                failures.append(f"model {mode} {ctas} x {threads}: {model[key][0] / 1e6:.1f} MB written, silicon {written / 1e6:.1f}")
    largest = max((k for k in model if k[0] == "store"), key=lambda k: k[1] * k[2], default=None)
    if largest and model[largest][0] <= model.get(("fstore",) + largest[1:], (float("inf"),))[0]:
        failures.append(f"model: local stores at {largest[1]} x {largest[2]} written back no more than global ones")
    return failures


def model_of(lines):
    """build/local_writeback's JSON objects as (mode, CTAs, threads) -> (DRAM bytes written, read)."""
    return {(m["mode"], m["ctas"], m["threads"]): (m["dram_bytes_written"], m["dram_bytes_read"]) for m in lines}


def log_error(by, model, modes):
    """Mean |log((model + 1 MB) / (silicon + 1 MB))| of the DRAM bytes written over the cases of `modes`."""
    errs = [abs(math.log((model[k][0] + 1e6) / (w + 1e6))) for k, (_, w, _) in by.items() if k[0] in modes and k in model]
    return sum(errs) / len(errs) if errs else float("inf")


def fit(by, bench, preset):
    """Prints each limit's errors and the best global and local limits."""
    print("| ways | global (fstore, fswap) | local (store, swap) |\n|---|---|---|")
    best = {}
    for ways in range(4, 15):
        out = subprocess.run([bench, preset, f"gpu.l2.dirty_ways_per_set={ways}", f"gpu.l2.local_dirty_ways_per_set={ways}"],
                             capture_output=True, text=True, check=True).stdout
        model = model_of(json.loads(line) for line in out.splitlines() if line.startswith("{"))
        errors = {"global": log_error(by, model, ("fstore", "fswap")), "local": log_error(by, model, ("store", "swap"))}
        print(f"| {ways} | {errors['global']:.3f} | {errors['local']:.3f} |")
        for kind, e in errors.items():
            if kind not in best or e < best[kind][1]:
                best[kind] = (ways, e)
    print(f"fit: l2.dirty_ways_per_set={best['global'][0]} l2.local_dirty_ways_per_set={best['local'][0]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--model", help="the model's JSON lines (build/local_writeback)")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--fit", nargs=2, metavar=("BENCH", "PRESET"), help="fit the two limits with build/local_writeback")
    a = ap.parse_args()
    rows = cases(a.dir)
    gpu = rows[0][0]["gpu"] if rows else "?"
    print(f"# {gpu}: frames and what reached DRAM, per launch of 200 rounds")
    if os.path.exists(os.path.join(a.dir, "local_reload_run.jsonl")):
        rows += cases(a.dir, "reload")
    model = model_of(json_lines(a.model)) if a.model else {}
    extra = " model: written / frames | read / frames |" if model else ""
    print("| mode | CTAs | threads | frames (MB) | stored (MB) | DRAM written (MB) | written / frames | DRAM read / frames |" + extra)
    print("|---|---|---|---|---|---|---|---|" + ("---|---|" if model else ""))
    by = {}
    for run, stored, written, read in rows:
        key = (run["mode"], run["ctas"], run["threads"])
        footprint = run["ctas"] * run["threads"] * FRAME_BYTES
        by[key] = (footprint, written, read)
        line = (f"| {run['mode']} | {run['ctas']} | {run['threads']} | {footprint / 1e6:.2f} | {stored / 1e6:.0f} | "
                f"{written / 1e6:.2f} | {written / footprint:.2f} | {read / footprint:.2f} |")
        if model:
            mw, mr = model.get(key, (float("nan"), float("nan")))
            line += f" {mw / footprint:.2f} | {mr / footprint:.2f} |"
        print(line)
    failures = []
    for (mode, ctas, threads), (footprint, written, _) in by.items():
        if mode in ("store", "fstore") and footprint <= 5e6 and written > 0.01 * footprint:
            failures.append(f"{mode} {ctas} x {threads}: {written / 1e6:.2f} MB written from {footprint / 1e6:.2f} MB of frames")
    largest = max((k for k in by if k[0] == "store"), key=lambda k: by[k][0], default=None)
    if largest is None or ("fstore",) + largest[1:] not in by:
        failures.append("no store / fstore pair of cases")
    else:
        (fp, local, _), (_, glob, _) = by[largest], by[("fstore",) + largest[1:]]
        print(f"\nlargest frames ({fp / 1e6:.1f} MB): local stores write {local / fp:.1f}x them, global stores laid out "
              f"the same {glob / fp:.2f}x ({local / max(glob, 1):.0f}x less)")
        if local < 10 * fp or local < 10 * glob:
            failures.append(f"largest frames: local {local / 1e6:.0f} MB written, global {glob / 1e6:.0f} MB, frames {fp / 1e6:.1f} MB")
        if glob < 0.5 * fp:
            failures.append(f"largest frames: global stores write {glob / 1e6:.1f} MB, under half their {fp / 1e6:.1f} MB")
    if any(k[0] == "fload" for k in by):
        for (mode, ctas, threads), (footprint, _, read) in by.items():
            if mode == "fload" and not 0.98 * footprint <= read <= 1.05 * footprint:
                failures.append(f"fload {ctas} x {threads}: {read / 1e6:.2f} MB read for {footprint / 1e6:.2f} MB of frames")
        for mode, back in (("swap", 1 / 3), ("fswap", 0.02)):
            key = max((k for k in by if k[0] == mode), key=lambda k: by[k][0], default=None)
            if key is None:
                failures.append(f"no {mode} case")
                continue
            fp, written, read = by[key]
            print(f"largest frames, {mode}: {written / fp:.2f}x them written to DRAM, {read / fp:.2f}x read back")
            if written < fp or read > back * fp:
                failures.append(f"{mode} {key[1]} x {key[2]}: {written / 1e6:.1f} MB written, {read / 1e6:.1f} MB read, "
                                f"frames {fp / 1e6:.1f} MB")
    if model:
        failures += model_failures(by, model)
    if a.fit:
        fit(by, *a.fit)
    report(failures, a.check)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Seed 002's main loop phase by phase (validate/scripts/device_ladder_phases.sh): per rung and K tile, the cycles a
warp spends from the previous tile's last barrier until its copies are issued ("load": the copies' issue and their
loads' latency), at the barrier behind them ("barrier"), and from that barrier to the next tile's start ("compute":
the compute and the barrier behind it) - silicon's from every warp's clock stamps, in 16-cycle bins, the first K
tile apart (its loads find a cold L2).

    validate/scripts/ladder_phases.py validate/results/h200/ladder_phases [--check] [--model CASE=RUN ...]

--model CASE=RUN: a model run of the rung's record with one SM's warps traced (`gpumemsim run --record
validate/results/GPU/seed002/CASE.json --warp-timeline 0 -o RUN`) beside silicon: the same three phases of every warp
of that SM - its CTAs' barrier releases from barriers.csv, a warp's arrival where its `barrier` segment in warps.csv
starts (the last to arrive waits no time and has none) - and the first wave's CTAs by their rank on the SM (silicon's
ranked by when their warps entered the loop, the model's by their start). On the cp.async rungs the model's warps
wait for their copies after the barrier (its release on), where silicon's wait before it (cp.async.wait_group): their
model "load" holds only the copies' issue, their "compute" the wait.

--check: exit 1 unless every rung of the ladder is there with every stamp written and the stamped kernel's
occupancy the plain one's (a rung that lost occupancy to the stamps is listed and not held to it), and silicon's
phases add up to the kernel: per rung the three phases' means x K tiles x waves (CTAs / the CTAs that fit at once)
within 15 % of the stamped kernel's time at the GPU's clock (the env file's clocks.max.sm); with --model, every traced
CTA released two barriers a K tile of the rung (a run of another rung, or one without barriers.csv, is refused).
"""
import argparse
import bisect
import csv
import gzip
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from check_result import report

RUNGS = 9  # validate/runner/ladder_runner.cu
PHASES = ("load", "barrier", "compute")


def silicon_percentile(bins, q):
    """The q-quantile of a 16-cycle histogram [(bin start, count)], at the bin's middle."""
    total = sum(c for _, c in bins)
    seen = 0
    for start, c in sorted(bins):
        seen += c
        if seen >= q * total:
            return start + 8
    return 0


def open_text(path):
    """A CSV as the device wrote it, or gzip-compressed beside it (PATH.gz), as the records keep the larger ones."""
    gz = path.with_name(path.name + ".gz")
    return gzip.open(gz, "rt") if gz.exists() else open(path)


def read_silicon(folder):
    rows = [json.loads(l) for l in open(folder / "ladder_phases_run.jsonl") if l.startswith("{")]
    out = {}
    for r in rows:
        hist = defaultdict(list)  # phase -> [(bin, count)], every CTA
        by_rank = defaultdict(list)  # (first-wave rank, phase) -> [(bin, count)]
        with open_text(folder / f"seed002_{r['rung']}_phases.csv") as f:
            for h in csv.DictReader(f):
                b = (int(h["bin_start_cycles"]), int(h["warp_tiles"]))
                hist[h["phase"]].append(b)
                if h["ctas"].startswith("first_rank"):
                    by_rank[(int(h["ctas"][len("first_rank"):]), h["phase"])].append(b)
        r["hist"], r["by_rank"] = hist, by_rank
        with open_text(folder / f"seed002_{r['rung']}_phase_by_tile.csv") as f:
            r["k_tiles"] = sum(1 for _ in csv.DictReader(f))
        out[f"seed002_{r['rung']}"] = r
    return out


def hist_mean(bins):
    n = sum(c for _, c in bins)
    return sum((s + 8) * c for s, c in bins) / n if n else 0.0


def percentiles(values):
    v = sorted(values)
    pick = lambda q: v[int(q * (len(v) - 1))] if v else 0.0
    return {"mean": sum(v) / len(v) if v else 0.0, "p10": pick(0.1), "p50": pick(0.5), "p90": pick(0.9)}


def model_phases(run, first_wave, k_tiles):
    """Per phase the list of a warp's cycles per K tile (the first tile apart) on the traced SM of a model run, and
    the same by the first wave's rank on the SM; with the problems that keep a CTA out."""
    releases = defaultdict(list)  # cta -> its barriers' release cycles
    if not (run / "barriers.csv").exists():
        sys.exit(f"ladder_phases.py: {run / 'barriers.csv'} is missing (a run with --warp-timeline writes it)")
    with open(run / "barriers.csv") as f:
        for r in csv.DictReader(f):
            releases[int(r["launch_index"])].append(float(r["release_cycle"]))
    warps = defaultdict(set)
    start = {}  # cta -> its first segment's start
    arrival = {}  # (cta, warp, barrier index) -> when the warp began to wait there
    with open(run / "warps.csv") as f:
        rows = list(csv.DictReader(f))
    for s in rows:
        cta = int(s["launch_index"])
        warps[cta].add(int(s["warp_slot"]))
        start[cta] = min(start.get(cta, float("inf")), float(s["start_cycle"]))
    for s in rows:
        if s["state"] != "barrier":
            continue
        cta, end = int(s["launch_index"]), float(s["end_cycle"])
        rel = releases.get(cta, [])
        # the barrier the segment ends at: the last release at or before its end (a warp whose copies are still on
        # their way waits on past the release, as the model books it)
        i = bisect.bisect_right(rel, end + 1e-6) - 1
        if i >= 0:
            arrival.setdefault((cta, int(s["warp_slot"]), i), float(s["start_cycle"]))
    phases = {p: [] for p in PHASES}
    by_rank = defaultdict(list)  # (first-wave rank, phase) -> cycles
    problems = []
    started = sorted(releases, key=lambda c: start.get(c, 0.0))
    ranks = {c: i for i, c in enumerate(c for c in started if c < first_wave)}  # the traced SM's first wave by start
    for cta, rel in releases.items():
        if len(rel) != 2 * k_tiles:
            problems.append(f"CTA {cta}: {len(rel)} barrier releases, not two a K tile ({2 * k_tiles})")
            continue
        for w in warps[cta]:
            for k in range(1, k_tiles):  # the first tile apart, as silicon's
                first, second = rel[2 * k], rel[2 * k + 1]
                arrive = min(arrival.get((cta, w, 2 * k), first), first)  # the last to arrive did not wait
                d = {"load": arrive - rel[2 * k - 1], "barrier": first - arrive, "compute": second - first}
                for p in PHASES:
                    phases[p].append(d[p])
                    if cta in ranks:
                        by_rank[(ranks[cta], p)].append(d[p])
    return phases, by_rank, problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=RUN", help="a model run with --warp-timeline")
    a = ap.parse_args()
    if not (a.folder / "ladder_phases_run.jsonl").exists():
        sys.exit(f"ladder_phases.py: {a.folder / 'ladder_phases_run.jsonl'} is missing")
    sil = read_silicon(a.folder)
    env = (a.folder / "ladder_phases_env.txt").read_text()
    clock = re.search(r", (\d+) MHz, [\d.]+ W, GPU-", env)
    mhz = float(clock.group(1)) if clock else None
    failures = []
    if len(sil) != RUNGS:
        failures.append(f"{len(sil)} rungs, the ladder has {RUNGS}")
    print("silicon, cycles a warp spends per K tile (tiles after the first; mean / p10 / p50 / p90):")
    print(f"{'rung':30s} {'CTAs/SM':>7s} " + " ".join(f"{p:>26s}" for p in PHASES) + f" {'sum x tiles x waves':>20s}")
    for case, r in sil.items():
        lost = r["ctas_per_sm"] != r["ctas_per_sm_plain"]
        cells = []
        for p in PHASES:
            h = r["hist"][p]
            cells.append(f"{r[p]['mean']:7.0f} {silicon_percentile(h, .1):5d} {silicon_percentile(h, .5):5d} "
                         f"{silicon_percentile(h, .9):5d}")
        tiles = r["k_tiles"]
        waves = r["ctas"] / (r["first_wave_ctas"] or 1)
        cycles = (sum(r[p]["mean"] for p in PHASES) * (tiles - 1) + r["load_k_tile0_mean"]) * waves
        us = cycles / mhz if mhz else 0.0
        ratio = us / r["time_us_median_stamped"] if r["time_us_median_stamped"] else 0.0
        occ = f"{r['ctas_per_sm']}" + (f" (plain {r['ctas_per_sm_plain']})" if lost else "")
        print(f"{case:30s} {occ:>7s} " + " ".join(f"{c:>26s}" for c in cells) +
              f" {us:9.0f} us / {r['time_us_median_stamped']:.0f}")
        if r["unwritten_stamps"] * 1000 > r["ctas"] * r["warps_per_cta"] * (2 + 3 * tiles):
            failures.append(f"{case}: {r['unwritten_stamps']} stamps unwritten")
        if not lost and mhz and abs(ratio - 1) > 0.15:
            failures.append(f"{case}: the phases add to {us:.0f} us, the stamped kernel ran {r['time_us_median_stamped']:.0f}")
    if a.model:
        print("\nmodel beside silicon, cycles a warp spends per K tile (mean / p10 / p50 / p90; silicon's first):")
    for spec in a.model:
        case, _, run = spec.partition("=")
        if case not in sil:
            failures.append(f"--model {case}: no such rung in {a.folder}")
            continue
        r = sil[case]
        phases, by_rank, problems = model_phases(Path(run), r["first_wave_ctas"], r["k_tiles"])
        failures += [f"{case}: {p}" for p in problems]
        for p in PHASES:
            m = percentiles(phases[p])
            h = r["hist"][p]
            print(f"{case:30s} {p:8s} silicon {r[p]['mean']:7.0f} {silicon_percentile(h, .1):6d} "
                  f"{silicon_percentile(h, .5):6d} {silicon_percentile(h, .9):6d}   model {m['mean']:7.0f} "
                  f"{m['p10']:6.0f} {m['p50']:6.0f} {m['p90']:6.0f}   ({len(phases[p])} warp-tiles)")
        if r["by_rank"]:
            print(f"{'':30s} the first wave by rank on its SM (0: the oldest), mean cycles, silicon / model:")
        for rank in range(r["ctas_per_sm"]):
            cells = [f"{p} {hist_mean(r['by_rank'].get((rank, p), [])):6.0f} / "
                     f"{percentiles(by_rank.get((rank, p), []))['mean']:6.0f}" for p in PHASES]
            print(f"{'':30s} rank {rank}: " + "   ".join(cells))
    report(failures, a.check)


if __name__ == "__main__":
    main()

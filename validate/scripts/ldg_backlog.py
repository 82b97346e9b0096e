#!/usr/bin/env python3
"""Does a global load wait behind the shared-memory instructions queued ahead of it on its SM? (gms-ldg-backlog-ubench,
validate/scripts/device_ldg_backlog.sh): silicon's record beside the model's replay of the same kernel.

    ldg_backlog.py validate/results/h200/ldg_backlog [--model build/gpumemsim --gpu configs/gpus/h200.yaml] [--check]

A chase of dependent loads - `ldg_l2` (ld.global.cg: L2 hits), `ldg_l1` (ld.global.ca: L1 hits), `lds` (shared) -
timed alone (`none`), beside a warp that keeps the MIO queue full of 32-way conflicted LDS on the chasing warp's
sub-partition (`same`) or on another (`other`), and beside conflict-free LDS.128 from one warp on its sub-partition
(`same128`) or from seven warps on every sub-partition (`all128`, the path busy throughout, as a tiled GEMM's compute
keeps it). Printed: cycles per hop (silicon: the median over the SMs and launches, p10-p90) and what the flood adds.

--model: the same kernel as an Accel-Sim trace on one SM of the preset - one CTA, the flood in its warps as the
microbenchmark's, the chase in warp 4 (its lines read twice before a delay and the timed hops) - each hop from its
load's issue to the next one's (warps.csv), the median over chases of 8 hops (silicon's statistic).
--check: exit 1 unless silicon's shared chase waits behind the flood (the benchmark works: `lds` same and other at
least 100 cycles a hop over none, all128 at least 30) and each global chase waits about as long as the shared one
(the flood's share of a hop within 0.6-1.6x of `lds`'s beside same, other and all128: a global load waits its turn at
the data path as a shared load does, not the whole queue); with --model also unless the model's `ldg_l2` hop beside
the 32-way floods is within 35 % of silicon's (not so on the H200 preset, 2026-12-03: +838 / +495 cycles against
+294 / +326, and +209 beside all128 against +50 - +265 before sm.mio_entries_by_cta_age; docs/cta-share.md,
docs/shared-path-turns.md)."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import ONE_SM_SETS, SHARED_BASE, add_replay_args, issue_times, run_trace, write_warps_trace  # noqa: E402
from jsonl_rows import read_jsonl  # noqa: E402

CHASES = ("ldg_l2", "ldg_l1", "lds")
FLOODS = ("none", "same", "other", "same128", "all128")
LINES = 8  # lines a chase cycles through, as the microbenchmark's
GLOBAL_BASE = 0x7F0000000000
HOPS, CHASE = 81, 8  # the model's timed hops (80 gaps between them: ten chases of CHASE, as the microbenchmark's)
WARPS = 8
TIMED = 4  # the chasing warp: sub-partition 0, as the microbenchmark's


def read(directory):
    path = os.path.join(directory, "ldg_backlog_run.jsonl")
    rows = {(r["chase"], r["flood"]): r for r in read_jsonl(path, "ldg_backlog.py") if r.get("measure") == "ldg_backlog"}
    missing = [f"{c}/{f}" for c in CHASES for f in FLOODS if (c, f) not in rows]
    if missing:
        sys.exit(f"ldg_backlog.py: {path}: no row for {', '.join(missing)}")
    return rows


def flood_lanes(i):
    """A 32-way conflicted LDS: lane l reads row l, word (5 i) % 32 - every lane in one bank."""
    return " ".join(f"0x{SHARED_BASE + 4 * (l * 32 + (5 * i) % 32):x}" for l in range(32))


def hop_line(chase, k):
    """One hop of a chase: R10 <- the load at line k (its address register R10: the last hop's data)."""
    if chase == "lds":
        return f"ffffffff 1 R10 LDS 1 R10 4 1 0x{SHARED_BASE + 4096 + 128 * k:x} 0 0"
    op = "LDG.E.CG" if chase == "ldg_l2" else "LDG.E"
    return f"ffffffff 1 R10 {op} 1 R10 4 1 0x{GLOBAL_BASE + 128 * k:x} 0 0"


def chase_warp(chase, hops):
    """The timed warp: its lines read twice (into L2, and L1 for ldg_l1), a delay of dependent adds while the flood fills
    the queue, then `hops` timed hops."""
    warm = [hop_line("ldg_l1" if chase == "lds" else chase, k % LINES) for k in range(2 * LINES)]
    delay = ["ffffffff 1 R11 IADD3 2 R11 R11 0 0"] * 500
    return warm + delay + [hop_line(chase, k % LINES) for k in range(hops)] + ["ffffffff 0 EXIT 0 0 0"]


def flood_warp(rounds, vec=False):
    """rounds of 64 independent 32-way LDS.32 and their sum; vec: rounds of 16 conflict-free LDS.128, 32 times as many."""
    body = []
    if vec:
        for _ in range(32 * rounds):
            body += [f"ffffffff 1 R{20 + i} LDS.128 1 R0 16 1 0x{SHARED_BASE + 512 * (i % 8):x} 16 0" for i in range(16)]
            body += [f"ffffffff 1 R2 IADD3 2 R2 R{20 + i} 0 0" for i in range(16)]
    else:
        for _ in range(rounds):
            body += [f"ffffffff 1 R{20 + i % 64} LDS 1 R0 4 0 {flood_lanes(i)} 0" for i in range(64)]
            body += [f"ffffffff 1 R2 IADD3 2 R2 R{20 + i} 0 0" for i in range(64)]
    return body + ["ffffffff 0 EXIT 0 0 0"]


def model_hop(binary, gpu, chase, flood, work, sets):
    """The model's cycles per timed hop, as the microbenchmark's statistic: one CTA as the microbenchmark's (the flood's
    warps, the chase in warp 4), HOPS timed hops; each hop from its load's issue to the next one's (warps.csv of SM 0:
    the chasing warp's issues), the mean of each CHASE consecutive hops, and the median of those means (silicon's
    median over chases of kHops: a flood's gaps between its rounds, where a chase waits nothing, land in a few)."""
    idle = ["ffffffff 0 EXIT 0 0 0"]
    flooders = {"none": (), "same": (0,), "other": (1,), "same128": (0,), "all128": (0, 1, 2, 3, 5, 6, 7)}[flood]
    warps = [chase_warp(chase, HOPS) if w == TIMED else
             flood_warp(40, flood.endswith("128")) if w in flooders else idle for w in range(WARPS)]
    name = f"{chase}-{flood}"
    kl = write_warps_trace(os.path.join(work, name), "ldg_backlog", lambda _: warps, 1, WARPS)
    out = run_trace(binary, gpu, kl, work, [*ONE_SM_SETS, *sets], name + "-out", ["--warp-timeline", "0"])
    issues = issue_times(out, (TIMED,))[TIMED]
    hops = issues[-HOPS - 1:-1]  # the timed hops' issues (the last issue is the EXIT)
    gaps = [b - a for a, b in zip(hops, hops[1:])]
    means = [sum(gaps[i:i + CHASE]) / CHASE for i in range(0, len(gaps) - CHASE + 1, CHASE)]
    return statistics.median(means)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    add_replay_args(ap)
    a = ap.parse_args()
    rows = read(a.folder)
    failures = []

    def share(c, f):  # what the flood adds to silicon's hop
        return rows[(c, f)]["cycles_per_hop_median"] - rows[(c, "none")]["cycles_per_hop_median"]

    print("| chase | flood | silicon cycles a hop (p10-p90) | the flood's share | model | the flood's share |")
    print("|---|---|---|---|---|---|")
    model = {}
    with tempfile.TemporaryDirectory(prefix="ldg_backlog.") as work:
        for c in CHASES:
            for f in FLOODS:
                r = rows[(c, f)]
                cells = ["", ""]
                if a.model:
                    try:
                        model[(c, f)] = model_hop(a.model, a.gpu, c, f, work, a.set)
                    except subprocess.CalledProcessError as e:
                        sys.exit(f"ldg_backlog.py: {' '.join(e.cmd)}: {e.stderr.strip()}")
                    cells = [f"{model[(c, f)]:.1f}", "" if f == "none" else f"{model[(c, f)] - model[(c, 'none')]:+.0f}"]
                print(f"| {c} | {f} | {r['cycles_per_hop_median']:.1f} ({r['cycles_per_hop_p10']:.1f}-"
                      f"{r['cycles_per_hop_p90']:.1f}) | {'' if f == 'none' else f'{share(c, f):+.0f}'} | {cells[0]} | {cells[1]} |")
    for f in ("same", "other", "all128"):
        if share("lds", f) < (100 if f != "all128" else 30):
            failures.append(f"the shared chase does not wait behind the flood ({f}): the benchmark did not fill the queue")
            continue
        for c in ("ldg_l2", "ldg_l1"):
            if not 0.6 <= share(c, f) / share("lds", f) <= 1.6:
                failures.append(f"{c} beside the flood ({f}): +{share(c, f):.0f} cycles a hop against the shared chase's "
                                f"+{share('lds', f):.0f}")
        if a.model:
            si, mo = rows[("ldg_l2", f)]["cycles_per_hop_median"], model[("ldg_l2", f)]
            if abs(mo / si - 1) > 0.35:
                failures.append(f"ldg_l2 beside the flood ({f}): the model's {mo:.0f} cycles a hop, silicon's {si:.0f}")
    if a.check:
        if failures:
            sys.exit("ldg_backlog.py: " + "; ".join(failures))
        print("check: silicon's global chases wait behind the flood about as its shared chase does"
              + ("; the model's L2 chase within 35 % of silicon's" if a.model else ""))


if __name__ == "__main__":
    main()

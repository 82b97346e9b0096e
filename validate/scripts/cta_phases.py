#!/usr/bin/env python3
"""Where a WMMA GEMM CTA's time goes on silicon: gms-cta-times' phase stamps (device_cta_times.sh; the
STAMP kernel stamps %globaltimer at entry, when the first K tile is in shared memory, after the last MMA
and after the last store). Per case, medians over the runs' CTAs: the prologue (entry -> first tile), the
main loop and its time per K step, the epilogue (last MMA -> last store), the whole CTA, a slot's idle
time between a CTA's end and the next start on its SM (the SM's two slots: the gap to the latest end
before a start), how far apart the two CTAs sharing an SM end their main loops (per CTA, the loop end
of the CTA on its SM it overlaps longest: in lockstep their epilogues meet at the SM's way out), and of
each SM's first two CTAs (started together), on how many SMs the older one (the lower launch index) ends its
loop first and by how much (median; negative: the younger ahead).

  cta_phases.py DIR [--check] [--model CASE=RUN_DIR ...]

--check: exit 1 unless every case spends 3-5 us per CTA outside its main loop (prologue + epilogue), its
slots idle 300-600 ns between CTAs and the CTAs sharing an SM end their loops over 2 us apart (median) - what
the H100's stamps of 2026-11-26 show (docs/calibration.md, docs/sm-sharing.md).

--model CASE=RUN_DIR: the same row for a `gpumemsim run --record .../CASE.json -o RUN_DIR` replay, from its
ctas.csv marks: the first barrier's release for the first tile, the first global store for the loop's end.
The kernel stamps its loop's end when its last MMA has issued, the model when the first store issues (after
the last MMA has completed): the MMA drain counts to the kernel's epilogue and to the model's loop."""
import argparse
import bisect
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_stamps import model_stamps, stamp_runs  # noqa: E402


def k_steps(case):
    """The K steps of a stamped case (gemm_MxNxK_...), at the stamped kernel's BK of 32."""
    m = re.match(r"gemm_(\d+)x(\d+)x(\d+)_", case)
    if not m:
        sys.exit(f"cta_phases: cannot read the shape of {case}")
    return int(m.group(3)) // 32


def case_stats(runs, k_steps):
    pro, loop, epi, tot, gaps, apart, lead = [], [], [], [], [], [], []
    for rows in runs:
        by_sm = {}
        for r in rows:
            if not r["gt_first_tile_ns"] or not r["gt_loop_end_ns"]:
                continue  # a model CTA without a barrier or a global store has no phases
            s, first, last, e = (int(r[k]) for k in ("gt_start_ns", "gt_first_tile_ns", "gt_loop_end_ns", "gt_end_ns"))
            pro.append(first - s)
            loop.append(last - first)
            epi.append(e - last)
            tot.append(e - s)
            by_sm.setdefault(r["sm"], []).append((s, e, last, int(r["cta"])))
        for spans in by_sm.values():
            apart += partner_offsets(spans)
            spans.sort()
            if len(spans) >= 2:  # the SM's first two CTAs: how far the older one's loop ends ahead
                (_, _, last0, cta0), (_, _, last1, cta1) = spans[0], spans[1]
                lead.append(last1 - last0 if cta0 < cta1 else last0 - last1)
            ends = sorted(x[1] for x in spans)
            for s, *_ in spans[2:]:  # the SM's two slots: the gap to the latest end before this start
                before = bisect.bisect_right(ends, s)
                if before:
                    gaps.append(s - ends[before - 1])
    us = lambda v: statistics.median(v) / 1e3
    return {"prologue": us(pro), "loop": us(loop), "per_step": us(loop) / k_steps, "epilogue": us(epi),
            "cta": us(tot), "gap_ns": statistics.median(gaps) if gaps else float("nan"),
            "apart": us(apart) if apart else float("nan"), "lead": us(lead) if lead else float("nan"),
            "older_first": sum(x > 0 for x in lead) / len(lead) if lead else float("nan")}


def partner_offsets(spans):
    """Per CTA of one SM ((start, end, loop end in ns, CTA index)), how far its loop end is from that of the CTA
    it overlaps longest on the SM."""
    out = []
    for i, (s, e, last, _) in enumerate(spans):
        best = None
        for j, (s2, e2, last2, _) in enumerate(spans):
            overlap = min(e, e2) - max(s, s2)
            if j != i and overlap > 0 and (best is None or overlap > best[0]):
                best = (overlap, last2)
        if best:
            out.append(abs(last - best[1]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=RUN_DIR")
    a = ap.parse_args()
    cases = stamp_runs(a.dir)
    for spec in a.model:
        case, _, run_dir = spec.partition("=")
        if not run_dir:
            sys.exit(f"cta_phases: --model takes CASE=RUN_DIR, not {spec}")
        try:
            cases[f"{case} (model)"] = [model_stamps(run_dir)]
        except ValueError as e:
            sys.exit(f"cta_phases: {e}")
    if not cases:
        sys.exit(f"cta_phases: no <case>_run<r>.csv[.gz] in {a.dir}")
    print("| case | prologue (us) | main loop (us) | per K step (us) | epilogue (us) | CTA (us) | slot idle between CTAs (ns) "
          "| loop ends apart, the SM's two CTAs (us) | its first two: the older ahead (SMs; by, us) |")
    print("|---|---|---|---|---|---|---|---|---|")
    stats = {}
    for case, runs in cases.items():
        s = stats[case] = case_stats(runs, k_steps(case))
        print(f"| {case} | {s['prologue']:.2f} | {s['loop']:.1f} | {s['per_step']:.3f} | {s['epilogue']:.2f} | "
              f"{s['cta']:.1f} | {s['gap_ns']:.0f} | {s['apart']:.2f} | {s['older_first']:.0%}; {s['lead']:.2f} |")
    if a.check:
        bad = [c for c, s in stats.items()
               if not (3 <= s["prologue"] + s["epilogue"] <= 5 and 300 <= s["gap_ns"] <= 600 and s["apart"] > 2)]
        if bad:
            sys.exit("cta_phases: cases outside 3-5 us of prologue + epilogue, 300-600 ns between CTAs or over 2 us "
                     "between the loop ends of an SM's two CTAs: " + ", ".join(bad))
        print(f"check: all {len(stats)} cases spend 3-5 us per CTA outside the main loop, slots idle 300-600 ns, "
              "the CTAs sharing an SM end their loops over 2 us apart")

if __name__ == "__main__":
    main()

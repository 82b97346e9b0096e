#!/usr/bin/env python3
"""What the CTAs sharing an SM cost its oldest one: each case's CTA alone on its SM (gms-ladder --stamps --alone)
beside the first wave's oldest and youngest CTA with the SM shared as the kernel's occupancy allows (gms-ladder
--stamps), silicon's and the model's.

  cta_alone.py SHARED_DIR ALONE_DIR [--model CASE=SHARED_RUN,ALONE_RUN ...] [--check]

Per case: the median duration of a CTA alone (every CTA of run 0; the runs' spread beside it), the median of the
first wave's oldest CTAs of their SM (rank 0 by start) and youngest (the last rank) with the SM shared, each over
the lone median. A scheduler that gives the oldest warps the issue port (greedy-then-oldest) leaves the oldest CTA
near its lone time and puts the sharing on the younger ones; where the oldest pays as much as the youngest, the
sharing slows every warp's own instructions. --model: `gpumemsim run -o DIR` replays of the shared record and of
the same record alone (`--set gpu.sm.max_ctas=1`; `--set workload.cta_limit=264` is enough).

--check: exit 1 unless every case's lone runs agree within 2 % and each case has its oldest and youngest CTA.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import report  # noqa: E402
from cta_stamps import first_wave_by_sm, model_stamps, stamp_runs  # noqa: E402

AGREE = 0.02


def durations(rows):
    return [int(r["gt_end_ns"]) - int(r["gt_start_ns"]) for r in rows]


def oldest_youngest(rows):
    """Median durations of the first wave's oldest and youngest CTA of each SM (ranked by start, then launch)."""
    oldest, youngest = [], []
    for ranked in first_wave_by_sm(rows):
        if len(ranked) < 2:
            continue
        oldest.append(ranked[0][2] - ranked[0][1])
        youngest.append(ranked[-1][2] - ranked[-1][1])
    if not oldest:
        raise ValueError("no SM with two CTAs or more in the first wave")
    return statistics.median(oldest), statistics.median(youngest)


def line(label, alone, spread, shared_rows):
    old, young = oldest_youngest(shared_rows)
    return (f"| {label} | {alone / 1000:.1f} | {100 * spread:.1f} % | {old / 1000:.1f} | {young / 1000:.1f} | "
            f"{old / alone:.3f} | {young / alone:.3f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shared_dir")
    ap.add_argument("alone_dir")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=SHARED_RUN,ALONE_RUN")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        shared, alone = stamp_runs(a.shared_dir), stamp_runs(a.alone_dir)
        if not alone:
            raise ValueError(f"no <case>_run<r>.csv[.gz] in {a.alone_dir}")
        models = {}
        for v in a.model:
            case, _, dirs = v.partition("=")
            s_dir, _, a_dir = dirs.partition(",")
            if not a_dir:
                raise ValueError(f"--model wants CASE=SHARED_RUN,ALONE_RUN, got '{v}'")
            models.setdefault(case, []).append((s_dir, a_dir))
        bad = []
        print("| case / source | alone (us) | runs' spread | oldest shared (us) | youngest shared (us) | oldest / alone "
              "| youngest / alone |")
        print("|---|---|---|---|---|---|---|")
        cases = [c for c in alone if c in shared]
        if not cases:
            raise ValueError(f"no case of {a.alone_dir} has stamps in {a.shared_dir}")
        for case in cases:  # the cases both folders hold (a folder of some rungs at another occupancy)
            runs = alone[case]
            medians = [statistics.median(durations(rows)) for rows in runs]
            spread = (max(medians) - min(medians)) / min(medians)
            if spread > AGREE:
                bad.append(f"{case}: lone medians {', '.join(f'{m / 1000:.1f}' for m in medians)} us run to run")
            print(line(f"{case} silicon", medians[0], spread, shared[case][0]))
            for s_dir, a_dir in models.get(case, []):
                lone = statistics.median(durations(model_stamps(a_dir)))
                print(line(f"{case} model {os.path.basename(os.path.normpath(s_dir))}", lone, 0.0, model_stamps(s_dir)))
    except (ValueError, OSError, KeyError) as e:
        print(f"cta_alone.py: {e}", file=sys.stderr)
        return 2
    report(bad, a.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())

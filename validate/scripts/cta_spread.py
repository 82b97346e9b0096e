#!/usr/bin/env python3
"""How far a GEMM's CTAs fall out of step: silicon (gms-cta-times stamps) beside the model
(`gpumemsim run ... -o DIR` writes DIR/ctas.csv).

  cta_spread.py validate/results/h100/cta_times [--model CASE=DIR ...] [--markdown]

Per case: the median CTA duration, its coefficient of variation and p90/p10 ratio, and the spread
(standard deviation) of start times within waves 1, 5 and 10 (a wave: as many consecutive launch
indices as CTAs started before the first one ended - the CTAs resident together, 2 per SM for the
WMMA kernel, 1-4 for Triton's tilings), for each stamped run and for the model. In
lockstep every wave starts within a few dispatch intervals; silicon's spread grows wave by wave
as its CTA durations vary.

Pull-back: per wave (from the second on), the correlation of a CTA's start within its wave and its
duration; the median over the waves. Below 0, late starters run faster and the waves close up
again (the model's lockstep, docs/calibration.md); at 0 or above, a late start stays late.

Catch-up: the same per wave with each CTA's duration taken relative to its SM's mean (the SMs' own,
lasting speeds taken out): the slope of duration over start within the wave, us per us late, the
median over the waves. -1: a CTA that starts late ends with the others (it is pulled back all the
way); 0: it stays as late as it started. Silicon's positive pull-back is its SMs' (a slow SM starts
its CTAs late and runs them long); what is left is its catch-up, near 0 (docs/calibration.md).
"""
import argparse
import csv
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_stamps import model_pairs, stamp_runs  # noqa: E402


def spread(starts, ends, per_wave, sms):
    dur = sorted(e - s for s, e in zip(starts, ends))
    mean = statistics.fmean(dur)
    out = {
        "median_us": statistics.median(dur) / 1e3,
        "cv": statistics.pstdev(dur) / mean if mean > 0 else 0.0,
        "p90_p10": dur[9 * len(dur) // 10] / dur[len(dur) // 10] if dur[len(dur) // 10] > 0 else 0.0,
    }
    for w in (1, 5, 10):
        wave = starts[w * per_wave:(w + 1) * per_wave]
        out[f"wave{w}_std_us"] = statistics.pstdev(wave) / 1e3 if len(wave) > 1 else float("nan")
    pull = []
    for w in range(1, len(starts) // per_wave):
        ws = starts[w * per_wave:(w + 1) * per_wave]
        wd = [e - s for s, e in zip(ws, ends[w * per_wave:(w + 1) * per_wave])]
        if statistics.pstdev(ws) > 0 and statistics.pstdev(wd) > 0:
            pull.append(statistics.correlation(ws, wd))
    out["pull_back"] = statistics.median(pull) if pull else float("nan")
    out["catch_up"] = catch_up(starts, ends, per_wave, sms)
    return out


def catch_up(starts, ends, per_wave, sms):
    """Median over waves 1.. of the slope of (duration - its SM's mean duration) over start."""
    by_sm = {}
    for s, e, sm in zip(starts, ends, sms):
        by_sm.setdefault(sm, []).append(e - s)
    sm_mean = {sm: statistics.fmean(d) for sm, d in by_sm.items()}
    slopes = []
    for w in range(1, len(starts) // per_wave):
        part = range(w * per_wave, (w + 1) * per_wave)
        ws = [starts[i] for i in part]
        rel = [ends[i] - starts[i] - sm_mean[sms[i]] for i in part]
        if statistics.pstdev(ws) > 0:
            slopes.append(statistics.linear_regression(ws, rel).slope)
    return statistics.median(slopes) if slopes else float("nan")


def resident(starts, ends):
    """CTAs resident at once: those that started before the first one ended."""
    first_end = min(ends)
    return max(1, sum(1 for s in starts if s < first_end))


def silicon_runs(directory):
    """{case: [stats per run]} from <case>_run<r>.csv[.gz] (ns from %globaltimer)."""
    runs = {}
    for case, stamped in stamp_runs(directory).items():
        for rows in stamped:
            starts = [int(r["gt_start_ns"]) for r in rows]
            ends = [int(r["gt_end_ns"]) for r in rows]
            sms = [int(r["sm"]) for r in rows]
            runs.setdefault(case, []).append(spread(starts, ends, resident(starts, ends), sms))
    return runs


def model_run(directory):
    """Stats of a `gpumemsim run` output directory: ctas.csv in cycles of the clock in stats.json."""
    with open(os.path.join(directory, "stats.json")) as f:
        clock = json.load(f)["metrics"]["sm__cycles_elapsed.avg.per_second"]  # the clock its time is given at
    rows = list(csv.DictReader(open(os.path.join(directory, "ctas.csv"))))
    rows.sort(key=lambda r: int(r["launch_index"]))
    ns = 1e9 / clock
    starts = [float(r["start_cycle"]) * ns for r in rows]
    ends = [float(r["end_cycle"]) * ns for r in rows]
    sms = [int(r["sm"]) for r in rows]
    return spread(starts, ends, resident(starts, ends), sms)


def row(label, s):
    return (f"| {label} | {s['median_us']:.1f} | {100 * s['cv']:.1f} % | {s['p90_p10']:.3f} | "
            f"{s['wave1_std_us']:.2f} | {s['wave5_std_us']:.2f} | {s['wave10_std_us']:.2f} | {s['pull_back']:+.2f} | {s['catch_up']:+.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("silicon_dir")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=DIR")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every silicon run drifts: wave 10's start spread > 2x wave 1's, CV 1-10 %%, "
                         "pull-back above -0.2")
    args = ap.parse_args()
    runs = silicon_runs(args.silicon_dir)
    if not runs:
        sys.exit(f"cta_spread: no <case>_run<r>.csv[.gz] in {args.silicon_dir}")
    models = {case: model_run(d) for case, d in model_pairs(args.model, "cta_spread")}
    print("| case / source | CTA duration median (us) | CV | p90/p10 | start std wave 1 (us) | wave 5 | wave 10 | pull-back | catch-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case, stats in runs.items():
        for i, s in enumerate(stats):
            print(row(f"{case} silicon run {i}", s))
        if case in models:
            print(row(f"{case} model", models[case]))
    if args.check:
        bad = [f"{case} run {i}: wave 1 {s['wave1_std_us']:.2f} us, wave 10 {s['wave10_std_us']:.2f} us, CV {100 * s['cv']:.1f} %, "
               f"pull-back {s['pull_back']:+.2f}, catch-up {s['catch_up']:+.2f}"
               for case, stats in runs.items() for i, s in enumerate(stats)
               if not (s["wave10_std_us"] > 2 * s["wave1_std_us"] and 0.01 <= s["cv"] <= 0.10 and s["pull_back"] > -0.2)]
        if bad:
            sys.exit("cta_spread: runs that do not drift as silicon's did:\n  " + "\n  ".join(bad))
        print(f"check: all {sum(len(v) for v in runs.values())} silicon runs drift (wave 10 spread > 2x wave 1, CV 1-10 %, "
              "pull-back > -0.2)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Do some SMs run a kernel's CTAs faster than others, run after run? (issue 11: the lockstep orders)

Reads the stamped CTA times of validate/results/<gpu>/cta_times (<case>_run<r>.csv.gz: cta, sm,
gt_start_ns, gt_end_ns, ...) and prints per case: the spread of the SMs' mean CTA durations (CV),
the correlation of those means between runs (near 0: noise; near 1: a property of the SM or of the
tiles it gets), and the SMs more than 3 % faster than the median SM, with their runs' means.

usage: validate/scripts/cta_sm_speed.py DIR [--check] [--model CASE=RUN_DIR ...]
"""
import argparse
import collections
import csv
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_stamps import stamp_runs  # noqa: E402
from rank_stats import pearson  # noqa: E402


def per_sm_means(rows, start, end):
    """Per SM, the mean of its CTAs' end - start (columns `start`, `end` of the rows)."""
    durations = collections.defaultdict(list)
    for row in rows:
        durations[int(row["sm"])].append(int(row[end]) - int(row[start]))
    return {sm: statistics.mean(v) for sm, v in durations.items()}


def model_means(directory):  # a gpumemsim run: ctas.csv, cycles
    with open(os.path.join(directory, "ctas.csv")) as f:
        return per_sm_means(csv.DictReader(f), "start_cycle", "end_cycle")


def spread(mean):
    """CV of the per-SM means, the median SM's mean, the SMs over 3 % faster than it."""
    mid = statistics.median(mean.values())
    cv = statistics.pstdev(mean.values()) / statistics.mean(mean.values())
    return cv, mid, sorted(s for s in mean if mean[s] < 0.97 * mid)


def correlation(a, b):
    """Pearson's over the SMs both runs have; 0 where either is constant."""
    keys = sorted(set(a) & set(b))
    r = pearson([a[k] for k in keys], [b[k] for k in keys])
    return 0.0 if math.isnan(r) else r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("silicon_dir")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless some case has at least 12 SMs over 3 %% faster than the median SM with its "
                         "per-SM means correlating at +0.8 or more between every two runs (what silicon's "
                         "row-major GEMM shows: validate/results/h100/cta_times)")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=RUN_DIR",
                    help="the same spread for a `gpumemsim run --record .../CASE.json -o RUN_DIR` (its ctas.csv; "
                         "one run, so no run-to-run correlation: the model hands CTAs to SMs the same way every time)")
    args = ap.parse_args()
    models = []
    for m in args.model:
        if "=" not in m:
            ap.error(f"--model wants CASE=RUN_DIR, got '{m}'")
        models.append(m.split("=", 1))
    stamped = stamp_runs(args.silicon_dir)
    if not stamped:
        sys.exit(f"cta_sm_speed: no <case>_run<r>.csv[.gz] under {args.silicon_dir}")
    steady = []
    for case in sorted(stamped):
        runs = [per_sm_means(rows, "gt_start_ns", "gt_end_ns") for rows in stamped[case]]  # silicon: ns
        sms = sorted(set.intersection(*(set(r) for r in runs)))
        mean = {s: statistics.mean(r[s] for r in runs) for s in sms}
        cv, mid, fast = spread(mean)
        pairs = [correlation(runs[i], runs[j]) for i in range(len(runs)) for j in range(i + 1, len(runs))]
        print(f"{case}: {len(runs)} runs, {len(sms)} SMs, per-SM mean CTA duration CV {100 * cv:.2f} %, "
              f"run-to-run correlation {' '.join(f'{c:+.2f}' for c in pairs)}")
        if fast:
            print(f"  {len(fast)} SMs over 3 % faster than the median SM ({mid / 1000:.1f} us): "
                  f"{' '.join(str(s) for s in fast)} (their mean {statistics.mean(mean[s] for s in fast) / 1000:.1f} us)")
        if len(fast) >= 12 and len(runs) >= 2 and min(pairs) >= 0.8:
            steady.append(case)
    for case, directory in models:
        cv, mid, fast = spread(model_means(directory))
        print(f"{case} model ({directory}): per-SM mean CTA duration CV {100 * cv:.2f} %, "
              f"{len(fast)} SMs over 3 % faster than the median SM ({mid:.0f} cycles)"
              + (f": {' '.join(str(s) for s in fast)}" if fast else ""))
    if args.check:
        if not steady:
            sys.exit("cta_sm_speed: no case has a group of SMs faster run after run")
        print(f"check: SMs faster run after run in {' '.join(steady)}")


if __name__ == "__main__":
    main()

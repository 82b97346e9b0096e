#!/usr/bin/env python3
"""Do some SMs run a kernel's CTAs faster than others, run after run? (issue 11: the lockstep orders)

Reads the stamped CTA times of validate/results/<gpu>/cta_times (<case>_run<r>.csv.gz: cta, sm,
gt_start_ns, gt_end_ns, ...) and prints per case: the spread of the SMs' mean CTA durations (CV),
the correlation of those means between runs (near 0: noise; near 1: a property of the SM or of the
tiles it gets), and the SMs more than 3 % faster than the median SM, with their runs' means.

usage: validate/scripts/cta_sm_speed.py DIR [--check] [--model CASE=RUN_DIR ...]
  --check: exit 1 unless some case has at least 12 SMs over 3 % faster than the median SM with its
           per-SM means correlating at +0.8 or more between every two runs (what silicon's
           row-major GEMM shows: validate/results/h100/cta_times)
  --model CASE=RUN_DIR: the same spread for a `gpumemsim run --record .../CASE.json -o RUN_DIR`
           (its ctas.csv; one run, so no run-to-run correlation: the model hands CTAs to SMs the
           same way every time)
"""
import collections
import csv
import glob
import gzip
import os
import statistics
import sys


def per_sm_means(path):
    durations = collections.defaultdict(list)
    with gzip.open(path, "rt") as f:
        for row in csv.DictReader(f):
            durations[int(row["sm"])].append(int(row["gt_end_ns"]) - int(row["gt_start_ns"]))
    return {sm: statistics.mean(v) for sm, v in durations.items()}


def model_means(directory):
    durations = collections.defaultdict(list)
    with open(os.path.join(directory, "ctas.csv")) as f:
        for row in csv.DictReader(f):
            durations[int(row["sm"])].append(int(row["end_cycle"]) - int(row["start_cycle"]))
    return {sm: statistics.mean(v) for sm, v in durations.items()}


def spread(mean):
    """CV of the per-SM means, the median SM's mean, the SMs over 3 % faster than it."""
    mid = statistics.median(mean.values())
    cv = statistics.pstdev(mean.values()) / statistics.mean(mean.values())
    return cv, mid, sorted(s for s in mean if mean[s] < 0.97 * mid)


def correlation(a, b):
    keys = sorted(set(a) & set(b))
    x, y = [a[k] for k in keys], [b[k] for k in keys]
    mx, my = statistics.mean(x), statistics.mean(y)
    num = sum((p - mx) * (q - my) for p, q in zip(x, y))
    den = (sum((p - mx) ** 2 for p in x) * sum((q - my) ** 2 for q in y)) ** 0.5
    return num / den if den else 0.0


def main():
    argv, models = sys.argv[1:], []
    while "--model" in argv:
        i = argv.index("--model")
        if i + 1 >= len(argv) or "=" not in argv[i + 1]:
            sys.exit(f"cta_sm_speed: --model wants CASE=RUN_DIR\n{__doc__}")
        models.append(argv[i + 1].split("=", 1))
        del argv[i:i + 2]
    args = [a for a in argv if a != "--check"]
    check = "--check" in argv
    if len(args) != 1:
        sys.exit(__doc__)
    cases = sorted({os.path.basename(p).rsplit("_run", 1)[0] for p in glob.glob(os.path.join(args[0], "*_run*.csv.gz"))})
    if not cases:
        sys.exit(f"cta_sm_speed: no <case>_run<r>.csv.gz under {args[0]}")
    steady = []
    for case in cases:
        runs = [per_sm_means(p) for p in sorted(glob.glob(os.path.join(sys.argv[1], f"{case}_run*.csv.gz")))]
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
    if check:
        if not steady:
            sys.exit("cta_sm_speed: no case has a group of SMs faster run after run")
        print(f"check: SMs faster run after run in {' '.join(steady)}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How the Triton GEMV's programs end, silicon (triton_gemv_cta_times.py's stamps) beside the model (`gpumemsim run
--record ... -o DIR`: DIR/ctas.csv).

    triton_gemv_waves.py validate/results/h200/triton_gemv_cta_times [--model CASE=DIR ...] [--only REGEX] [--check]

FOLDER holds <case>_run<r>.csv[.gz], or triton_gemv_cta_times.tar.xz of them (read from the archive).

Per case and source: the median program duration; the first wave's ends by the programs' age on their SM (per SM
ranked by start, then launch order; the median over the SMs, in us from the SM's first start) and their mean over
the last - one program after another gives the ends evenly spaced (~0.5-0.85 for ten programs whose loads overlap),
programs served alike end together (~1); how evenly the later programs start: the coefficient of variation of
program starts per microsecond over the middle three fifths of the run (waves in step: large; drifted: small); and how
much a program's time follows the crowd at its start: over the same programs, the correlation of a program's duration
with the number of programs started in the 5 us before it.

--check: exit 1 unless the stamped runs of a case agree (first-wave mean over last within 0.03) and silicon ends every
first wave one program after another (mean over last at most 0.9 wherever ten or more programs share an SM), or
a --model run misses silicon's first-wave mean over last by more than --model-tolerance (0.05)."""
import argparse
import bisect
import os
import re
import statistics
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_stamps import first_wave_by_sm, model_pairs, model_stamps, stamp_runs  # noqa: E402


def first_wave(rows):
    """Per rank: the median end over the SMs (ns from the SM's first start); the median over the SMs of mean end / last
    end; programs per SM."""
    waves = first_wave_by_sm(rows)
    per_sm = max(len(w) for w in waves)
    ends = [[] for _ in range(per_sm)]
    ratios = []
    for w in waves:
        t0 = w[0][1]
        e = [end - t0 for _, _, end in w]
        for k, v in enumerate(e):
            ends[k].append(v)
        ratios.append(statistics.fmean(e) / max(e))
    return [statistics.median(v) for v in ends if v], statistics.median(ratios), per_sm


def start_cv(rows, bucket_ns=1000):
    starts = sorted(int(r["gt_start_ns"]) for r in rows)
    t0, t1 = starts[0], starts[-1]
    counts = [0] * (int((t1 - t0) // bucket_ns) + 1)
    for s in starts:
        counts[int((s - t0) // bucket_ns)] += 1
    mid = counts[len(counts) // 5:len(counts) * 4 // 5]
    return statistics.pstdev(mid) / statistics.fmean(mid) if len(mid) > 1 and statistics.fmean(mid) > 0 else float("nan")


def crowd(rows, window_ns=5000):
    starts = [int(r["gt_start_ns"]) for r in rows]
    ends = [int(r["gt_end_ns"]) for r in rows]
    t0, span = min(starts), max(ends) - min(starts)
    ordered = sorted(s - t0 for s in starts)
    pairs = []
    for s, e in zip(starts, ends):
        at = s - t0
        if 0.2 * span <= at <= 0.8 * span:
            pairs.append((bisect.bisect_right(ordered, at) - bisect.bisect_left(ordered, at - window_ns), e - s))
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    return statistics.correlation(xs, ys) if len(pairs) > 2 and statistics.pstdev(xs) > 0 and statistics.pstdev(ys) > 0 \
        else float("nan")


def summary(rows):
    durations = [int(r["gt_end_ns"]) - int(r["gt_start_ns"]) for r in rows]
    ends, ratio, per_sm = first_wave(rows)
    return {"duration_us": statistics.median(durations) / 1e3, "ends_us": [e / 1e3 for e in ends], "ratio": ratio,
            "per_sm": per_sm, "start_cv": start_cv(rows), "crowd": crowd(rows)}


def line(case, label, s):
    ends = " ".join(f"{e:.1f}" for e in s["ends_us"])
    return f"| {case} | {label} | {s['duration_us']:.1f} | {ends} | {s['ratio']:.2f} | {s['start_cv']:.2f} | {s['crowd']:+.2f} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=DIR")
    ap.add_argument("--only", help="regular expression: only the cases whose name it matches")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--model-tolerance", type=float, default=0.05,
                    help="how far a --model run's first-wave mean over last may be from silicon's (--check)")
    a = ap.parse_args()
    runs = stamp_runs(a.folder)
    archive = os.path.join(a.folder, "triton_gemv_cta_times.tar.xz")
    if not runs and os.path.isfile(archive):
        unpacked = tempfile.mkdtemp(prefix="triton_gemv_waves.")
        with tarfile.open(archive) as tar:
            tar.extractall(unpacked, filter="data")
        runs = stamp_runs(unpacked)
    if not runs:
        sys.exit(f"triton_gemv_waves.py: no <case>_run<r>.csv[.gz] in {a.folder}")
    models = dict(model_pairs(a.model, "triton_gemv_waves.py"))
    for case in models:
        if case not in runs:
            sys.exit(f"triton_gemv_waves.py: --model {case}: no such case in {a.folder}")
    failures = []
    print("| case | source | program duration median (us) | first wave's ends by age on their SM (us) | mean / last | "
          "starts per us, CV | duration ~ starts of the 5 us before |")
    print("|---|---|---|---|---|---|---|")
    for case, case_runs in runs.items():
        if a.only and not re.search(a.only, case) and case not in models:
            continue
        sums = [summary(r) for r in case_runs]
        for i, s in enumerate(sums):
            print(line(case, f"silicon run {i}", s))
        ratios = [s["ratio"] for s in sums]
        if max(ratios) - min(ratios) > 0.03:
            failures.append(f"{case}: the runs' first waves end unlike each other (mean / last {min(ratios):.2f}-{max(ratios):.2f})")
        if sums[0]["per_sm"] >= 10 and max(s["ratio"] for s in sums) > 0.9:
            failures.append(f"{case}: silicon's first wave ends together (mean / last {sums[0]['ratio']:.2f})")
        if case in models:
            m = summary(model_stamps(models[case]))
            print(line(case, "model", m))
            if abs(m["ratio"] - sums[0]["ratio"]) > a.model_tolerance:
                failures.append(f"{case}: the model's first wave ends with mean / last {m['ratio']:.2f}, silicon's "
                                f"{sums[0]['ratio']:.2f}")
    if a.check:
        if failures:
            sys.exit("triton_gemv_waves.py:\n  " + "\n  ".join(failures))
        print("check: the runs agree; silicon ends each first wave one program after another"
              + ("; the model's first waves end as silicon's" if models else ""))


if __name__ == "__main__":
    main()

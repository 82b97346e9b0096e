#!/usr/bin/env python3
"""Do the CTAs resident on one SM run alike, or does the oldest go first? Silicon's stamps (gms-ladder
--stamps, gms-cta-times) beside the model's replay (`gpumemsim run ... -o DIR`).

  cta_ranks.py SILICON_DIR [--model CASE=DIR ...] [--case CASE ...] [--check]

Per case and source, the first wave (every CTA started before the first one ended): its CTAs ranked on
their SM by dispatch order (0 = the SM's first CTA), and per rank the median duration over the median of
rank 0. A warp scheduler that favours the oldest warps (greedy-then-oldest) lets rank 0 finish first and
the youngest last (ratios rising with rank); one that takes the SM's warps in turn keeps them near 1.00.
How far the co-resident CTAs' progress differs sets how far apart the CTAs that share a row or column
panel read it, and with it the L2's hits (docs/shared-memory.md, "Co-resident CTAs").

Also per source: the CTA durations' coefficient of variation over the whole grid, `youngest/oldest`,
the last rank's ratio, and how far apart the first wave's leading CTAs run - on each SM the one that ends first
(by outcome, not by dispatch: silicon's starts lie within a few of %globaltimer's 32 ns steps, so the dispatch
order of a few SMs' pairs is a coin toss) -: their durations' CV and range over their median (silicon's BK 32
leaders end 15-20 us apart, the model's within 4.4 us: the drift that lets CTAs sharing a tile reach its lines
apart, docs/co-resident-ctas.md). With --model, how far each model run's youngest/oldest lies from the median of
silicon's runs, the mean of those errors per folder the model runs sit in (one folder per what-if:
`--model A=SET/a --model B=SET/b` scores SET over its cases, so several what-ifs compare in one call), and each
model run's leading CTAs' CV beside silicon's median run's. Last, `slower with: launch / start`: per SM the Spearman of
its first-wave CTAs' durations with their launch index and with their start, averaged over the SMs whose CTAs differ -
on silicon the higher launch index is the slower CTA on every SM (+1.00) while the starts order little (their 32 ns
steps tie), so the hardware's "oldest" is the lower blockIdx, not the first to arrive.
`--check`: exit 1 unless every case's silicon runs agree on youngest/oldest within 0.05 (the order the
hardware gives co-resident CTAs repeats run to run) and each shows two ranks or more.
"""
import argparse
import collections
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_stamps import first_wave_by_sm, model_pairs, stamp_runs  # noqa: E402
from rank_stats import spearman  # noqa: E402

AGREE = 0.05  # --check: how far apart two runs' youngest/oldest may be

# One run's summary: the first wave's duration per rank over rank 0's and CTAs per rank; the CV of all its CTAs'
# durations; the CV and range over median of the first wave's leading CTAs (each SM's first to end); and how its
# co-resident CTAs' durations follow their launch index and their start, each the mean over the first wave's SMs of
# a Spearman (None where no SM's CTAs differ).
RunStats = collections.namedtuple("RunStats", "ratios counts cv leaders_cv leaders_range by_launch by_start")


def model_rows(directory):
    """A `gpumemsim run -o DIR` replay's CTAs as stamp rows (cycles stand for ns: only ratios are taken)."""
    path = os.path.join(directory, "ctas.csv")
    if not os.path.isfile(path):
        raise ValueError(f"{directory}: no ctas.csv (a `gpumemsim run -o DIR` output?)")
    with open(path) as f:
        return [{"cta": r["launch_index"], "sm": r["sm"], "gt_start_ns": r["start_cycle"], "gt_end_ns": r["end_cycle"]}
                for r in csv.DictReader(f)]


def cv(values):
    return statistics.pstdev(values) / statistics.fmean(values)


def mean_or_none(values):
    return statistics.fmean(values) if values else None


def rank_ratios(rows):
    """The RunStats of one run's stamp rows."""
    per_rank, leaders, by_launch, by_start = {}, [], [], []
    for ranked in first_wave_by_sm(rows):
        for rank, (_, start, end) in enumerate(ranked):
            per_rank.setdefault(rank, []).append(end - start)
        leaders.append(min(end - start for _, start, end in ranked))
        durations = [end - start for _, start, end in ranked]
        if len(set(durations)) > 1:  # an SM whose CTAs all take the same time orders nothing
            by_launch.append(spearman([cta for cta, _, _ in ranked], durations))
            by_start.append(spearman([start for _, start, _ in ranked], durations))
    base = statistics.median(per_rank[0])
    ratios = [statistics.median(per_rank[k]) / base for k in sorted(per_rank)]
    counts = [len(per_rank[k]) for k in sorted(per_rank)]
    durations = [int(r["gt_end_ns"]) - int(r["gt_start_ns"]) for r in rows]
    leaders_range = (max(leaders) - min(leaders)) / statistics.median(leaders)
    return RunStats(ratios, counts, cv(durations), cv(leaders), leaders_range,
                    mean_or_none([r for r in by_launch if r == r]), mean_or_none([r for r in by_start if r == r]))


def signed(value):
    return "-" if value is None else f"{value:+.2f}"


def row(label, st, width):
    cells = [f"{r:.3f} ({n})" for r, n in zip(st.ratios, st.counts)] + [""] * (width - len(st.ratios))
    return (f"| {label} | " + " | ".join(cells) + f" | {st.ratios[-1]:.3f} | {100 * st.cv:.1f} % | "
            f"{100 * st.leaders_cv:.2f} % / {100 * st.leaders_range:.1f} % | {signed(st.by_launch)} / {signed(st.by_start)} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("silicon_dir")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=DIR")
    ap.add_argument("--case", action="append", default=[], help="only these cases (default: every stamped one)")
    ap.add_argument("--check", action="store_true",
                    help=f"exit 1 unless each case's silicon runs agree on youngest/oldest within {AGREE}")
    args = ap.parse_args()
    runs = stamp_runs(args.silicon_dir)
    if not runs:
        sys.exit(f"cta_ranks: no <case>_run<r>.csv[.gz] in {args.silicon_dir}")
    models = {}
    for case, d in model_pairs(args.model, "cta_ranks"):
        try:
            models.setdefault(case, []).append((d, model_rows(d)))
        except ValueError as e:
            sys.exit(f"cta_ranks: {e}")
    table, bad, cases, errors = [], [], 0, {}
    for case, stamped in runs.items():
        if args.case and case not in args.case:
            continue
        cases += 1
        runs_stats = [rank_ratios(rows) for rows in stamped]
        youngest = [st.ratios[-1] for st in runs_stats]
        for i, st in enumerate(runs_stats):
            table.append((f"{case} silicon run {i}", st))
            if len(st.ratios) < 2:
                bad.append(f"{case} run {i}: one CTA per SM, no ranks to compare")
        if max(youngest) - min(youngest) > AGREE:
            bad.append(f"{case}: youngest/oldest " + " / ".join(f"{y:.3f}" for y in youngest) + " run to run")
        silicon = statistics.median(youngest)
        silicon_cv = statistics.median(st.leaders_cv for st in runs_stats)
        for d, rows in models.get(case, []):
            st = rank_ratios(rows)
            table.append((f"{case} model {os.path.basename(os.path.normpath(d))}", st))
            what_if = os.path.dirname(os.path.normpath(d)) or "."
            errors.setdefault(what_if, []).append((case, st, silicon, silicon_cv))
    if not table:
        sys.exit("cta_ranks: no case left (--case)")
    width = max(len(st.ratios) for _, st in table)
    print("| case / source | " + " | ".join(f"rank {k}" for k in range(width))
          + " | youngest/oldest | CV | leaders: CV / range | slower with: launch / start |")
    print("|---|" + "---|" * (width + 4))
    for label, st in table:
        print(row(label, st, width))
    for what_if, rows in errors.items():
        mean = statistics.fmean(abs(st.ratios[-1] - s) for _, st, s, _ in rows)
        print(f"\nyoungest/oldest, model in {what_if} against silicon's median run: "
              + ", ".join(f"{c} {st.ratios[-1]:.3f} / {s:.3f}" for c, st, s, _ in rows)
              + f"; mean abs. error {mean:.3f} over {len(rows)} case(s)")
        print(f"leading CTAs' CV, model in {what_if} against silicon's median run: "
              + ", ".join(f"{c} {100 * st.leaders_cv:.2f} / {100 * scv:.2f} %" for c, st, _, scv in rows))
    if args.check:
        if bad:
            sys.exit("cta_ranks: silicon's runs do not repeat:\n  " + "\n  ".join(bad))
        print(f"check: the {cases} cases' silicon runs agree on youngest/oldest within {AGREE}")


if __name__ == "__main__":
    main()

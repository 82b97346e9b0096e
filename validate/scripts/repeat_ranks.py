#!/usr/bin/env python3
"""How well silicon ranks its own kernels (issue 11's Spearman groups), from device_repeat.sh's rounds.

For each group (the CTA orders of one GEMM shape; the variants of one GEMV shape) and each of the two
measurements the records use (CUDA-event medians, `measured`; single ncu profiles, `ncu.counters`,
which `compare` scores), it prints:
  * spread: per kernel, (max - min) / median of its times over the rounds, the group's median of that;
  * round vs round: the mean Spearman of time between every two rounds - what a perfect model of
    the kernels could expect against one measured round (the group's ranking ceiling);
  * resolved pairs: pairs of kernels whose time ranges over the rounds do not overlap (silicon orders
    them the same way every round);
  * the committed records' ranking against the rounds' medians (are the records a typical round?).
usage: repeat_ranks.py RESULTS/<gpu>/repeat [--records RESULTS/<gpu>] [--json OUT.json]"""
import argparse, csv, glob, io, itertools, json, lzma, os, re, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_stats import spearman  # noqa: E402


def open_text(path):
    if os.path.exists(path + ".xz"):
        return io.TextIOWrapper(lzma.open(path + ".xz"), encoding="utf-8")
    return open(path, encoding="utf-8")


def group_of(case):
    if case.startswith("seed002_"):
        return "seed002 ladder"
    m = re.match(r"(gemm_\d+x\d+x\d+)_", case) or re.match(r"(gemv_1x\d+x\d+)_", case)
    if not m:
        sys.exit(f"repeat_ranks.py: case '{case}' belongs to no known group")
    return m.group(1)


def load_events(d, prefix=""):
    """Event medians per case over the rounds; prefix "ladder_" reads gms-ladder's lines."""
    times = {}
    path = os.path.join(d, prefix + "rounds_events.jsonl")
    if not os.path.exists(path) and not os.path.exists(path + ".xz"):
        return times
    with open_text(path) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                if "rung" in r:
                    times.setdefault("seed002_" + r["rung"], []).append(r["time_us_median"] * 1e3)
                else:
                    times.setdefault(r["case"], []).append(r["measured"]["gpu__time_duration.sum"])
    return times


def load_ncu(d, prefix=""):
    path = os.path.join(d, prefix + "rounds_ncu.csv")
    if not os.path.exists(path) and not os.path.exists(path + ".xz"):
        return {}
    with open_text(path) as f:
        text = f.read()
    names = re.findall(r"^profiled (\S+)", text, re.M)
    table = text[text.index('"ID",'):]
    rows = list(csv.reader(io.StringIO(table)))
    header, body = rows[0], rows[2:]  # the row after the header holds the units
    col = header.index("gpu__time_duration.sum")
    if len(body) != len(names):
        sys.exit(f"repeat_ranks.py: {len(body)} profiled kernels, {len(names)} 'profiled' lines")
    unit = rows[1][col]
    scale = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6}.get(unit)
    if scale is None:
        sys.exit(f"repeat_ranks.py: unknown time unit '{unit}'")
    times = {}
    for name, row in zip(names, body):
        times.setdefault(name, []).append(float(row[col].replace(",", "")) * scale)
    return times


def record_times(records_dir):
    out = {}
    for f in sum((glob.glob(os.path.join(records_dir, s, "*.json")) for s in ("gemm", "gemv", "seed002")), []):
        r = json.load(open(f))
        ev = r.get("measured", {}).get("gpu__time_duration.sum")
        ncu = r.get("ncu", {}).get("counters", {}).get("gpu__time_duration.sum")
        out[r["case"]] = {"events": ev, "ncu": ncu}
    return out


def analyse(times, records, how):
    groups = {}
    for case, ts in times.items():
        groups.setdefault(group_of(case), []).append(case)
    result = {}
    for g, cases in sorted(groups.items()):
        cases.sort()
        n_rounds = min(len(times[c]) for c in cases)
        spread = statistics.median((max(times[c]) - min(times[c])) / statistics.median(times[c]) for c in cases)
        per_round = [[times[c][k] for c in cases] for k in range(n_rounds)]
        pairs_rr = [spearman(a, b) for a, b in itertools.combinations(per_round, 2)]
        med = [statistics.median(times[c]) for c in cases]
        resolved = sum(1 for i, j in itertools.combinations(range(len(cases)), 2)
                       if max(times[cases[i]]) < min(times[cases[j]]) or max(times[cases[j]]) < min(times[cases[i]]))
        rec = [records.get(c, {}).get(how) for c in cases]
        rec_vs_med = spearman(rec, med) if all(v is not None for v in rec) else None
        result[g] = {"kernels": len(cases), "rounds": n_rounds, "median_spread": spread,
                     "round_vs_round_spearman": statistics.mean(pairs_rr), "round_vs_round_min": min(pairs_rr),
                     "resolved_pairs": resolved, "pairs": len(cases) * (len(cases) - 1) // 2,
                     "records_vs_round_medians": rec_vs_med,
                     "median_ns": dict(zip(cases, med)), "range_pct": {c: 100 * (max(times[c]) - min(times[c])) / statistics.median(times[c]) for c in cases}}
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repeat_dir")
    ap.add_argument("--records", help="the GPU's results folder (its gemm/ and gemv/ records)")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not os.path.isdir(a.repeat_dir):
        print(f"repeat_ranks.py: {a.repeat_dir}: not a folder", file=sys.stderr)
        return 2
    records = record_times(a.records) if a.records else {}
    out = {}
    for how, loader in (("events", load_events), ("ncu", load_ncu)):
        times = loader(a.repeat_dir)
        times.update(loader(a.repeat_dir, "ladder_"))
        out[how] = analyse(times, records, how)
        print(f"{how}: time of each kernel over the rounds")
        print(f"  {'group':24} {'kernels':>7} {'rounds':>6} {'spread':>7} {'round vs round':>15} {'(min)':>6} {'resolved pairs':>15} {'records vs medians':>19}")
        for g, r in out[how].items():
            rv = "-" if r["records_vs_round_medians"] is None else f"{r['records_vs_round_medians']:+.2f}"
            print(f"  {g:24} {r['kernels']:7} {r['rounds']:6} {100 * r['median_spread']:6.1f}% {r['round_vs_round_spearman']:+15.2f} "
                  f"{r['round_vs_round_min']:+6.2f} {r['resolved_pairs']:8} of {r['pairs']:<4} {rv:>19}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Joins two `gpumemsim compare --json` runs of one GPU's records: a whole scorecard (BASE) and a rerun of some of its
record sets (PART, e.g. the ones a model change moves), as docs/results/*-compare.md say when they were joined.

  join_compare.py BASE.json[.xz] PART.json[.xz] OUT.json

Every case of a group PART has is PART's (the same records in the same order: a name that two record sets share, such
as the WMMA GEMM's grouped-8 case in gemm/ and padding/, is matched in order, and each case's measured values must be
BASE's); the summary is recomputed over the joined cases (MAPE or mean absolute error per metric, as compare prints
it, checked first to reproduce BASE's own); PART's groups' Spearman, group sizes, per-group and per-set time MAPE
replace BASE's. Exit 2 on inputs that do not fit (a group split between the runs, other records)."""
import json
import lzma
import sys


def read(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def summarize(cases):
    acc = {}
    for c in cases:
        for k, v in c["metrics"].items():
            a = acc.setdefault(k, [0.0, 0, v["unit"]])
            a[0] += abs(v["error"])
            a[1] += 1
    return {k: {("mape_pct" if u == "%" else "mean_abs_error_pp"): s / n, "n": n} for k, (s, n, u) in acc.items()}


def fail(why):
    print(f"join_compare: {why}", file=sys.stderr)
    sys.exit(2)


def join(base, part):
    check = summarize(base["cases"])
    for k, v in base["summary"].items():
        key = next(x for x in v if x != "n")
        if k not in check or check[k]["n"] != v["n"] or abs(check[k][key] - v[key]) > 1e-9:
            fail(f"the base's summary of {k} is not its cases' mean error")
    groups = {c["group"] for c in part["cases"]}
    by_name = {}
    for c in part["cases"]:
        by_name.setdefault((c["case"], c["group"]), []).append(c)
    cases = []
    for c in base["cases"]:
        if c["group"] not in groups:
            cases.append(c)
            continue
        same = by_name.get((c["case"], c["group"]))
        if not same:
            fail(f"{c['case']} ({c['group']}) is in the base but not in the part: a group split between the runs")
        p = same.pop(0)
        if any(p["metrics"][k]["measured"] != v["measured"] for k, v in c["metrics"].items() if k in p["metrics"]):
            fail(f"{c['case']}: the part's measured values are not the base's (another record)")
        cases.append(p)
    left = [k for k, v in by_name.items() if v]
    if left:
        fail(f"{left[0][0]} ({left[0][1]}) is in the part but not in the base")
    out = dict(base)
    out["cases"] = cases
    joined = summarize(cases)
    out["summary"] = {k: joined[k] for k in base["summary"]}
    for key in ("spearman_time", "spearman_time_group_sizes", "time_mape_by_group"):
        theirs = part.get(key, {})
        merged = {g: theirs.get(g, v) for g, v in base.get(key, {}).items() if g not in groups or g in theirs}
        merged.update({g: v for g, v in theirs.items() if g not in merged})
        out[key] = merged
    sets = part.get("time_mape_by_record_set", {})
    out["time_mape_by_record_set"] = {s: sets.get(s, v) for s, v in base.get("time_mape_by_record_set", {}).items()}
    return out


def main():
    if len(sys.argv) != 4:
        fail("usage: join_compare.py BASE.json[.xz] PART.json[.xz] OUT.json")
    out = join(read(sys.argv[1]), read(sys.argv[2]))
    with open(sys.argv[3], "w") as f:
        json.dump(out, f, indent=1)
    print(f"joined {len(out['cases'])} cases")


if __name__ == "__main__":
    main()

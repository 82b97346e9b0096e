#!/usr/bin/env python3
"""How much of the SMs' L2 reads does the L2 request coalescer merge, on silicon and in the model, and what does the
difference do to time? (issue 11; docs/calibration.md "Merged where silicon looks up".)

  merge_ratios.py CARD --records DIR [--check]

CARD: a scorecard (`gpumemsim compare --json`, .json or .json.xz). DIR: the records of the same GPU
(validate/results/<gpu>); a case's record is DIR/<record_set>/<case>.json. Only records whose ncu counters carry
`l1tex__m_xbar2l1tex_read_sectors.sum` (sectors the SMs receive) and `lts__t_sectors_srcunit_tex_op_read.sum` (the
SMs' sectors the L2 tag stage looks up), of cases whose card entry has `lts__t_sectors_srcunit_ltcfabric.sum`, are
read: the Triton and TMA GEMMs (the WMMA GEMM's padding set carries no fabric count).

Per record, the share of delivered sectors that took no lookup (merged into an open request):
  merged = 1 - (lts__t_sectors_op_read - lts__t_sectors_srcunit_ltcfabric) / l1tex__m_xbar2l1tex_read_sectors,
the same formula on silicon's counters and the model's (the card has no tex-only read count for the model; the
record's exact silicon share, 1 - tex / xbar, is printed beside it), then the model's excess over silicon, the
model's time error and its L2 read lookups' error. Then the Pearson correlation of the excess with the time error,
and, per tiling found at K = 4096 and at K = 8192 (same tile, order and copy; the M = N = K records), how the merged
share changes with the CTAs' length on silicon and in the model.

--check: exit 1 unless the shared formula is within 0.02 of silicon's exact share on every record, the model runs
faster where it merges more (correlation of excess and time error <= -0.6), and on silicon every multi-CTA-an-SM
tiling merges less at K = 8192 than at 4096 by more than the model does (CTAs that share a tile drift apart over a
longer K loop on silicon; the model's stay in step)."""
import argparse
import json
import lzma
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import report  # noqa: E402
from rank_stats import pearson  # noqa: E402

XBAR = "l1tex__m_xbar2l1tex_read_sectors.sum"
TEX = "lts__t_sectors_srcunit_tex_op_read.sum"
READ = "lts__t_sectors_op_read.sum"
FABRIC = "lts__t_sectors_srcunit_ltcfabric.sum"
TIME = "gpu__time_duration.sum"
APPROX_TOLERANCE = 0.02
MAX_CORRELATION = -0.6


def usage_error(message):
    """A file or argument the user gave that cannot be read: one line, exit 2."""
    print(f"merge_ratios: {message}", file=sys.stderr)
    sys.exit(2)


def load_card(path):
    opener = lzma.open if path.endswith(".xz") else open
    try:
        with opener(path, "rt") as f:
            card = json.load(f)
    except (OSError, ValueError, lzma.LZMAError) as e:
        usage_error(f"{path}: {e}")
    if not isinstance(card, dict) or not isinstance(card.get("cases"), list):
        usage_error(f"{path}: not a scorecard (no 'cases' list)")
    return card


def record_of(records, case):
    """The case's record (ncu counters, workload), or None where DIR has none."""
    path = os.path.join(records, case.get("record_set", ""), case["case"] + ".json")
    if not os.path.isfile(path):
        return None
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError) as e:
        usage_error(f"{path}: {e}")
    return rec.get("ncu", {}).get("counters") or {}, rec.get("workload", {})


def ctas_per_sm(counters):
    limits = [counters[k] for k in counters if k.startswith("launch__occupancy_limit_") and counters[k] > 0]
    return int(min(limits)) if limits else 0


def is_cube(case):
    """An M = N = K case (its name's MxNxK)."""
    shape = re.search(r"_(\d+)x(\d+)x(\d+)_", case)
    return bool(shape) and len(set(shape.groups())) == 1


def rows_of(card, records):
    rows = []
    for case in card["cases"]:
        m = case["metrics"]
        if any(k not in m for k in (READ, FABRIC, TIME)):
            continue
        found = record_of(records, case)
        if not found:
            continue
        counters, workload = found
        xbar, tex = counters.get(XBAR), counters.get(TEX)
        if not xbar or tex is None:
            continue
        silicon = 1 - (m[READ]["measured"] - m[FABRIC]["measured"]) / xbar
        model = 1 - (m[READ]["simulated"] - m[FABRIC]["simulated"]) / xbar
        rows.append({
            "case": case["case"], "exact": 1 - tex / xbar, "silicon": silicon, "model": model, "excess": model - silicon,
            "time": m[TIME]["error"], "reads": m[READ]["error"], "k": workload.get("k"),
            "tiling": re.sub(r"_\d+x\d+x\d+_", "_MxNxK_", case["case"]), "ctas": ctas_per_sm(counters),
            "cube": is_cube(case["case"])})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("card")
    ap.add_argument("--records", required=True, help="validate/results/<gpu>")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not os.path.isdir(args.records):
        usage_error(f"{args.records}: not a directory")
    rows = rows_of(load_card(args.card), args.records)
    if not rows:
        usage_error(f"no case of {args.card} has a record in {args.records} with {XBAR} and {TEX}")
    failures = []
    print("| case | CTAs an SM | merged: silicon (exact) | model | excess | time error | L2 read lookups error |")
    print("|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: r["excess"]):
        print(f"| {r['case']} | {r['ctas']} | {r['silicon']:.2f} ({r['exact']:.2f}) | {r['model']:.2f} | "
              f"{r['excess']:+.2f} | {r['time']:+.1f} % | {r['reads']:+.1f} % |")
        if abs(r["silicon"] - r["exact"]) > APPROX_TOLERANCE:
            failures.append(f"{r['case']}: the shared formula gives {r['silicon']:.3f}, silicon's exact share "
                            f"{r['exact']:.3f}")
    c_excess = pearson([r["excess"] for r in rows], [r["time"] for r in rows]) if len(rows) > 2 else float("nan")
    c_reads = pearson([r["reads"] for r in rows], [r["time"] for r in rows]) if len(rows) > 2 else float("nan")
    print(f"\n{len(rows)} records: correlation of the merged excess with the time error {c_excess:+.2f}, "
          f"of the L2 read lookups' error with the time error {c_reads:+.2f}")
    if math.isnan(c_excess):
        failures.append("no correlation of the merged excess with the time error: one of them does not vary")
    elif c_excess > MAX_CORRELATION:
        failures.append(f"correlation of the merged excess with the time error {c_excess:+.2f} > {MAX_CORRELATION}")

    by_tiling = {}
    for r in rows:
        if r["cube"]:  # the K signature compares the 4096^3 and 8192^3 records (the rows sweep's K is 8192 throughout)
            by_tiling.setdefault(r["tiling"], {})[r["k"]] = r
    print("\n| tiling (K 4096 -> 8192) | CTAs an SM | silicon merged | model merged |")
    print("|---|---|---|---|")
    for tiling, ks in sorted(by_tiling.items()):
        if 4096 not in ks or 8192 not in ks:
            continue
        a, b = ks[4096], ks[8192]
        print(f"| {tiling} | {a['ctas']} | {a['silicon']:.2f} -> {b['silicon']:.2f} | {a['model']:.2f} -> {b['model']:.2f} |")
        if a["ctas"] > 1 and not (b["silicon"] - a["silicon"] < b["model"] - a["model"] and b["silicon"] < a["silicon"]):
            failures.append(f"{tiling}: silicon {a['silicon']:.2f} -> {b['silicon']:.2f}, model {a['model']:.2f} -> "
                            f"{b['model']:.2f} (silicon should merge less at K 8192, by more than the model)")
    report(failures, args.check)


if __name__ == "__main__":
    main()

"""The stamped CTA times of gms-cta-times and triton_cta_times.py: DIR/<case>_run<r>.csv[.gz], one row
per CTA (cta, sm, gt_start_ns, gt_end_ns, ...). Read by cta_spread.py, cta_sm_speed.py and cta_phases.py."""
import csv
import glob
import gzip
import os


def stamp_runs(directory):
    """{case: [rows of run 0, rows of run 1, ...]} in file-name order, each run's rows (dicts of the CSV's
    columns) sorted by CTA."""
    runs = {}
    paths = glob.glob(os.path.join(directory, "*_run*.csv")) + glob.glob(os.path.join(directory, "*_run*.csv.gz"))
    for path in sorted(paths):
        case = os.path.basename(path).rsplit("_run", 1)[0]
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            rows = sorted(csv.DictReader(f), key=lambda r: int(r["cta"]))
        runs.setdefault(case, []).append(rows)
    return runs


def first_wave_by_sm(rows):
    """The first wave's CTAs (every CTA started before the first one ended) of one run's stamp rows, per SM ranked
    by dispatch (start, then launch order): a list per SM of (cta, start_ns, end_ns), oldest first."""
    ctas = [(int(r["cta"]), int(r["sm"]), int(r["gt_start_ns"]), int(r["gt_end_ns"])) for r in rows]
    if not ctas:
        raise ValueError("no CTAs")
    first_end = min(c[3] for c in ctas)
    by_sm = {}
    for cta, sm, start, end in ctas:
        if start < first_end:
            by_sm.setdefault(sm, []).append((cta, start, end))
    return [sorted(v, key=lambda c: (c[1], c[0])) for v in by_sm.values()]


def model_stamps(directory):
    """A `gpumemsim run -o DIR` replay's CTAs as stamp rows: its ctas.csv in ns of the clock stats.json gives
    its time at, the first barrier's release as gt_first_tile_ns and the first global store as
    gt_loop_end_ns (the model's marks for the kernel's stamps; empty where a CTA had none)."""
    import json
    for name in ("stats.json", "ctas.csv"):
        if not os.path.isfile(os.path.join(directory, name)):
            raise ValueError(f"{directory}: no {name} (a `gpumemsim run -o DIR` output?)")
    with open(os.path.join(directory, "stats.json")) as f:
        ns = 1e9 / json.load(f)["metrics"]["sm__cycles_elapsed.avg.per_second"]
    with open(os.path.join(directory, "ctas.csv")) as f:
        reader = csv.DictReader(f)
        if "first_barrier_cycle" not in (reader.fieldnames or []):
            raise ValueError(f"{directory}/ctas.csv: no phase marks (written by an older gpumemsim)")
        rows = sorted(reader, key=lambda r: int(r["launch_index"]))
    at = lambda v: str(round(float(v) * ns)) if v != "" else ""
    return [{"cta": r["launch_index"], "sm": r["sm"], "gt_start_ns": at(r["start_cycle"]), "gt_end_ns": at(r["end_cycle"]),
             "gt_first_tile_ns": at(r["first_barrier_cycle"]), "gt_loop_end_ns": at(r["first_store_cycle"])}
            for r in rows]


def model_pairs(values, tool):
    """The (case, directory) pairs of a script's `--model CASE=DIR` options; exits with a message naming the tool on
    one without a directory."""
    pairs = []
    for v in values:
        case, _, d = v.partition("=")
        if not d:
            raise SystemExit(f"{tool}: --model wants CASE=DIR, got '{v}'")
        pairs.append((case, d))
    return pairs

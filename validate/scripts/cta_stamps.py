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

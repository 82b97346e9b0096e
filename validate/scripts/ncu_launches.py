"""The launches of an `ncu --csv --print-units base` file, for the microbenchmark summaries that pair them
with the JSON lines their binary prints (fabric_links.py, fabric_stores.py, gpc_split.py)."""
import csv
import json
import sys


def json_lines(path):
    """The JSON objects among a file's lines (a binary's output, also inside an ncu file)."""
    return [json.loads(l) for l in open(path) if l.startswith("{")]


def profiles(path):
    """Per profiled launch, in launch order (ncu's ID), its metrics by name, as numbers."""
    rows = list(csv.reader(l for l in open(path) if l.startswith('"')))
    if not rows:
        return []
    head, by_id = rows[0], {}
    for row in rows[1:]:
        d = dict(zip(head, row))
        by_id.setdefault(int(d["ID"]), {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
    return [by_id[k] for k in sorted(by_id)]


def paired(runs, path, who):
    """`runs` (the JSON lines of the profiled launches, in order) zipped with profiles(path); exits with a
    message naming `who` when their counts differ."""
    launches = profiles(path)
    if len(launches) != len(runs):
        sys.exit(f"{who}: {len(runs)} launches but {len(launches)} profiles in {path}")
    return list(zip(runs, launches))

"""The launches of an `ncu --csv --print-units base` file, for the microbenchmark summaries that pair them
with the JSON lines their binary prints (fabric_links.py, fabric_stores.py, gpc_split.py), and of an
`ncu --csv --page raw` file (red_slices.py)."""
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


def raw_launches(path, text=()):
    """Per profiled launch of an `ncu --csv --page raw` file (one row a launch, one column a metric, a row of
    units under the header), in launch order, its numeric columns by name - and the columns named in `text`
    (e.g. "Kernel Name") as they are written."""
    rows = list(csv.reader(open(path)))
    head = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
    names, out = rows[head], []
    for r in rows[head + 2:]:
        if len(r) != len(names):
            continue
        vals = {}
        for n, v in zip(names, r):
            if n in text:
                vals[n] = v
                continue
            try:
                vals[n] = float(v.replace(",", ""))
            except ValueError:
                pass
        out.append(vals)
    return out


def paired(runs, path, who):
    """`runs` (the JSON lines of the profiled launches, in order) zipped with profiles(path); exits with a
    message naming `who` when their counts differ."""
    launches = profiles(path)
    if len(launches) != len(runs):
        sys.exit(f"{who}: {len(runs)} launches but {len(launches)} profiles in {path}")
    return list(zip(runs, launches))

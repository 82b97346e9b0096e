#!/usr/bin/env python3
"""Adds silicon's repeated rounds of each kernel's time (validate/scripts/device_repeat.sh, committed
in RESULTS/<gpu>/repeat/) to the records of the same kernels in RESULTS/<gpu>/gemm, gemv and seed002, as

  "repeat": {"ncu_gpu__time_duration.sum": [ns, ...],     # one ncu profile per round, clocks left alone
             "events_gpu__time_duration.sum": [ns, ...],  # the runner's event median of 20 per round
             "source": "validate/results/<gpu>/repeat", "date": ..., "command": ...}

`compare` reads the list that was measured the way the record's own time was (ncu when the record
has ncu counters) and reports, per group, the Spearman silicon reaches against itself and the pairs
it resolves (`--require resolved:GROUP>=X`). The record's measured and ncu sections stay as they are.

usage: validate/scripts/records_add_repeat.py [--check] validate/results/h100 ...
  --check: change nothing; exit 1 when a record's rounds differ from the committed repeat/ data"""
import argparse
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from record_files import finish_check, records, save  # noqa: E402
from repeat_ranks import load_events, load_ncu  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+", help="a GPU's results folder (it holds repeat/, gemm/, gemv/)")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    checked = stale = 0
    for res in map(pathlib.Path, a.results):
        rep = res / "repeat"
        if not rep.is_dir():
            print(f"records_add_repeat.py: {rep}: no repeat/ folder (validate/scripts/device_repeat.sh)", file=sys.stderr)
            return 2
        for prefix, sets in (("", ["gemm", "gemv"]), ("ladder_", ["seed002"])):
            if not (rep / (prefix + "env.txt")).exists():
                continue
            env = (rep / (prefix + "env.txt")).read_text()
            date = re.search(r"^date: (\S+)", env, re.M).group(1)
            command = re.search(r"^command: ([^;]+)", env, re.M).group(1).strip()
            ncu, events = load_ncu(str(rep), prefix), load_events(str(rep), prefix)
            c, s = add(res, rep, sets, ncu, events, date, command, a.check)
            checked += c
            stale += s
    finish_check(checked, stale) if a.check else print(f"{checked} records carry their rounds")
    return 0


def add(res, rep, sets, ncu, events, date, command, check):
    """Adds (or with `check` compares) the rounds of every record in `sets`; returns (checked, stale)."""
    checked = stale = 0
    for path, text, rec in records([res / s for s in sets]):
        case = rec.get("case")
        if case not in ncu and case not in events:
            continue
        want = {"ncu_gpu__time_duration.sum": ncu.get(case, []),
                "events_gpu__time_duration.sum": events.get(case, []),
                "source": str(rep), "date": date, "command": command}
        checked += 1
        if rec.get("repeat") == want:
            continue
        if check:
            stale += 1
            print(f"{path}: repeat rounds differ from {rep}")
        else:
            rec["repeat"] = want
            save(path, text, rec)
    return checked, stale


if __name__ == "__main__":
    sys.exit(main())

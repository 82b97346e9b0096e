#!/usr/bin/env python3
"""Where the Triton GEMVs' warps wait, by instruction, from device_gemv_source.sh's files (issue 10/11).

  validate/scripts/gemv_source_stalls.py DIR

DIR holds gemv_source.csv[.xz] (ncu --page source --csv --print-source sass: one block per profiled launch,
each starting with a "Kernel Name" row, then a header row and one row per SASS instruction with its
warp-state samples by reason) and gemv_source_env.txt (the cases in launch order). Per case it prints
the share of all warp samples each reason has (mio_throttle, barrier, short_scoreboard,
long_scoreboard) and the opcodes (the SASS mnemonic before the first dot) those samples sit on, and
the share of the samples at the kernel's first S2R alone: the wait a warp has before its first MIO
instruction issues.
"""
import argparse
import collections
import csv
import lzma
import pathlib
import sys

REASONS = ("stall_mio", "stall_barrier", "stall_short_sb", "stall_long_sb")
NAMES = {"stall_mio": "mio_throttle", "stall_barrier": "barrier", "stall_short_sb": "short_scoreboard",
         "stall_long_sb": "long_scoreboard"}


def launches(path):
    """[[row dict per instruction] per launch], in launch order (the file as produced, or xz-compressed)."""
    out, header = [], None
    with (lzma.open(path, "rt", newline="") if path.suffix == ".xz" else open(path, newline="")) as f:
        for row in csv.reader(f):
            if row and row[0] == "Kernel Name":
                out.append([])
                header = None
            elif row and row[0] == "Address":
                header = row
            elif header and row and out:
                out[-1].append(dict(zip(header, row)))
    return out


def opcode(source):
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def samples(row, reason):
    try:
        return float(row.get(reason) or 0)
    except ValueError:
        return 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    a = ap.parse_args()
    d = pathlib.Path(a.dir)
    env = (d / "gemv_source_env.txt").read_text()
    if "cases in launch order:" not in env:
        sys.exit(f"{d}/gemv_source_env.txt lists no cases")
    names = [line.strip() for line in env.split("cases in launch order:")[1].splitlines()
             if line.strip().startswith("triton_gemv_")]
    source = d / "gemv_source.csv"
    runs = launches(source if source.exists() else d / "gemv_source.csv.xz")
    if len(runs) != len(names):
        sys.exit(f"{len(runs)} launches in gemv_source.csv, {len(names)} cases in gemv_source_env.txt")
    for name, rows in zip(names, runs):
        stall_keys = [k for k in rows[0] if k.startswith("stall_") and "Not Issued" not in k]
        total = sum(samples(r, k) for r in rows for k in stall_keys)
        first_s2r = next((r for r in rows if opcode(r["Source"]) == "S2R"), None)
        print(f"{name}: {total:.0f} samples; the first S2R waits {100 * samples(first_s2r, 'stall_mio') / total:.1f} % "
              f"of them in mio_throttle" if first_s2r else f"{name}: {total:.0f} samples")
        for reason in REASONS:
            by = collections.Counter()
            for r in rows:
                by[opcode(r["Source"])] += samples(r, reason)
            share = 100 * sum(by.values()) / total
            top = ", ".join(f"{op} {100 * v / total:.1f}" for op, v in by.most_common(5) if v)
            print(f"  {NAMES[reason]:<17} {share:5.1f} %   {top}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reads device_lrc.sh's results and prints, per (groups, stagger) of gms-lrc-ubench, the share of the
sectors delivered to the SMs that still needed an L2 lookup (lts__t_sectors_srcunit_tex_op_read /
l1tex__m_xbar2l1tex_read_sectors; 1.0 = nothing merged) and the requests the coalescer took and passed
on, beside the distinct lines the grid reads (groups x 64) and the time; with lrc_latency.jsonl (the ubench's
--latency run) also each case's latency per load, one load in flight per warp, and its spread.

  lrc_capacity.py DIR        (lrc_ubench.jsonl, lrc_ncu.csv[, lrc_latency.jsonl])"""
import csv
import io
import json
import os
import sys


def ncu_rows(path):
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    table = list(csv.reader(io.StringIO("".join(lines))))
    header = table[0]
    return [dict(zip(header, r)) for r in table[2:]]  # row 1 holds the units


def num(row, key):
    v = row.get(key, "")
    return float(v.replace(",", "")) if v not in ("", "n/a") else float("nan")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    cases = [json.loads(l) for l in open(os.path.join(d, "lrc_ubench.jsonl")) if l.strip()]
    rows = ncu_rows(os.path.join(d, "lrc_ncu.csv"))
    if len(rows) != 2 * len(cases):
        sys.exit(f"lrc_capacity: {len(rows)} profiled launches for {len(cases)} cases (expected two each)")
    print("| groups | stagger | distinct lines | lookups / delivered sector | coalescer requests in / out (M) | time (us) |")
    print("|---|---|---|---|---|---|")
    for c, r in zip(cases, rows[1::2]):  # each case's second launch (the first warms the L2)
        tex = num(r, "lts__t_sectors_srcunit_tex_op_read.sum")
        got = num(r, "l1tex__m_xbar2l1tex_read_sectors.sum")
        req_in = num(r, "lrc__xbar2lrc_requests_op_read.sum")
        req_out = num(r, "lts__t_requests_srcunit_tex_op_read.sum")
        print(f"| {c['groups']} | {c['stagger']} | {c['groups'] * c['lines_per_group']} | {tex / got:.3f} | "
              f"{req_in / 1e6:.2f} / {req_out / 1e6:.2f} | {c['ms.median'] * 1e3:.1f} |")
    latency = os.path.join(d, "lrc_latency.jsonl")
    if os.path.exists(latency):
        print()
        print("| groups | stagger | mean cycles per load | loads under 100 cycles | 250-300 | 300-400 | 400-600 | 600 and more |")
        print("|---|---|---|---|---|---|---|---|")
        for c in (json.loads(l) for l in open(latency) if l.strip()):
            sh = c["share"]  # buckets [0,100) [100,150) [150,200) [200,250) [250,300) [300,400) [400,600) [600,1000) [1000,)
            print(f"| {c['groups']} | {c['stagger']} | {c['mean_cycles']:.0f} | {sh[0]:.3f} | {sh[4]:.3f} | {sh[5]:.3f} | "
                  f"{sh[6]:.3f} | {sh[7] + sh[8]:.3f} |")


if __name__ == "__main__":
    main()

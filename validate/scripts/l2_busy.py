#!/usr/bin/env python3
"""Reads device_l2_busy.sh's Nsight exports and prints, per profiled kernel, how busy each L2 stage
was: the L2's own clock (lts__cycles_elapsed / time), sectors the tag stage looked up per slice and
L2 cycle, the tag stage's and the L2->xbar return path's utilisation, and the warps' long-scoreboard
share. Usage: l2_busy.py DIR (gemm_busy.csv, pad_busy.csv, l2_load_busy.csv[.gz])."""
import csv
import gzip
import io
import os
import sys

def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = [l for l in f if l.startswith('"')]
    table = list(csv.reader(io.StringIO("".join(lines))))
    header = table[0]
    return [dict(zip(header, r)) for r in table[2:]]  # row 1 holds the units


def num(row, key):
    return float(row[key].replace(",", ""))


def slices(row):
    """L2 slices (lts units) of the GPU the row was profiled on: 80 on the H100, 96 on the H200."""
    return num(row, "device__attribute_l2s_count")


def names(path):
    """The runner prints 'profiled NAME' per case, in launch order (the ubench prints nothing)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [l.split()[1] for l in f if l.startswith("profiled ")]


def report(path):
    rows = read_rows(path)
    labels = names(path)
    print(f"== {os.path.basename(path)}")
    print("| kernel | time ms | L2 GHz | SM GHz | xbar TB/s | L2->xbar busy | tag busy | sectors/slice/L2 cycle | long_sb % |")
    print("|---|---|---|---|---|---|---|---|---|")
    for i, r in enumerate(rows):
        t = num(r, "gpu__time_duration.sum") * 1e-9
        label = labels[i] if i < len(labels) else f"launch {i} ({r['launch__block_size']} threads)"
        l2_clock = num(r, "lts__cycles_elapsed.max") / t
        print(f"| {label} | {t * 1e3:.3f} | {l2_clock / 1e9:.3f} | {num(r, 'sm__cycles_elapsed.max') / t / 1e9:.3f} | "
              f"{num(r, 'l1tex__m_xbar2l1tex_read_bytes.sum.per_second') / 1e12:.2f} | "
              f"{num(r, 'lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed'):.1f} % | "
              f"{num(r, 'lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed'):.1f} % | "
              f"{num(r, 'lts__t_sectors.sum') / t / l2_clock / slices(r):.2f} | "
              f"{num(r, 'smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct'):.2f} |")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    for name in ("gemm_busy.csv", "pad_busy.csv"):
        report(os.path.join(d, name))
    load = os.path.join(d, "l2_load_busy.csv.gz")
    if not os.path.exists(load):
        load = load[:-3]
    # The ubench launches each load level 8 times (one warm-up, seven timed): the first timed one.
    rows = read_rows(load)
    print(f"== {os.path.basename(load)} (the first timed launch of each load level)")
    print("| streaming warps/SM | time ms | L2 GHz | xbar TB/s | L2->xbar busy | tag busy | sectors/slice/L2 cycle |")
    print("|---|---|---|---|---|---|---|")
    for i in range(1, len(rows), 8):
        r = rows[i]
        t = num(r, "gpu__time_duration.sum") * 1e-9
        l2_clock = num(r, "lts__cycles_elapsed.max") / t
        print(f"| {int(num(r, 'launch__block_size')) // 32 - 1} | {t * 1e3:.3f} | {l2_clock / 1e9:.3f} | "
              f"{num(r, 'l1tex__m_xbar2l1tex_read_bytes.sum.per_second') / 1e12:.2f} | "
              f"{num(r, 'lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed'):.1f} % | "
              f"{num(r, 'lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed'):.1f} % | "
              f"{num(r, 'lts__t_sectors.sum') / t / l2_clock / slices(r):.2f} |")


if __name__ == "__main__":
    main()

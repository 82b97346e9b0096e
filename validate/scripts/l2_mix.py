#!/usr/bin/env python3
"""L2 hits beside L2 misses, from gms-l2-mix-ubench (validate/scripts/device_l2_mix.sh): per (hit warps, miss
warps) a SM, the rates the warps measured (bytes over a 2 ms window, median of five launches) and, from the
same mix under ncu (its second launch; the first warms), how busy the L2's stages were: L2 -> crossbar
(lts__lts2xbar_cycles_active), the data array (lts__d_sectors), the tags (lts__t_tag_requests), per TB/s the
SMs received (l1tex__m_xbar2l1tex_read_bytes over the launch).

  l2_mix.py validate/results/h200/l2_mix            # the table
  l2_mix.py DIR --check                             # exit 1 unless the record says what its README does:
    * every row's L2 -> crossbar busy per TB/s received within 10 % of the hits-alone rows' (a missed sector's
      reply takes that stage as a hit's does),
    * no mix moves more than 1.05x the hits-alone ceiling (8 and 24 warps),
  both but on 16 hit warps alone: 2,112 warps walk 2,048 windows, so two SMs read each window about a repetition
  apart and the crossbar delivers one L2 read-out to both (14.1 TB/s received, 9.2 TB/s read from the slices).
    * the data array counts a miss twice (its fill and its read-out): d_sectors = read + missed sectors, 2 %.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_launches import json_lines, raw_launches  # noqa: E402

BUSY = "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"


def rows(directory):
    runs = [r for r in json_lines(f"{directory}/l2_mix_run.jsonl") if r.get("measurement") == "l2_hits_beside_misses"]
    prof = raw_launches(f"{directory}/l2_mix_ncu.csv")
    if len(prof) != 2 * len(runs):
        sys.exit(f"l2_mix.py: {len(runs)} mixes but {len(prof)} profiled launches (two a mix) in {directory}")
    out = []
    for r, m in zip(runs, prof[1::2]):
        t = m["gpu__time_duration.sum"] * 1e-9
        recv = m["l1tex__m_xbar2l1tex_read_bytes.sum"] / t / 1e12
        out.append({"hit warps": r["hit_warps_per_sm"], "miss warps": r["miss_warps_per_sm"],
                    "hits TB/s": r["hit_tb_per_s"], "misses TB/s": r["miss_tb_per_s"], "total TB/s": r["total_tb_per_s"],
                    "received TB/s (ncu)": recv, "L2->xbar busy %": m[BUSY], "busy % per TB/s": m[BUSY] / recv,
                    "data array %": m["lts__d_sectors.avg.pct_of_peak_sustained_elapsed"],
                    "tags %": m["lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed"],
                    "read hit rate %": m["lts__t_sector_op_read_hit_rate.pct"],
                    "d / (read + missed)": m["lts__d_sectors.sum"] / (m["lts__t_sectors_op_read.sum"] +
                                                                     m["lts__t_sectors_op_read_lookup_miss.sum"]),
                    "DRAM TB/s (ncu)": m["dram__bytes_read.sum"] / t / 1e12})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    table = rows(a.dir)
    cols = list(table[0])
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for r in table:
        print("| " + " | ".join(f"{r[c]:.2f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    if not a.check:
        return 0
    alone = [r for r in table if r["miss warps"] == 0 and r["hit warps"] != 16]
    if not alone:
        sys.exit("l2_mix.py: --check needs a hits-alone mix (8 or 24 hit warps, no miss warps)")
    per_tb = statistics.median(r["busy % per TB/s"] for r in alone)
    ceiling = max(r["total TB/s"] for r in alone)
    bad = []
    for r in table:
        name = f"{r['hit warps']} hit + {r['miss warps']} miss warps"
        aliased = r["hit warps"] == 16 and r["miss warps"] == 0
        if not aliased and abs(r["busy % per TB/s"] / per_tb - 1) > 0.10:
            bad.append(f"{name}: L2->xbar {r['busy % per TB/s']:.2f} % per TB/s, hits alone {per_tb:.2f}")
        if not aliased and r["total TB/s"] > 1.05 * ceiling:
            bad.append(f"{name}: {r['total TB/s']:.2f} TB/s, above the hits-alone ceiling {ceiling:.2f}")
        if r["miss warps"] and abs(r["d / (read + missed)"] - 1) > 0.02:
            bad.append(f"{name}: data-array sectors {r['d / (read + missed)']:.3f} of read + missed")
    for b in bad:
        print("off:", b)
    print("check failed" if bad else "check passed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

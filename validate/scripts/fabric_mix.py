#!/usr/bin/env python3
"""Far loads beside far stores, and half-written sectors, from `gms-fabric-ubench MAP mix|halfstores`
(validate/scripts/device_fabric_mix.sh).

Per set: the SMs' rate over their span (globaltimer; for `mix` per side, loads and stores, each over its own
SMs), and from each launch's ncu profile the sectors the SMs read and wrote (lts__t_sectors_srcunit_tex_op_*),
what crossed the fabric (lts__t_sectors_srcunit_ltcfabric), DRAM bytes and the slices' crossbar-input cycles,
per sector written (or read). Medians of the three repetitions.

  fabric_mix.py validate/results/h200/fabric_mix            # the table (mode from the files present)
  fabric_mix.py DIR --check                                 # exit 1 unless the record says what its README does
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_launches import json_lines, paired  # noqa: E402


def launches(path):
    """One entry per launch: (set, {side: GB/s}) - a `mix` launch prints a line per side ("name [loads]")."""
    out = []
    for r in (r for r in json_lines(path) if "set" in r):
        name, side = r["set"], ""
        if name.endswith("]"):
            name, side = name[:-1].rsplit(" [", 1)
        if out and out[-1][0] == name and out[-1][2] == r["rep"] and side and side not in out[-1][1]:
            out[-1][1][side] = r["total_gbps"]
        else:
            out.append((name, {side: r["total_gbps"]}, r["rep"]))
    return [(n, sides) for n, sides, _ in out]


def per_set(directory, mode):
    runs = launches(f"{directory}/fabric_{mode}_ncu.csv")
    sets = {}
    for (name, sides), m in paired(runs, f"{directory}/fabric_{mode}_ncu.csv", "fabric_mix.py"):
        t = m["gpu__time_duration.sum"]
        rd, wr = m["lts__t_sectors_srcunit_tex_op_read.sum"], m["lts__t_sectors_srcunit_tex_op_write.sum"]
        # Per sector the SMs sent or asked for: both where a launch loads and stores (`mix`), else the larger (a
        # store walk also loads its line indices, 4 bytes a line).
        sent = rd + wr if min(rd, wr) > 0.2 * max(rd, wr) else max(rd, wr)
        row = {f"{side or 'all'} GB/s": v for side, v in sides.items()}
        row.update({"read GB/s": rd * 32 / t, "written GB/s": wr * 32 / t,
                    "fabric GB/s": m["lts__t_sectors_srcunit_ltcfabric.sum"] * 32 / t,
                    "fabric / sector": m["lts__t_sectors_srcunit_ltcfabric.sum"] / sent,
                    "DRAM read / sector": m["dram__bytes_read.sum"] / 32 / sent,
                    "DRAM write / sector": m["dram__bytes_write.sum"] / 32 / sent,
                    "xbar / sector": m["lts__xbar2lts_cycles_active.sum"] / sent})
        sets.setdefault(name, []).append(row)
    return {k: {c: statistics.median(r[c] for r in v) for c in v[0]} for k, v in sets.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    modes = [m for m in ("mix", "halfstores") if os.path.exists(f"{a.dir}/fabric_{m}_ncu.csv")]
    if not modes:
        sys.exit(f"fabric_mix.py: no fabric_mix_ncu.csv or fabric_halfstores_ncu.csv in {a.dir}")
    failed = []
    for mode in modes:
        sets = per_set(a.dir, mode)
        cols = list(dict.fromkeys(c for v in sets.values() for c in v))
        side = sorted(c for c in cols if c.endswith(" GB/s") and c.split()[0] in ("loads", "stores", "all"))
        cols = side + [c for c in cols if c not in side]
        print(f"\n`{mode}`:\n\n| set | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols))
        for name, v in sets.items():
            print(f"| {name} | " + " | ".join("-" if c not in v else f"{v[c]:.0f}" if "GB/s" in c else f"{v[c]:.2f}"
                                              for c in cols) + " |")
        if not a.check:
            continue
        if mode == "mix":
            alone = (sets["load far:p1h"]["loads GB/s"] + sets["store far:p0h"]["stores GB/s"]) / 2
            both = sets["load far:p1h + store far:p0h"]
            together = both["loads GB/s"] + both["stores GB/s"]
            # One link for read replies and write data into a partition: together they move what either moves alone.
            if abs(together / alone - 1) > 0.15:
                failed.append(f"loads and stores into one partition moved {together:.0f} GB/s together, {alone:.0f} alone")
        else:
            half_far, pair = sets["half far:p0"], sets["pair far:p0"]
            if half_far["DRAM read / sector"] < 0.9:
                failed.append(f"half-written far sectors fetched {half_far['DRAM read / sector']:.2f} from DRAM each")
            if pair["DRAM read / sector"] > 0.1:
                failed.append(f"sectors written whole in two halves fetched {pair['DRAM read / sector']:.2f} each")
            # On the link a resident far half sector goes as a whole one (l2.fabric_bytes_per_cycle per sector) ...
            half, whole = sets["resident half far:p0"], sets["resident store far:p0"]
            if abs(half["written GB/s"] / whole["written GB/s"] - 1) > 0.05:
                failed.append(f"far half sectors crossed at {half['written GB/s']:.0f} GB/s, whole ones {whole['written GB/s']:.0f}")
            # ... and takes l2.partial_sector_input_slots (1.25) of a whole one's crossbar-input cycles.
            slots = sets["resident half near:p0"]["xbar / sector"] / sets["resident store near:p0"]["xbar / sector"]
            if abs(slots - 1.25) > 0.1:
                failed.append(f"a half sector took {slots:.2f} of a whole one's crossbar-input cycles")
    if failed:
        sys.exit("fabric_mix.py: " + "; ".join(failed))


if __name__ == "__main__":
    main()

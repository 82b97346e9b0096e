#!/usr/bin/env python3
"""What a far store costs the L2 slices' crossbar inputs, from `gms-fabric-ubench MAP stores`
(validate/scripts/device_fabric_stores.sh).

Each store launch of fabric_stores_ncu.csv (beside the JSON lines the profiled run printed, in launch order):
the crossbar-input cycles (lts__xbar2lts_cycles_active.sum) per sector the SMs wrote
(lts__t_sectors_srcunit_tex_op_write.sum), L2's write sectors and far sectors per SM-written sector, and the
SMs' store rate. A far store that entered its home slice through that slice's crossbar input as well would
cost twice the near stores' cycles per sector.

  fabric_stores.py validate/results/h100/fabric_stores
  fabric_stores.py DIR --check 0.1   # exit 1 unless far and near stores cost the inputs the same, within 10 %
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_launches import json_lines, paired  # noqa: E402


def per_set(path):
    runs = [r for r in json_lines(path) if "set" in r]
    out = {}
    for run, m in paired(runs, path, "fabric_stores.py"):
        op = "red" if run["set"].startswith("red ") else "write"  # the reductions' run (`reductions` mode)
        tex = m[f"lts__t_sectors_srcunit_tex_op_{op}.sum"]
        out.setdefault(run["set"], []).append((m["lts__xbar2lts_cycles_active.sum"] / tex, m[f"lts__t_sectors_op_{op}.sum"] / tex,
                                               m["lts__t_sectors_srcunit_ltcfabric.sum"] / tex,
                                               tex * 32 / m["gpu__time_duration.sum"] / 1e3))
    return {k: [statistics.median(col) for col in zip(*v)] for k, v in out.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--mode", default="stores", choices=("stores", "reductions"))
    ap.add_argument("--check", type=float)
    a = ap.parse_args()
    sets = per_set(f"{a.dir}/fabric_{a.mode}_ncu.csv")
    op = "red" if a.mode == "reductions" else "store"
    print("| set | crossbar-input cycles per sector the SMs sent | L2 sectors (of its op) per sent sector | far sectors per sent sector | TB/s sent |")
    print("|---|---|---|---|---|")
    for name, (xbar, writes, far, tbps) in sets.items():
        print(f"| {name} | {xbar:.3f} | {writes:.2f} | {far:.2f} | {tbps:.2f} |")
    if a.check is not None:
        near, far = sets[f"{op} near:all"][0], sets[f"{op} far:all"][0]
        if abs(far / near - 1) > a.check:
            sys.exit(f"fabric_stores.py: far {a.mode} cost the crossbar inputs {far / near:.2f} x the near ones")


if __name__ == "__main__":
    main()

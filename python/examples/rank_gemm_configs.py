#!/usr/bin/env python3
"""Ranks Triton-style GEMM configurations for one shape on one GPU with gpumemsim.

    python3 python/examples/rank_gemm_configs.py --gpu h100 --shape 4096,4096,4096

Sweeps tile (BLOCK_M, BLOCK_N, BLOCK_K), warps, stages and GROUP_SIZE_M the way a Triton autotune
list would, simulates every point (all cores, without the GIL), drops the points that cannot run
(shared memory or registers), and prints the fastest with the numbers that explain them. It checks
its own output: the table is sorted by predicted time and every printed point ran.
"""
import argparse
import itertools
import sys

import gpumemsim


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", default="h100", help="preset name or GPU YAML")
    ap.add_argument("--shape", default="4096,4096,4096", help="M,N,K")
    ap.add_argument("--dtype", default="fp16")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--tiles", default="64x128x64,128x128x64,128x256x64,128x128x32,256x128x64",
                    help="BLOCK_MxBLOCK_NxBLOCK_K list")
    ap.add_argument("--warps", default="4,8")
    ap.add_argument("--stages", default="3,4")
    ap.add_argument("--group-m", default="1,8")
    ap.add_argument("--jobs", type=int, default=0)
    a = ap.parse_args(argv)
    m, n, k = (int(x) for x in a.shape.split(","))
    workload = {"kind": "gemm", "name": "gemm %dx%dx%d %s" % (m, n, k, a.dtype), "m": m, "n": n, "k": k,
                "dtype": a.dtype, "bypass_l1": True, "cta_order": {"kind": "grouped", "group_m": 8}}
    tiles = [t.split("x") for t in a.tiles.split(",")]
    points = []
    # One sweep per tile (tile m/n/k move together); warps x stages x group_m inside it.
    for tm, tn, tk in tiles:
        rows = gpumemsim.sweep(a.gpu, workload, jobs=a.jobs,
                               set={"workload.tile.m": tm, "workload.tile.n": tn, "workload.tile.k": tk},
                               grid={"workload.warps": a.warps.split(","), "workload.stages": a.stages.split(","),
                                     "workload.cta_order.group_m": a.group_m.split(",")})
        for r in rows:
            r["tile"] = "%sx%sx%s" % (tm, tn, tk)
            points.append(r)
    ran = [p for p in points if p["error"] is None]
    if not ran:
        print("no configuration runs on %s" % a.gpu, file=sys.stderr)
        return 1
    ran.sort(key=lambda p: p["gpu__time_duration.sum"])
    print("%s on %s: %d configurations, %d run, %d do not fit" % (workload["name"], a.gpu, len(points), len(ran),
                                                                 len(points) - len(ran)))
    print("%-12s %5s %6s %7s %10s %8s %8s %9s %6s" % ("tile", "warps", "stages", "group_m", "time us", "TFLOP/s",
                                                    "L2 hit%", "DRAM GB", "regs"))
    for p in ran[:a.top]:
        t_ns = p["gpu__time_duration.sum"]
        print("%-12s %5s %6s %7s %10.1f %8.1f %8.1f %9.3f %6d" % (
            p["tile"], p["workload.warps"], p["workload.stages"], p["workload.cta_order.group_m"], t_ns / 1e3,
            2.0 * m * n * k / t_ns / 1e3, p["lts__t_sector_hit_rate.pct"],
            (p["dram__bytes_read.sum"] + p["dram__bytes_write.sum"]) / 1e9, p["launch__registers_per_thread"]))
    times = [p["gpu__time_duration.sum"] for p in ran]
    assert times == sorted(times) and all(t > 0 for t in times), "ranking is not sorted by time"
    return 0


if __name__ == "__main__":
    sys.exit(main())

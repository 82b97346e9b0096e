#!/usr/bin/env python3
"""The fixed cost of a kernel, silicon against the model: replays gms-cta-ubench's empty grids
(validate/results/<gpu>/launch, device_launch.sh) as Accel-Sim traces of one EXIT per warp on a preset
with launch.kernel_overhead 0, and prints per grid ncu's sm__cycles_elapsed.max, the model's cycles
and what silicon spends beyond them. Their median over the grids that give every SM a CTA is the
measured launch.kernel_overhead (the CTA dispatch the model already times is not in it).

  launch_model_check.py GPUMEMSIM PRESET.yaml DIR [--threads 32] [--check] [--tol PCT]

--check: exit 1 unless the preset's launch.kernel_overhead is within PCT % (default 2) of the median.

With DIR/launch_smem.jsonl (gms-cta-ubench --smem) it also replays empty 128-thread CTAs holding 0..227 KiB
of shared memory each - 1, 2, 4 or more of them fit an SM - and prints the cost of one more CTA per SM
(16 -> 256 CTAs per SM) on silicon and in the model: where few CTAs fit, a CTA's retire-to-next-start
turnaround binds (launch.cta_launch_latency), elsewhere the SM's launch rate (launch.cta_dispatch_interval).
--check then also requires each size within --smem-tol PCT % (default 10)."""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import launch_cost  # noqa: E402
from accelsim_trace import kernel_header, trace_metrics  # noqa: E402


def write_trace(d, grid, threads, shared_bytes=0):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    warp = "".join(f"\nwarp = {w}\ninsts = 1\n0000 ffffffff 0 EXIT 0 0 0 \n" for w in range((threads + 31) // 32))
    with open(os.path.join(d, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header("empty_cta", grid, threads, 8).replace("-shmem = 0\n", f"-shmem = {shared_bytes}\n"))
        for c in range(grid):
            f.write(f"\n#BEGIN_TB\n\nthread block = {c},0,0\n{warp}\n#END_TB\n")


def model_metrics(binary, preset, d):
    """The trace in `d` replayed with launch.kernel_overhead 0 (what the grids cost beyond it)."""
    return trace_metrics(binary, preset, os.path.join(d, "kernelslist.g"), d, ["gpu.launch.kernel_overhead=0cycles"])


def model_cycles(binary, preset, d):
    return model_metrics(binary, preset, d)["sm__cycles_elapsed.max"]


def shared_slopes(binary, preset, smem_rows, tmp):
    """Per shared-memory size: silicon's and the model's ns per added CTA per SM (16 -> 256 CTAs per SM)."""
    silicon = {}
    for r in smem_rows:
        silicon.setdefault(r["shared_bytes"], {})[r["ctas_per_sm"]] = (r["ns"], r["grid"], r["threads"])
    out = []
    for size, t in sorted(silicon.items()):
        if 16 not in t or 256 not in t:
            continue
        ns = {}
        for per in (16, 256):
            d = os.path.join(tmp, f"smem{size}_{per}")
            write_trace(d, t[per][1], t[per][2], size)
            ns[per] = model_metrics(binary, preset, d)["gpu__time_duration.sum"]
        out.append((size, (t[256][0] - t[16][0]) / 240, (ns[256] - ns[16]) / 240))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("preset")
    ap.add_argument("dir")
    ap.add_argument("--threads", type=int, default=32)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--tol", type=float, default=2.0)
    ap.add_argument("--smem-tol", type=float, default=10.0)
    a = ap.parse_args()
    rows, units = launch_cost.ncu_table(os.path.join(a.dir, "launch_ncu.csv"))
    cases = {g["grid"]: g["sm_cycles_elapsed_max"] for g in launch_cost.profiled_grids(rows, units)
             if g["threads"] == a.threads}
    sms = min(g for g in cases if g > 1)  # the grids are 1 and multiples of the SM count
    print("| grid | silicon sm__cycles_elapsed.max | model (kernel_overhead 0) | silicon - model |")
    print("|---|---|---|---|")
    extra = []
    with tempfile.TemporaryDirectory() as tmp:
        for grid in sorted(cases):
            silicon = cases[grid]
            d = os.path.join(tmp, f"g{grid}")
            write_trace(d, grid, a.threads)
            model = model_cycles(a.binary, a.preset, d)
            print(f"| {grid} | {silicon:.0f} | {model:.0f} | {silicon - model:.0f} |")
            if grid >= sms:
                extra.append(silicon - model)
        smem_file = os.path.join(a.dir, "launch_smem.jsonl")
        slopes = []
        if os.path.exists(smem_file):
            with open(smem_file) as f:
                slopes = shared_slopes(a.binary, a.preset, [json.loads(l) for l in f if l.strip()], tmp)
    overhead = statistics.median(extra)
    print(f"\nfixed cost of a kernel that gives every SM a CTA: {overhead:.0f} cycles (median over {len(extra)} grids, "
          f"{min(extra):.0f}..{max(extra):.0f})")
    failed = False
    if slopes:
        print("\n| shared memory per CTA (bytes) | silicon: ns per added CTA per SM | model | off |")
        print("|---|---|---|---|")
        for size, sil, mod in slopes:
            off = (mod - sil) / sil * 100
            print(f"| {size} | {sil:.1f} | {mod:.1f} | {off:+.1f} % |")
            failed |= a.check and abs(off) > a.smem_tol
    if a.check:
        with open(a.preset) as f:
            m = re.search(r"^\s+kernel_overhead:\s*(\d+)\s*cycles", f.read(), re.M)
        if not m:
            sys.exit(f"launch_model_check: no launch.kernel_overhead in cycles in {a.preset}")
        value = float(m.group(1))
        off = abs(value - overhead) / overhead * 100
        print(f"preset's launch.kernel_overhead {value:.0f} cycles: {off:.1f} % from it (tolerance {a.tol} %)")
        failed |= off > a.tol
        if failed:
            sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the shared-memory carve-out each record's kernel launched with (workload shared_carveout),
as its own Nsight profile implies it, so that the model replays it with the L1 it had.

The driver picks the carve-out per launch; Nsight does not report it in the counters the records
keep, but launch__occupancy_limit_shared_mem is the number of the kernel's CTAs the configured
shared memory holds: floor(carve-out / (shared per CTA + the 1 KiB the SM reserves per CTA)). The
smallest of the GPU's carve-outs that gives that number is written (where two give it, they leave the
kernel the same CTAs; the smaller leaves the model the larger L1 - the lower bound the counters
allow is the one that does not depend on a guess). Records without the counters are left alone, as
are those no carve-out explains (the script says which).

What the records show (2026-11-26): every Triton-launched kernel (H100 and H200: 140 GEMV, TMA GEMM
and spilling GEMM records) ran with the carve-out that holds 2 x the CTAs its other limits (warps,
CTA slots, registers) let run, as far as the largest holds them - the presets' l1.carveout_headroom
2; this project's own CUDA kernels (padding, seed 002) did not, which is why records carry theirs.

Also, for kind gemm records that measured their spills (measured.spills, Triton's n_spills): workload
spill_bytes_per_thread = 4 x spills, the frame the main loop swaps every K tile (workload/gemm_spill.h;
0B where it spilled nothing, so that no estimate stands in for what was measured).

usage: validate/scripts/records_add_carveout.py [--check] DIR...
  --check: change nothing; exit 1 when a record lacks what its profile gives
"""
import argparse
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from record_files import finish_check, records, save  # noqa: E402

CARVEOUTS_KIB = (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)  # sm_90 (validate/results/h100/carveout)
RESERVE = 1024  # bytes of shared memory the SM reserves per CTA (sm.shared_mem_reserved_per_cta)
KINDS = ("gemm", "gemv", "tiled_gemm")


def implied_carveout(counters):
    """The carve-out (KiB) the launch ran with: Nsight's launch__shared_mem_config_size where the
    profile has it (device scripts since 2026-11-26), else the smallest carve-out under which the
    CTAs' shared memory gives Nsight's occupancy limit; None where neither says."""
    config = counters.get("launch__shared_mem_config_size")
    if config:
        return int(config) // 1024
    limit = counters.get("launch__occupancy_limit_shared_mem")
    if limit is None or "launch__shared_mem_per_block_dynamic" not in counters:
        return None
    shared = counters["launch__shared_mem_per_block_dynamic"] + counters.get("launch__shared_mem_per_block_static", 0)
    if shared <= 0:
        return None
    return next((c for c in CARVEOUTS_KIB if int(c * 1024 // (shared + RESERVE)) == int(limit)), None)


def expected(rec):
    """The workload keys the record's profile gives: {key: value} (empty: none)."""
    out = {}
    if not isinstance(rec, dict) or not isinstance(rec.get("workload"), dict) or rec["workload"].get("kind") not in KINDS:
        return out
    carve = implied_carveout((rec.get("ncu") or {}).get("counters") or {})
    if carve is not None:
        out["shared_carveout"] = f"{carve}KiB"
    spills = (rec.get("measured") or {}).get("spills")
    if rec["workload"]["kind"] == "gemm" and spills is not None:  # 0 too: no estimate where it was measured
        out["spill_bytes_per_thread"] = f"{4 * int(spills)}B"
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 on a stale record")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    checked = stale = changed = 0
    for path, text, rec in records(a.dirs):
        keys = expected(rec)
        counters = ((rec.get("ncu") or {}).get("counters") or {}) if isinstance(rec, dict) else {}
        if not keys:
            if "launch__occupancy_limit_shared_mem" in counters and counters.get("launch__shared_mem_per_block_dynamic"):
                print(f"{path}: no carve-out gives Nsight's shared-memory limit; left to the GPU's rule")
            continue
        checked += 1
        if a.check:
            for k, v in keys.items():
                if rec["workload"].get(k) != v:
                    print(f"{path}: {k} {rec['workload'].get(k)}, its profile gives {v}")
                    stale += 1
            continue
        if all(rec["workload"].get(k) == v for k, v in keys.items()):
            continue
        rec["workload"].update(keys)
        for k in keys:
            rec.setdefault("workload_sources", {})[k] = "its ncu profile (validate/scripts/records_add_carveout.py)"
        save(path, text, rec)
        changed += 1
    if a.check:
        finish_check(checked, stale)
    print(f"{changed} records given the carve-out (and spill frame) their profile implies")


if __name__ == "__main__":
    main()

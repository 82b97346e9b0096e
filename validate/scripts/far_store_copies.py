#!/usr/bin/env python3
"""Does a line stored from the far partition cost one L2 read lookup when it is read back? (l2.far_stores_copy_near;
docs/calibration.md, "A far store leaves a near copy".)

  far_store_copies.py DIR MODEL [DIR MODEL ...] [--check]

DIR: a gms-local-ubench record under ncu - validate/results/h100/local (local_ncu.csv: swap, load, store, gstore of
one CTA an SM, frames missing L1) or validate/results/h200/local_writeback (local_reload_ncu.csv: fload, fswap, swap).
MODEL: build/local_writeback's JSON lines on that GPU's preset (its early_l2_reads_per_requested_sector: the first two
rounds of the same case).

Each case's warm-up launch (the first of its four; ncu empties the L2 before every launch, so its lines are new to
it) gives silicon's L2 read lookups (lts__t_sectors_op_read.sum) per sector the SMs asked L2 for - the L1's misses
(l1tex__m_xbar2l1tex_read_sectors.sum), or for the L1-bypassing global loads of fload / fswap their sectors. With
half the lines homed in the far partition, a line read for the first time is looked up twice (the near partition
misses, then its home: 1.5 on the first round, 1.25 over two), a line read again once; the question is a line
stored, then read.

--check: exit 1 unless silicon reads every stored-then-loaded case's lines once (at most 1.04 lookups a sector, the
launch's ~2,300 other reads included) and fload's new lines 1.2-1.3 times, and the model's two-round figure is within
0.04 of silicon's for every case both have (from 32 CTAs: one CTA's launches are the other reads' size)."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import report  # noqa: E402
from ncu_launches import raw_launches  # noqa: E402

# gms-local-ubench's kernels (local_rounds<MODE>), by the mode number in their names.
MODES = {0: "swap", 1: "load", 2: "store", 3: "gstore", 4: "fstore", 5: "fload", 6: "fswap"}
STORED_THEN_LOADED = ("swap", "load", "fswap")
# The model's case for a silicon mode: gms-local-ubench's `load` (one round stored, one loaded) is a swap.
MODEL_MODE = {"swap": "swap", "load": "swap", "fswap": "fswap", "fload": "fload"}
LAUNCHES_PER_CASE = 4


def kernel_mode(name):
    start = name.find("local_rounds<")
    return MODES.get(int(name[start + len("local_rounds<"):].split(">")[0])) if start >= 0 else None


def silicon_cases(directory):
    """(mode, CTAs, threads) -> L2 read lookups per requested sector of the case's warm-up launch, for the cases
    that load."""
    name = next((f for f in ("local_ncu.csv", "local_reload_ncu.csv") if os.path.exists(os.path.join(directory, f))), None)
    if name is None:
        sys.exit(f"{directory}: no local_ncu.csv or local_reload_ncu.csv")
    path = os.path.join(directory, name)
    launches = raw_launches(path, text=("Kernel Name",))
    names = [l.get("Kernel Name", "") for l in launches]
    if len(launches) % LAUNCHES_PER_CASE:
        sys.exit(f"{path}: {len(launches)} launches, not cases of {LAUNCHES_PER_CASE}")
    out = {}
    for i in range(0, len(launches), LAUNCHES_PER_CASE):
        warm = launches[i]
        mode = kernel_mode(names[i])
        if mode is None or any(kernel_mode(n) != mode for n in names[i:i + LAUNCHES_PER_CASE]):
            sys.exit(f"{path}: launches {i}-{i + LAUNCHES_PER_CASE - 1} are not one case's")
        if "l1tex__m_xbar2l1tex_read_sectors.sum" in warm:
            asked = warm["l1tex__m_xbar2l1tex_read_sectors.sum"]
        elif mode in ("fload", "fswap"):  # ld.global.cg: every sector goes to L2
            asked = warm.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 0)
        else:
            continue  # local loads without the L1's misses counted
        if asked <= 0:
            continue
        key = (mode, int(warm["launch__grid_size"]), int(warm["launch__block_size"]))
        out[key] = (warm["lts__t_sectors_op_read.sum"] / asked, asked)
    return out


def model_cases(path):
    return {(m["mode"], m["ctas"], m["threads"]): m.get("early_l2_reads_per_requested_sector")
            for m in (json.loads(l) for l in open(path) if l.startswith("{"))}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairs", nargs="+", help="DIR MODEL [DIR MODEL ...]")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    if len(a.pairs) % 2:
        ap.error("give a model file after each record directory")
    failures = []
    print("| record | mode | CTAs | threads | sectors asked | silicon: L2 reads per sector | model (two rounds) |")
    print("|---|---|---|---|---|---|---|")
    for directory, model_path in zip(a.pairs[::2], a.pairs[1::2]):
        silicon, model = silicon_cases(directory), model_cases(model_path)
        if not silicon:
            failures.append(f"{directory}: no case that loads")
        for (mode, ctas, threads), (ratio, asked) in sorted(silicon.items()):
            m = model.get((MODEL_MODE.get(mode, mode), ctas, threads))
            shown = "-" if m is None else f"{m:.3f}"
            print(f"| {directory} | {mode} | {ctas} | {threads} | {asked:,.0f} | {ratio:.3f} | {shown} |")
            if ctas < 32:
                continue
            if mode in STORED_THEN_LOADED and ratio > 1.04:
                failures.append(f"silicon {directory} {mode} {ctas} x {threads}: {ratio:.3f} lookups a stored sector")
            if mode == "fload" and not 1.2 <= ratio <= 1.3:
                failures.append(f"silicon {directory} fload {ctas} x {threads}: {ratio:.3f} lookups a new sector")
            if m is None:
                if mode in MODEL_MODE:
                    failures.append(f"model {model_path}: no {MODEL_MODE[mode]} {ctas} x {threads}")
            elif abs(m - ratio) > 0.04:
                failures.append(f"model {mode} {ctas} x {threads}: {m:.3f} lookups a sector, silicon {ratio:.3f}")
    report(failures, a.check)


if __name__ == "__main__":
    main()

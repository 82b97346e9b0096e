#!/usr/bin/env python3
"""Hopper's warpgroup MMA beside the other streams (gms-sharing-ubench --wgmma, validate/scripts/device_sharing_wgmma.sh;
validate/results/<gpu>/sharing_wgmma; docs/sm-sharing.md).

  sharing_wgmma.py DIR [--check]

Prints the wgmma streams' rate (FLOP per SM cycle: one warpgroup alone, two side by side), then each pair of a
wgmma stream and a shared-memory stream (ldmatrix, st.shared) with the bytes a cycle each takes from the SM's
shared-memory data path - the LSU stream's wavefronts, the wgmma's operands (per HGMMA.64xNx16 its A block,
64 x 32 bytes, unless A is in registers, and its B chunk, N x 32 bytes, each read once per warpgroup) - and
their sum; then a dependent ldmatrix chain's hop beside wgmma against half an HGMMA's operand read (what a hop
waits on average behind one booked first come, first served); then what mma.sync and integer streams lose (the
latter per neighbour HGMMA, as a share of its pipe time).

--check: exit 1 unless two warpgroups reach 97 % of 4,096 FLOP/cycle/SM (the pipe's rate: the H100/H200
presets' sm.wgmma_fraction 1), every wgmma + shared-stream pair's path bytes sum to no more than 135 a cycle and
to at least 90 % of what the shared-memory stream alone takes (at most 128), which it gets under 80 % of beside the
wgmma (the path's 128, shared: sm.wgmma_operands_use_shared_path), a 4-wavefront chain's hop grows by 0.3-0.9 of an HGMMA's operand
read beside it, an mma.sync stream and a wgmma stream side by side keep the tensor pipe busy at least 85 % of
their window (one pipe), and an integer stream (IMAD or LOP3 / IADD3) loses 0.45-0.65 of each neighbour HGMMA's pipe
time - what the H200 measured on 2026-11-29."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import finish  # noqa: E402
from sharing import load  # noqa: E402

PIPE_FLOPS = 4096  # FLOP per SM cycle: 989.4 TFLOP/s dense fp16 / (132 SMs x 1.83 GHz)
WGMMA_PER_ITERATION = 16
WGMMA_N = {"wgmma128": 128, "wgmma256": 256, "wgmma128_rs": 128}
A_FROM_SHARED = {"wgmma128": True, "wgmma256": True, "wgmma128_rs": False}
# The shared-memory streams: wavefronts (128 bytes) per iteration of one warp, and per instruction.
LSU_WAVEFRONTS = {"ldsm": 32 * 4, "ldsm8": 32 * 8, "ldsm16": 32 * 16, "sts": 32 * 4, "chase4": 16 * 4, "chase8": 16 * 8}
CHASE_HOPS = 16
MMA8_HMMA, HMMA_PIPE_CYCLES = 64, 6.34  # mma8: HMMA.16816 an iteration; its tensor-pipe interval (gms-sharing-ubench)
INTEGER_PER_ITERATION = 256  # imad: 8 chains of 32 IMAD; alu: of 32 LOP3 / IADD3
SUBPARTITIONS = 4


def flops(stream):
    """FLOP of one warpgroup's iteration."""
    return WGMMA_PER_ITERATION * 2 * 64 * WGMMA_N[stream] * 16


def operand_bytes(stream):
    """Shared-memory bytes one HGMMA reads (A's 64 rows x 32 bytes if from shared memory, B's N rows x 32 bytes)."""
    return (64 * 32 if A_FROM_SHARED[stream] else 0) + WGMMA_N[stream] * 32


def pair_rates(runs, measured, neighbour):
    """(wgmma cycles per iteration, the LSU stream's) of the pair, one of them measured, the other its neighbour."""
    r = runs[(measured, neighbour)]
    if measured in WGMMA_N:
        return r["cycles_per_iteration"], r["neighbour_cycles_per_iteration"]
    return r["neighbour_cycles_per_iteration"], r["cycles_per_iteration"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    runs = load(a.dir, "sharing_wgmma")
    failures = []
    print("| wgmma stream | one warpgroup (FLOP/cycle/SM) | two warpgroups | of the pipe's 4,096 |")
    print("|---|---|---|---|")
    for s in WGMMA_N:
        one = flops(s) / runs[(s, "none")]["cycles_per_iteration"] if (s, "none") in runs else None
        two = None
        if (s, s) in runs:
            r = runs[(s, s)]
            two = flops(s) / r["cycles_per_iteration"] + flops(s) / r["neighbour_cycles_per_iteration"]
            if a.check and two < 0.97 * PIPE_FLOPS:
                failures.append(f"{s} x 2: {two:.0f} FLOP/cycle/SM, under 97 % of {PIPE_FLOPS}")
        print(f"| {s} | {one:.0f} | " + (f"{two:.0f} | {two / PIPE_FLOPS:.1%} |" if two else "- | - |"))
    print()
    print("| measured / neighbour | wgmma FLOP/cycle | its operands (B/cycle) | the LSU stream (B/cycle; alone) | "
          "path sum (B/cycle) |")
    print("|---|---|---|---|---|")
    for (m, n) in runs:
        w, s = (m, n) if m in WGMMA_N else (n, m)
        if w not in WGMMA_N or s not in LSU_WAVEFRONTS:
            continue
        wg, lsu = pair_rates(runs, m, n)
        operands = WGMMA_PER_ITERATION * operand_bytes(w) / wg
        lsu_bytes = SUBPARTITIONS * LSU_WAVEFRONTS[s] * 128 / lsu
        alone = SUBPARTITIONS * LSU_WAVEFRONTS[s] * 128 / runs[(s, "none")]["cycles_per_iteration"] \
            if (s, "none") in runs else None
        total = operands + lsu_bytes
        print(f"| {m} / {n} | {flops(w) / wg:.0f} | {operands:.0f} | {lsu_bytes:.0f} "
              f"({alone:.0f}) | {total:.0f} |" if alone else f"| {m} / {n} | {flops(w) / wg:.0f} | {operands:.0f} | "
              f"{lsu_bytes:.0f} (-) | {total:.0f} |")
        # One path: never more than its 128 bytes a cycle (+5 %), and the pair takes at least what the shared-memory
        # stream alone could, which falls under 80 % of its own rate.
        if a.check and total > 135:
            failures.append(f"{m} / {n}: the path carries {total:.0f} bytes a cycle, more than its 128")
        if a.check and alone and not (total >= 0.9 * min(alone, 128) and lsu_bytes < 0.8 * alone):
            failures.append(f"{m} / {n}: {total:.0f} bytes a cycle together, {lsu_bytes:.0f} for the stream that "
                            f"alone takes {alone:.0f}: not one shared path")
    print()
    for chain in ("chase4", "chase8"):
        for w in WGMMA_N:
            if (chain, w) not in runs or (chain, "none") not in runs:
                continue
            hop = runs[(chain, w)]["cycles_per_iteration"] / CHASE_HOPS
            alone = runs[(chain, "none")]["cycles_per_iteration"] / CHASE_HOPS
            read = operand_bytes(w) / 128
            print(f"{chain} beside {w}: {hop:.1f} cycles a hop (alone {alone:.1f}: +{hop - alone:.1f}); an HGMMA's "
                  f"operands take the path {read:.0f} cycles, half of it {read / 2:.0f}")
            if a.check and chain == "chase4" and not 0.3 * read <= hop - alone <= 0.9 * read:
                failures.append(f"{chain} beside {w}: +{hop - alone:.1f} cycles a hop, not 0.3-0.9 of {read:.0f}")
    print()
    for w in ("wgmma128",):
        for mma_measured in (True, False):
            key = ("mma8", w) if mma_measured else (w, "mma8")
            if key not in runs:
                continue
            r = runs[key]
            mma_cycles, wg_cycles = (r["cycles_per_iteration"], r["neighbour_cycles_per_iteration"]) if mma_measured \
                else (r["neighbour_cycles_per_iteration"], r["cycles_per_iteration"])
            window = r["cycles_per_iteration"]
            hmma_pipe = MMA8_HMMA * HMMA_PIPE_CYCLES * window / mma_cycles
            wgmma_pipe = flops(w) / SUBPARTITIONS / (PIPE_FLOPS / SUBPARTITIONS) * window / wg_cycles
            busy = (hmma_pipe + wgmma_pipe) / window
            print(f"{key[0]} beside {key[1]}: mma.sync {mma_cycles:.0f} cycles an iteration (alone "
                  f"{runs[('mma8', 'none')]['cycles_per_iteration']:.0f}), wgmma {wg_cycles:.0f} (alone "
                  f"{runs[(w, 'none')]['cycles_per_iteration']:.0f}): the tensor pipe busy {busy:.0%} of the window")
            if a.check and busy < 0.85:
                failures.append(f"{key[0]} beside {key[1]}: the tensor pipe busy {busy:.0%}, under 85 %")
    shares = []
    for stream in ("imad", "alu"):
        for w in WGMMA_N:
            if (stream, w) not in runs or (stream, "none") not in runs:
                continue
            r = runs[(stream, w)]
            alone = runs[(stream, "none")]["cycles_per_iteration"]
            lost = r["cycles_per_iteration"] - alone
            hgmma = WGMMA_PER_ITERATION * r["cycles_per_iteration"] / r["neighbour_cycles_per_iteration"]
            pipe = flops(w) / WGMMA_PER_ITERATION / PIPE_FLOPS
            shares.append(lost / hgmma / pipe)
            print(f"{stream} beside {w}: {r['cycles_per_iteration']:.0f} cycles for {INTEGER_PER_ITERATION} "
                  f"instructions (alone {alone:.0f}; the neighbour {r['neighbour_cycles_per_iteration']:.0f} an "
                  f"iteration): {lost / hgmma:.1f} cycles lost per neighbour HGMMA of {pipe:.0f} in the pipe "
                  f"({lost / hgmma / pipe:.2f})")
            if a.check and not 0.45 <= lost / hgmma / pipe <= 0.65:
                failures.append(f"{stream} beside {w}: {lost / hgmma / pipe:.2f} of an HGMMA's pipe time lost, not 0.45-0.65")
    if shares:
        print(f"an integer stream loses {sum(shares) / len(shares):.2f} of each neighbour HGMMA's pipe time on average "
              "(the Triton records' measured dispatch_stall holds it; not a mechanism of the model)")
    if a.check:
        finish(failures)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""In what order the SM's shared-memory data path serves the warps queued at it (gms-mio-order-ubench,
validate/scripts/device_mio_order.sh): silicon's record beside the model's replay of the same kernels.

    mio_order.py validate/results/h200/mio_order [--model build/gpumemsim --gpu configs/gpus/h200.yaml] [--check]

`reduction_order`: 16 CTAs of 4 warps on one SM, each running ROUNDS rounds of 8 eight-way conflicted STS, a
barrier, 8 eight-way LDS (their values summed into the next round's stores), a barrier. Printed per ROUNDS: each
CTA's end by its age rank, in units of one CTA's own path work (4 warps x 16 instructions x 8 wavefronts a round),
and the mean end over the last: served one CTA after another the ends are ~1 unit apart and the ratio ~0.53
(1 + ... + 16 over 16 x 16); shared alike they all come at ~16 and the ratio is ~1. `chase_beside_flood`: cycles per hop of a chain of dependent eight-way LDS alone, in the oldest CTA beside 60
warps flooding the path, and in the youngest.

--model: the same kernels as Accel-Sim traces (their SASS shortened to what issues: the loads' and stores' lane
addresses, the sums, the barriers, the loop's compare and branch) replayed on one SM of the preset.
--check: exit 1 unless silicon's two runs agree within 3 % and its CTAs end one at a time (mean end over the last
at most 0.65 at 16 and 64 rounds); with --model also unless the model's mean end over the last is within 0.05 of
silicon's at every ROUNDS and its oldest chain beside the flood within 25 % of silicon's cycles per hop."""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import ONE_SM_SETS, SHARED_BASE, add_replay_args, run_trace, write_warps_trace  # noqa: E402
from jsonl_rows import read_jsonl  # noqa: E402

CTAS = 16
WARPS = 4
UNIT = WARPS * 16 * 8  # one CTA's path cycles a round: 4 warps x (8 STS + 8 LDS) x 8 wavefronts


def read(directory):
    runs = {}
    for r in read_jsonl(os.path.join(directory, "mio_order.jsonl"), "mio_order.py"):
        runs.setdefault(r["run"], []).append(r)
    return runs


def lanes(offset):
    """Lane addresses of an eight-way conflicted access (lanes 8 apart share a bank): word (l % 8) x 32 + l // 8 + offset."""
    return " ".join(f"0x{SHARED_BASE + 4 * ((l % 8) * 32 + l // 8 + offset):x}" for l in range(32))


# A reduction round's two phases as a warp issues them (trace lines): 8 eight-way STS of the running sum R2, and 8
# eight-way LDS with their adds into it; the barrier, the loop's compare and branch, the exit.
STORES = [f"ffffffff 0 STS 2 R0 R2 4 0 {lanes(4 * i)} 0" for i in range(8)]
LOADS = ([f"ffffffff 1 R{10 + i} LDS 1 R0 4 0 {lanes(4 * i)} 0" for i in range(8)] +
         [f"ffffffff 1 R2 IADD3 2 R2 R{10 + i} 0 0" for i in range(8)])
BARRIER = "ffffffff 0 BAR.SYNC 0 0 0"
LOOP = ["ffffffff 0 ISETP.NE.AND 1 R3 0 0", "ffffffff 0 BRA 0 0 0"]
EXIT = "ffffffff 0 EXIT 0 0 0"


def reduction_warp(rounds):
    """One warp of reduction_order as it issues: per round 8 STS of the running sum, a barrier, 8 LDS, the 8 adds
    into the sum, a barrier, the loop's compare and branch."""
    body = []
    for _ in range(rounds):
        body += STORES + [BARRIER] + LOADS + [BARRIER] + LOOP
    return body + [EXIT]


def write_trace(directory, name, warps_of_cta, ctas=CTAS):
    """A trace of `ctas` CTAs of WARPS warps; warps_of_cta(c) gives each CTA's warps' instruction lists."""
    return write_warps_trace(directory, name, warps_of_cta, ctas, WARPS)


def model_order(binary, gpu, rounds, work, sets):
    body = reduction_warp(rounds)
    kl = write_trace(os.path.join(work, f"order{rounds}"), "reduction_order", lambda c: [body] * WARPS)
    out = run_trace(binary, gpu, kl, work, [*ONE_SM_SETS, *sets], f"order{rounds}-out")
    with open(os.path.join(out, "ctas.csv")) as f:
        rows = sorted(csv.DictReader(f), key=lambda r: int(r["launch_index"]))  # launch order: the oldest first
    first = min(float(r["start_cycle"]) for r in rows)
    return [float(r["end_cycle"]) - first for r in rows]


def model_chase(binary, gpu, hops, chaser, work, sets):
    """chaser: None (alone), 0 (the oldest CTA's warp 0) or CTAS - 1 (the youngest's); the flood's warps issue
    independent loads for twice the silicon chain's span at its measured pace (600 cycles a hop beside the oldest,
    32,768 beside the youngest)."""
    chain = [f"ffffffff 1 R10 LDS 1 R10 4 0 {lanes(0)} 0" for _ in range(hops)] + ["ffffffff 0 EXIT 0 0 0"]
    flood = []
    pace = 32768 if chaser == CTAS - 1 else 600
    for _ in range(hops * pace * 2 // (60 * 8 * 8) + 1):  # ~2 x the chain's span of the path over 60 warps
        flood += [f"ffffffff 1 R{20 + i} LDS 1 R0 4 0 {lanes(4 * i)} 0" for i in range(8)]
        flood += [f"ffffffff 1 R2 IADD3 2 R2 R{20 + i} 0 0" for i in range(8)]
    flood.append("ffffffff 0 EXIT 0 0 0")
    idle = ["ffffffff 0 EXIT 0 0 0"]
    who = 0 if chaser is None else chaser

    def warps(c):
        if c == who:
            return [chain] + [idle] * (WARPS - 1)
        return [idle if chaser is None else flood] * WARPS

    kl = write_trace(os.path.join(work, f"chase{chaser}"), "chase_beside_flood", warps)
    out = run_trace(binary, gpu, kl, work, [*ONE_SM_SETS, *sets], f"chase{chaser}-out")
    with open(os.path.join(out, "ctas.csv")) as f:
        rows = {int(r["launch_index"]): r for r in csv.DictReader(f)}
    r = rows[who]
    return (float(r["end_cycle"]) - float(r["start_cycle"])) / hops


def spread(ends):
    """The mean end over the last: ~0.53 for 16 CTAs served one after another, ~1 for CTAs served alike."""
    return sum(ends) / len(ends) / max(ends)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    add_replay_args(ap)
    a = ap.parse_args()
    runs = read(a.folder)
    first = runs[min(runs)]
    work = tempfile.mkdtemp(prefix="mio_order.")
    failures = []
    print("| rounds | source | each CTA's end by age rank, in units of one CTA's path work | mean end / last end |")
    print("|---|---|---|---|")
    for r in (x for x in first if x["measure"] == "reduction_order"):
        rounds = r["rounds"]
        unit = rounds * UNIT
        ends = [e / unit for e in r["end_by_rank"]]
        print(f"| {rounds} | silicon | {' '.join(f'{e:.2f}' for e in ends)} | {spread(ends):.2f} |")
        for other in runs.values():
            o = next(x for x in other if x["measure"] == "reduction_order" and x["rounds"] == rounds)
            if abs(o["end_by_rank"][-1] / r["end_by_rank"][-1] - 1) > 0.03:
                failures.append(f"{rounds} rounds: runs differ ({o['end_by_rank'][-1]} against {r['end_by_rank'][-1]} cycles)")
        if rounds >= 16 and spread(ends) > 0.65:
            failures.append(f"{rounds} rounds: the CTAs end together (mean end / last {spread(ends):.2f})")
        if a.model:
            try:
                m = [e / unit for e in model_order(a.model, a.gpu, rounds, work, a.set)]
            except subprocess.CalledProcessError as e:
                sys.exit(f"mio_order.py: {' '.join(e.cmd)}: {e.stderr.strip()}")
            print(f"| {rounds} | model | {' '.join(f'{e:.2f}' for e in m)} | {spread(m):.2f} |")
            if abs(spread(m) - spread(ends)) > 0.05:
                failures.append(f"{rounds} rounds: the model's mean end / last {spread(m):.2f}, silicon's {spread(ends):.2f}")
    print()
    print("| chain of dependent eight-way LDS | silicon cycles per hop (median, p10-p90) | model |")
    print("|---|---|---|")
    for r in (x for x in first if x["measure"] == "chase_beside_flood"):
        who = "alone" if not r["flood"] else f"{r['chaser']} CTA beside the flood"
        model = ""
        if a.model:
            chaser = None if not r["flood"] else (0 if r["chaser"] == "oldest" else CTAS - 1)
            hop = model_chase(a.model, a.gpu, 8 if chaser == CTAS - 1 else 64, chaser, work, a.set)
            model = f"{hop:.1f}"
            if chaser == 0 and abs(hop / r["cycles_per_hop.median"] - 1) > 0.25:
                failures.append(f"the oldest chain beside the flood: the model's {hop:.0f} cycles a hop, silicon's "
                                f"{r['cycles_per_hop.median']:.0f}")
        print(f"| {who} | {r['cycles_per_hop.median']:.1f} ({r['cycles_per_hop.p10']:.1f}-{r['cycles_per_hop.p90']:.1f}) | {model} |")
    if a.check:
        if failures:
            sys.exit("mio_order.py: " + "; ".join(failures))
        print("check: the runs agree and silicon's CTAs end one at a time, oldest first")


if __name__ == "__main__":
    main()

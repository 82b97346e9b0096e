#!/usr/bin/env python3
"""How long a new warp's first S2R waits behind other warps' shared-memory traffic: silicon's record beside the
model's replay of the same kernel.

    mio_startup.py RUN.jsonl [--model build/gpumemsim --gpu configs/gpus/h200.yaml] [--set KEY=VALUE ...] [--rounds N ...]
                   [--check]

RUN.jsonl: gms-mio-startup-ubench's `s2r_beside` lines (validate/results/h200/mio_startup/mio_startup_run.jsonl:
the older CTAs' traffic stores, loads or both, two runs) or gms-mio-ubench's `mio_startup` lines
(validate/results/h100/mio/mio_run.jsonl: stores then loads). The kernel: CTAs of 4 warps, 16 an SM, 8 waves; each
warp reads the clock, its thread index (S2R, its first MIO instruction), the clock, then ROUNDS rounds of two phases
of 8 eight-way conflicted shared accesses and a barrier. Silicon's number is the S2R's issue delay (the clock reads
around it), median / p90 / mean over the first wave's warps and over the later waves'; with `s2r_beside`, also per
placement rank on the SM in the first wave: the rank's entry (cycles after the SM's first CTA) and its delay, and
where in a 32,768-cycle period of the SM's clock64 the starved S2Rs (delay over 5,000) issue, in 16 bins of 2,048.

--model: the kernel as an Accel-Sim trace on one SM of the preset, 128 CTAs; a warp's delay is the time from its
placement to its first issue (`gpumemsim run --warp-timeline 0`: the S2R is its first instruction).
--check (needs --model): exit 1 unless, at every traffic and ROUNDS of the record, the model's later waves wait
behind the traffic where silicon's do (mean over 5,000 cycles), nothing waits without traffic (model mean under
100), `sts_warps012`'s warp 3 waits where silicon's does, and, with sm.mio_starvation_period set, wherever the older
CTAs outlast two periods (16 rounds and more) the model's later-wave median is within 25 % of silicon's and, where 80 %
of silicon's starved S2Rs issue in the 2,048 cycles after a multiple of 16,384, so do 80 % of the model's."""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mio_order  # noqa: E402
from accelsim_trace import ONE_SM_SETS, add_replay_args, run_trace  # noqa: E402

CTAS_PER_SM = 16
WAVES = 8


def silicon(path):
    """{(traffic, rounds): [each run's line]} from either benchmark's lines."""
    out = {}
    for line in open(path):
        d = json.loads(line)
        if d.get("measure") == "s2r_beside":
            out.setdefault((d["traffic"], d["rounds"]), []).append(d)
        elif d.get("measure") == "mio_startup" and d["first"] == "S2R":
            out.setdefault(("sts_lds" if d["rounds"] else "none", d["rounds"]), []).append(d)
    if not out:
        sys.exit(f"mio_startup.py: {path} has no s2r_beside or mio_startup S2R lines")
    return out


def stats(values):
    v = sorted(values)
    return {"median": v[(len(v) - 1) // 2], "p90": v[int(0.9 * (len(v) - 1))], "mean": sum(v) / len(v)}


def warp_body(traffic, rounds, warp=0):
    """One warp as it issues: the S2R whose value the first access uses, then the rounds' two phases (sts_warps012:
    warps 0-2 store with no barrier, warp 3 only reads its index)."""
    sts, lds = mio_order.STORES, mio_order.LOADS
    body = ["ffffffff 1 R2 S2R 0 0 0"]
    if traffic == "sts_warps012":
        for _ in range(rounds if warp % 4 != 3 else 0):
            body += sts + sts + mio_order.LOOP
        return body + [mio_order.EXIT]
    first, second = {"sts": (sts, sts), "lds": (lds, lds), "sts_lds": (sts, lds), "none": ([], [])}[traffic]
    for _ in range(rounds if traffic != "none" else 0):
        body += first + [mio_order.BARRIER] + second + [mio_order.BARRIER] + mio_order.LOOP
    return body + [mio_order.EXIT]


def model_delays(binary, gpu, traffic, rounds, work, sets):
    """The model's first-S2R delays: first wave and later waves' stats, and per first-wave placement rank the
    CTA's entry after the first CTA's and its warps' median delay."""
    bodies = [warp_body(traffic, rounds, w) for w in range(mio_order.WARPS)]
    name = f"startup_{traffic}{rounds}"
    # 8 waves of 16 CTAs on the one SM
    kl = mio_order.write_trace(os.path.join(work, name), "startup_beside", lambda c: bodies, CTAS_PER_SM * WAVES)
    try:
        out = run_trace(binary, gpu, kl, work, [*ONE_SM_SETS, *sets], name + "-out", ["--warp-timeline", "0"])
    except subprocess.CalledProcessError as e:
        sys.exit(f"mio_startup.py: {' '.join(e.cmd)}: {e.stderr.strip()}")
    start, first_issue = {}, {}
    with open(os.path.join(out, "warps.csv")) as f:
        for r in csv.DictReader(f):
            key = (int(r["launch_index"]), int(r["warp_slot"]))
            t = float(r["start_cycle"])
            start[key] = min(start.get(key, t), t)
            if r["state"] == "selected":
                first_issue[key] = min(first_issue.get(key, t), t)
    first, later, by_cta, phase = [], [], {}, [0] * 16
    later_by_warp = [[] for _ in range(mio_order.WARPS)]
    for key, t in first_issue.items():
        (first if key[0] < CTAS_PER_SM else later).append(t - start[key])
        if key[0] >= CTAS_PER_SM:
            later_by_warp[key[1] % mio_order.WARPS].append(t - start[key])
        if t - start[key] > 5000:
            phase[int(t % 32768) // 2048] += 1
        if key[0] < CTAS_PER_SM:
            by_cta.setdefault(key[0], []).append((start[key], t - start[key]))
    ranked = sorted((min(s for s, _ in v), stats([d for _, d in v])["median"]) for v in by_cta.values())
    entries = [e - ranked[0][0] for e, _ in ranked]
    return stats(first), stats(later), entries, [d for _, d in ranked], phase, [stats(v) for v in later_by_warp]


def fmt(s):
    return f"{s['median']:.0f} / {s['p90']:.0f} / {s['mean']:.0f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    add_replay_args(ap)
    ap.add_argument("--rounds", type=int, action="append", metavar="N", help="only these ROUNDS (repeatable; default all)")
    a = ap.parse_args()
    if a.check and not a.model:
        sys.exit("mio_startup.py: --check needs --model")
    period = None
    for kv in a.set:
        if kv.startswith("gpu.sm.mio_starvation_period="):
            period = float(kv.split("=", 1)[1].removesuffix("cycles"))
    if period is None and a.model:
        with open(a.gpu) as f:
            for line in f:
                if line.strip().startswith("mio_starvation_period:"):
                    period = float(line.split(":", 1)[1].split("#")[0].strip().removesuffix("cycles"))
    work = tempfile.mkdtemp(prefix="mio_startup.")
    failures, ranks, warps = [], [], []
    print("| traffic | rounds | first wave: silicon (median / p90 / mean cycles) | model | later waves: silicon | model |")
    print("|---|---|---|---|---|---|")
    for (traffic, rounds), runs in sorted(silicon(a.run).items(), key=lambda kv: (kv[0][0] != "none", kv[0])):
        if a.rounds and rounds not in a.rounds and traffic != "none":
            continue
        d = runs[0]
        row = [traffic, str(rounds), fmt(d["first_wave"]), "", fmt(d["later_waves"]), ""]
        if a.model:
            mf, ml, entries, delays, phase, by_warp = model_delays(a.model, a.gpu, traffic, rounds, work, a.set)
            row[3], row[5] = fmt(mf), fmt(ml)
            if "later_waves_by_warp" in d and traffic == "sts_warps012":
                warps.append((traffic, rounds, d["later_waves_by_warp"], by_warp))
            if "first_wave_delay_by_rank" in d:
                ranks.append((traffic, rounds, d, entries, delays, phase))
            waits = d["later_waves"]["mean"] > 5000
            if waits and ml["mean"] <= 5000:
                failures.append(f"{traffic} {rounds}: silicon's later waves wait ({d['later_waves']['mean']:.0f}), the model's not")
            if traffic == "none" and ml["mean"] >= 100:
                failures.append(f"without traffic the model's warps wait {ml['mean']:.0f} cycles")
            if period and rounds >= 16 and abs(ml["median"] / d["later_waves"]["median"] - 1) > 0.25:
                failures.append(f"{traffic} {rounds}: the model's later-wave median {ml['median']:.0f}, silicon's "
                                f"{d['later_waves']['median']:.0f}")
            h = d.get("starved_issue_phase_2048")
            if period and rounds >= 16 and h and (h[0] + h[8]) >= 0.8 * sum(h) and (phase[0] + phase[8]) < 0.8 * sum(phase):
                failures.append(f"{traffic} {rounds}: {100 * (phase[0] + phase[8]) / max(1, sum(phase)):.0f} % of the "
                                "model's starved S2Rs issue just after a tick, silicon's 80 % or more")
        print("| " + " | ".join(row) + " |")
    for traffic, rounds, d, entries, delays, phase in ranks:
        print(f"\n{traffic}, {rounds} rounds, first wave by placement rank: entry (cycles after the SM's first CTA) / S2R delay")
        print(f"  silicon: {' '.join(f'{e}/{x}' for e, x in zip(d['first_wave_entry_by_rank'], d['first_wave_delay_by_rank']))}")
        print(f"  model:   {' '.join(f'{e:.0f}/{x:.0f}' for e, x in zip(entries, delays))}")
        if "starved_issue_phase_2048" in d:
            def share(h):
                return " ".join(f"{100 * x / max(1, sum(h)):.0f}" for x in h)
            print(f"  starved S2Rs by 2,048-cycle bin of a 32,768-cycle period, % - silicon: {share(d['starved_issue_phase_2048'])}")
            print(f"                                                             model:   {share(phase)}")
    for traffic, rounds, silicon_w, model_w in warps:
        print(f"\n{traffic}, {rounds} rounds, later waves by warp of the CTA (warp w on sub-partition w % 4; warp 3's has no traffic):")
        print(f"  silicon: {' | '.join(fmt(s) for s in silicon_w)}")
        print(f"  model:   {' | '.join(fmt(s) for s in model_w)}")
        if a.model and silicon_w[3]["mean"] > 5000 and model_w[3]["mean"] <= 5000:
            failures.append(f"{traffic} {rounds}: silicon's warp 3 waits ({silicon_w[3]['mean']:.0f}), the model's not")
    if a.check:
        if failures:
            sys.exit("mio_startup.py: " + "; ".join(failures))
        print("check: the model's later waves wait behind every traffic where silicon's do" +
              (", as long where the starvation period releases them" if period else ""))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""gms-gpc-ubench burst (validate/scripts/device_gpc_burst.sh): how the L2 shares bursts that SMs send at different
times. Every SM sends 64 KB from L2 in each round; the odd SMs start theirs `delay` cycles after the even ones.
If the L2 serves whole bursts in the order they were booked (the model's presets book a load's lines when its warp
issues it), the even SMs' bursts, queued first, are done about when they would be alone and the odd ones wait for
them; if it gives each SM a share, the even SMs are slowed by the odd ones' overlap as much as the odd ones by theirs. Per set: the median burst latency of the even
and of the odd SMs (SM cycles; the first two rounds dropped as warm-up), their starts apart (globaltimer ns,
median over rounds of the odd SMs' median start minus the even ones'), and the even SMs' latency as a share of
the way from alone to the all-at-once latency.

  gpc_burst.py DIR [--check]

--check: exit 1 unless (what the H200's record of 2026-11-29 shows) every SM at once takes over 1.4x a half's
latency alone; with the odd SMs 250 or 500 cycles late the even SMs - first in the L2's queues - still go at least
30 % of the way from alone to all at once (silicon 60 / 48 %; booked when issued, as the model's presets do, they go
0 %; with the lines handed over as they leave their SMs, l2.reads_in_arrival_order, 59 / 19 %); and 2,000 cycles or
more apart both halves run within 5 % of alone.

The run file may be xz-compressed (gpc_burst_run.jsonl.xz, as committed)."""
import argparse
import json
import lzma
import os
import statistics
import sys


def load(path):
    sets = {}
    if not os.path.exists(path) and os.path.exists(path + ".xz"):
        path += ".xz"
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{") or '"sms"' not in line:
                continue
            r = json.loads(line)
            sets.setdefault(r["set"], []).append(r)
    return sets


def summary(reps):
    """Median latency (cycles) of even and odd SMs over rounds 2.. and repetitions; starts apart (ns)."""
    even, odd, apart = [], [], []
    for r in reps:
        sms = {int(k): v for k, v in r["sms"].items()}
        rounds = len(next(iter(sms.values())))
        for rd in range(2, rounds):
            e_starts = [v[rd][0] for s, v in sms.items() if s % 2 == 0]
            o_starts = [v[rd][0] for s, v in sms.items() if s % 2 == 1]
            if e_starts and o_starts:
                apart.append(statistics.median(o_starts) - statistics.median(e_starts))
            even += [v[rd][1] for s, v in sms.items() if s % 2 == 0]
            odd += [v[rd][1] for s, v in sms.items() if s % 2 == 1]
    med = lambda x: statistics.median(x) if x else float("nan")
    return med(even), med(odd), med(apart)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    sets = load(os.path.join(a.dir, "gpc_burst_run.jsonl"))
    if not sets:
        sys.exit(f"gpc_burst: no burst sets in {a.dir}")
    gpu = next(iter(sets.values()))[0]["gpu"]
    alone_even = summary(sets["even alone"])[0] if "even alone" in sets else float("nan")
    alone_odd = summary(sets["odd alone"])[1] if "odd alone" in sets else float("nan")
    together = summary(sets["all, odd late 0"]) if "all, odd late 0" in sets else (float("nan"),) * 3
    print(f"# {gpu}: 64 KB bursts from L2, latency in SM cycles (median over SMs, rounds 2-23, 3 repetitions)")
    print(f"even SMs alone {alone_even:.0f}, odd SMs alone {alone_odd:.0f}, all at once {together[0]:.0f} / {together[1]:.0f}")
    print("| set | starts apart (ns) | even SMs | odd SMs | even: alone -> together |")
    print("|---|---|---|---|---|")
    rows = {}
    for name, reps in sets.items():
        if not name.startswith("all"):
            continue
        e, o, ap_ns = summary(reps)
        share = (e - alone_even) / (together[0] - alone_even) if together[0] != alone_even else float("nan")
        rows[name] = (e, o, ap_ns, share)
        print(f"| {name} | {ap_ns:.0f} | {e:.0f} | {o:.0f} | {share:.2f} |")
    if not a.check:
        return 0
    bad = []
    if not together[0] > 1.4 * alone_even:
        bad.append(f"all at once {together[0]:.0f} cycles is not over 1.4x the even SMs alone ({alone_even:.0f})")
    for d in (250, 500):
        r = rows.get(f"all, odd late {d}")
        if r is None or not r[3] >= 0.3:
            bad.append(f"odd SMs {d} cycles late: the even SMs went {r[3] if r else float('nan'):.2f} of the way to all at once, not >= 0.3")
    for d in (2000, 4000):
        r = rows.get(f"all, odd late {d}")
        if r is None or not (abs(r[0] / alone_even - 1) <= 0.05 and abs(r[1] / alone_odd - 1) <= 0.05):
            bad.append(f"odd SMs {d} cycles late: the halves are not within 5 % of alone")
    for b in bad:
        print("gpc_burst check: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

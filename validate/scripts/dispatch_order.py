#!/usr/bin/env python3
"""In which order does silicon's work distributor hand a launch's first CTAs to the SMs? (launch.sm_order)

Reads stamped CTA times (DIR/<case>_run<r>.csv[.gz]: cta, sm, ...; gms-cta-times, triton_cta_times.py,
the ladder's and the GEMVs' stamps) and, per launch, the SMs of its first CTAs in launch order. Hopper
hands them out a TPC (two SMs, ids 2t and 2t+1) at a time; a launch with one CTA an SM visits every SM
once. What the H100s and H200s stamped here show:

* a block of SMs (the "lead" TPCs, on Hopper 124-131) takes the first CTAs of every launch, and its TPCs
  come round again ahead of the others in launches of several CTAs an SM;
* every other TPC follows one fixed cycle (0, 16, 32, 48, 2, 18, ...: a TPC of each GPC in turn), which a
  launch enters where the one before it left off.

Prints per directory the lead TPCs, the cycle, the share of each launch's consecutive TPC visits that follow
the cycle, and the order as `launch.sm_order` takes it (the lead TPCs, then the cycle from its lowest TPC).

usage: validate/scripts/dispatch_order.py DIR... [--check] [--sm-order] [--preset PRESET [--gpumemsim BIN]]
  --check     exit 1 unless every launch with one CTA an SM visits all SMs, each launch's non-lead TPCs
              follow one cycle (every consecutive pair, across launches of all occupancies, >= 99 %),
              and every directory gives the same cycle
  --sm-order  print only the launch.sm_order text (from the directories' common cycle)
  --preset    also say whether PRESET's launch.sm_order (as BIN's `config show` reads it) is that order; with
              --check, exit 1 if not
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_stamps import stamp_runs  # noqa: E402


def tpc_visits(rows, count):
    """The TPCs (SM id // 2) of a run's first `count` CTAs in launch order, one entry per TPC visit (the two
    SMs of a TPC take consecutive CTAs)."""
    sms = [int(r["sm"]) for r in rows[:count]]
    return [sm // 2 for i, sm in enumerate(sms) if i % 2 == 0]


def first_wave(rows):
    """How many CTAs of a run (in launch order) the dispatcher placed before any ended: the ones placed on
    free slots, in its own order; later CTAs go where a CTA retired."""
    first_end = min(int(r["gt_end_ns"]) for r in rows)
    n = 0
    while n < len(rows) and int(rows[n]["gt_start_ns"]) < first_end:
        n += 1
    return n


def launches(directory):
    """[(case, run, rows)] of every stamped launch in the directory."""
    return [(case, i, rows) for case, runs in stamp_runs(directory).items() for i, rows in enumerate(runs)]


def lead_and_cycle(one_per_sm):
    """From launches with one CTA an SM (their first CTAs' TPC lists): the lead TPCs (those every launch
    visits first) and the cycle the others follow, as a list starting at its lowest TPC."""
    lead = set(one_per_sm[0][:4])
    for visits in one_per_sm:
        n = len(lead)
        if set(visits[:n]) != lead:
            lead &= set(visits[:n])
    first = [t for t in one_per_sm[0] if t not in lead]
    start = first.index(min(first))
    return sorted(lead), first[start:] + first[:start]


def follows(visits, cycle, lead):
    """(pairs that follow the cycle, pairs) over consecutive non-lead TPC visits."""
    nxt = {cycle[i]: cycle[(i + 1) % len(cycle)] for i in range(len(cycle))}
    rest = [t for t in visits if t not in lead]
    pairs = list(zip(rest, rest[1:]))
    return sum(nxt.get(a) == b for a, b in pairs), len(pairs)


def sm_order_text(lead, cycle):
    """launch.sm_order: the lead TPCs' SMs, then the cycle's, runs of consecutive ids as ranges."""
    ids = [s for t in lead + cycle for s in (2 * t, 2 * t + 1)]
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        parts.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return ",".join(parts)


def sm_order_ids(text):
    """The SM ids a launch.sm_order text names, in order ("124-131,0-1,..."; the inverse of sm_order_text)."""
    out = []
    for item in (s.strip() for s in text.split(",")):
        if item:
            first, _, last = item.partition("-")
            a, b = int(first), int(last or first)
            out += list(range(a, b + 1)) if b >= a else list(range(a, b - 1, -1))
    return out


def preset_sm_order(gpumemsim, preset):
    """launch.sm_order of `preset` as the simulator reads it (`gpumemsim config show`)."""
    shown = subprocess.run([gpumemsim, "config", "show", "--gpu", preset], check=True, capture_output=True,
                           text=True).stdout
    found = re.search(r'sm_order: "([0-9, -]*)"', shown)
    return sm_order_ids(found.group(1)) if found else []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--sm-order", action="store_true")
    ap.add_argument("--preset", help="a GPU preset whose launch.sm_order must be the measured one (with --gpumemsim)")
    ap.add_argument("--gpumemsim", default="build/gpumemsim")
    args = ap.parse_args()
    ok, cycles, found = True, [], []
    for d in args.dirs:
        runs = launches(d)
        if not runs:
            sys.exit("%s: no stamped launches (<case>_run<r>.csv[.gz])" % d)
        sms = max(int(r["sm"]) for _, _, rows in runs for r in rows) + 1
        one_per_sm = [tpc_visits(rows, sms) for _, _, rows in runs
                      if len(rows) >= sms and len({int(r["sm"]) for r in rows[:sms]}) == sms]
        if one_per_sm:
            cycles.append(lead_and_cycle(one_per_sm))
        found.append((d, runs, sms, len(one_per_sm)))
    if not cycles:
        sys.exit("no directory has a launch with one CTA an SM: nothing to take the order from")
    lead, cycle = cycles[0]
    if len({(tuple(a), tuple(b)) for a, b in cycles}) > 1:
        print("the directories' cycles differ")
        ok = False
    for d, runs, sms, n_one in found:
        hit = total = 0
        for case, run, rows in runs:
            h, n = follows(tpc_visits(rows, first_wave(rows)), cycle, set(lead))
            hit, total = hit + h, total + n
        share = hit / total if total else 0.0
        if not args.sm_order:
            print("%s: %d SMs, %d launches (%d with one CTA an SM)" % (d, sms, len(runs), n_one))
            print("  first-wave TPC visits that follow the cycle: %d of %d (%.2f %%)" % (hit, total, 100 * share))
        if len(cycle) + len(lead) != sms // 2 or share < 0.99:
            ok = False
    if not args.sm_order:
        print("lead TPCs %s (SMs %s), taken first by every launch with one CTA an SM" %
              (" ".join(map(str, lead)), " ".join("%d-%d" % (2 * t, 2 * t + 1) for t in lead)))
        print("cycle of the other %d TPCs: %s" % (len(cycle), " ".join(map(str, cycle))))
    text = sm_order_text(lead, cycle)
    print(text if args.sm_order else "launch.sm_order: \"%s\"" % text)
    if args.preset:
        same = preset_sm_order(args.gpumemsim, args.preset) == sm_order_ids(text)
        print("%s: launch.sm_order %s" % (args.preset, "is the measured order" if same else "is NOT the measured order"))
        ok = ok and same
    if args.check and not ok:
        sys.exit(1)


if __name__ == "__main__":
    main()

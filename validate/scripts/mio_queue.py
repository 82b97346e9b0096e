#!/usr/bin/env python3
"""How many shared-memory instructions the MIO queue holds, from gms-mio-ubench's mio_run.jsonl.

Per conflict degree (wavefronts per LDS) and layout: each timed warp's LDS issued before its first stall (a gap of more than 16 cycles
between two clock reads after the fourth - the first three include the clock read's own start-up),
summed per sub-partition and per SM, and the path's steady pace per SM (cycles per LDS). The
instructions still outstanding when the queue first fills are those issued minus those the path
finished meanwhile (the pace from the first LDS's issue).

An entry leaves the queue some time after the path has finished its instruction (its data's way back):
counted at the path's finish, the SM holds fewer the faster the path drains (fewer wavefronts per LDS).
With one warp on each sub-partition (layout w0..w3) the stall points at 4-32 wavefronts fit
outstanding = B - L / wavefronts: the queue's size B and the release latency L (cycles); the
sub-partition's size is the one- and two-warp layouts' stall point (32 wavefronts) plus L / 32.

usage: mio_queue.py FILE.jsonl [--check PRESET]
  --check: exit 1 unless the preset's sm.mio_queue_per_sm and sm.mio_queue_per_subpartition are within
           2 of B and the sub-partition's size, and sm.mio_release_latency within 10 cycles of L
"""
import argparse
import collections
import json
import re
import sys


def first_stall(clocks, warps_per_subpartition):
    """The first LDS that waited for the queue: a step between clock reads of more than 1.5x the
    unthrottled one (8 cycles an LDS and its clock read per warp, times the warps sharing its
    sub-partition's issue port), after the fourth. (A fixed 16 missed the 4-way loads' stall,
    whose throttled step with four warps is exactly 16.)"""
    limit = 1.5 * 8 * warps_per_subpartition
    for i in range(4, len(clocks)):
        if clocks[i] - clocks[i - 1] > limit:
            return i, clocks[i - 1]
    return len(clocks), clocks[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--check", metavar="PRESET")
    a = ap.parse_args()
    path = a.run
    layouts = collections.OrderedDict()
    shuffles = collections.OrderedDict()
    for line in open(path):
        d = json.loads(line)
        if d.get("measure", "mio_queue") == "mio_queue_shfl":  # warp shuffles: reported apart, not fitted
            shuffles.setdefault(d["layout"], []).append(d)
            continue
        if d.get("measure", "mio_queue") == "shfl_latency":  # a dependent chain: printed as measured
            print(f"shuffle latency ({'with' if d['with_fadd'] else 'without'} an FADD between): {d['cycles_per_hop']} cycles a hop")
            continue
        if d.get("measure", "mio_queue") == "mio_startup":  # a new warp's first MIO instruction: printed as measured
            print(f"startup, first {d['first']}, {d['rounds']:>2} rounds of shared traffic: issue delay median / p90 / mean "
                  f"{d['first_wave']['median']:.0f} / {d['first_wave']['p90']:.0f} / {d['first_wave']['mean']:.0f} cycles "
                  f"(first wave), {d['later_waves']['median']:.0f} / {d['later_waves']['p90']:.0f} / "
                  f"{d['later_waves']['mean']:.0f} (later waves); the second S2R {d['second_s2r_later_waves']['median']:.0f}")
            continue
        layouts.setdefault((d.get("conflict_ways", 32), d["layout"]), []).append(d)
    per_sp, per_sm = [], []
    print("ways  layout   timed warps  issued before the first stall (per warp)  per sub-partition  per SM  "
          "SM pace (cycles/LDS)  finished by then  outstanding per SM")
    for (ways, name), rows in layouts.items():
        issued, at, by_sp = [], [], collections.Counter()
        sharing = collections.Counter(d["subpartition"] for d in rows)
        for d in rows:
            n, t = first_stall(d["clock_after_lds"], sharing[d["subpartition"]])
            issued.append(n)
            at.append(t)
            by_sp[d["subpartition"]] += n
        # Steady state: every timed warp stalled; the SM finishes one LDS per (warp pace / warps).
        pace = 1.0 / sum(1.0 / d["steady_cycles_per_lds"] for d in rows)
        finished = max(at) / pace
        total = sum(issued)
        stalled = all(n < len(d["clock_after_lds"]) - 8 for n, d in zip(issued, rows))
        # Loads of 1-2 wavefronts drain as fast as four warps issue them: no stall, no bound from them.
        if stalled and name in ("w0", "w0,w4"):
            per_sp.append((ways, total - finished))
        elif stalled and name == "w0..w3":
            per_sm.append((ways, total - finished))
        print(f"{ways:4}  {name:8} {len(rows):11}  {','.join(map(str, issued)):40}  {max(by_sp.values()):17}  {total:6}  "
              f"{pace:20.1f}  {finished:16.1f}  {total - finished:18.1f}" + ("" if stalled else "  (no stall)"))


    if shuffles:
        print("SHFL.BFLY instead of LDS (the median step between a warp's clock reads: 8 cycles is its own issue):\n"
              "layout   timed warps  issued before the first stall (per warp)  per SM  median step per warp (cycles)")
        for name, rows in shuffles.items():
            sharing = collections.Counter(d["subpartition"] for d in rows)
            issued = [first_stall(d["clock_after_lds"], sharing[d["subpartition"]])[0] for d in rows]
            steps = sorted(c[i] - c[i - 1] for d in rows for c in [d["clock_after_lds"]] for i in range(4, len(c) - 8))
            print(f"{name:8} {len(rows):11}  {','.join(map(str, issued)):40}  {sum(issued):6}  {steps[len(steps) // 2]:14}")

    if not per_sp or not per_sm:
        print(f"mio_queue.py: {path} lacks the one-sub-partition or the four-sub-partition layouts", file=sys.stderr)
        return 2
    # Least squares of outstanding = B - L x (1 / wavefronts) over the w0..w3 stall points.
    xs, ys = [1.0 / w for w, _ in per_sm], [o for _, o in per_sm]
    if len(set(xs)) >= 2:
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        release, sm = -slope, my - slope * mx
    else:  # one conflict degree (the first record): no latency to see
        release, sm = 0.0, ys[0]
    sp = sum(o + release / w for w, o in per_sp) / len(per_sp)
    print(f"queue: {sm:.1f} per SM, {sp:.1f} per sub-partition, entries freed {release:.0f} cycles after the path "
          f"(fit over {len(per_sm)} conflict degrees; residuals " +
          ", ".join(f"{o - (sm - release / w):+.1f}" for w, o in per_sm) + ")")
    if a.check:
        text = open(a.check).read()
        for key, measured, tolerance in (("mio_queue_per_subpartition", sp, 2), ("mio_queue_per_sm", sm, 2),
                                         ("mio_release_latency", release, 10)):
            m = re.search(rf"^\s*{key}:\s*([0-9]+)", text, re.M)
            if not m:
                print(f"CHECK FAILED: {a.check} sets no sm.{key}", file=sys.stderr)
                return 1
            if abs(int(m.group(1)) - measured) > tolerance:
                print(f"CHECK FAILED: {a.check}: {key} {m.group(1)}, measured {measured:.1f}", file=sys.stderr)
                return 1
            print(f"check passed: {a.check}: {key} {m.group(1)}, measured {measured:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Are misses in flight together independent draws? gms-latency-lanes-ubench's steps against the slowest of N
independent draws (validate/scripts/device_latency_lanes.sh).

A warp whose N lanes each miss waits for the slowest of the N. If the N latencies were independent draws from the
one-lane distribution F, the step's distribution would be F^N: its quantile p is F's quantile p^(1/N). The model
draws every DRAM read on its own (dram.latency_spread), so that is what it predicts. Silicon's slow reads, if they
come together (a channel's refresh or a row conflict delays every read there at once), make the step shorter than
that. Per layout and lane count, the runs' mean of:

  measured   mean, p50, p90 of the step (cycles)
  iid        the same of the slowest of N independent one-lane draws (from the random layout's N = 1 quantiles)
  excess     (measured mean - one-lane mean) / (iid mean - one-lane mean): 1 = independent, 0 = all together

    validate/scripts/latency_lanes.py validate/results/h200/latency_lanes/latency_lanes_run.jsonl [--json]
    validate/scripts/latency_lanes.py --self-test    synthetic steps: independent lanes read 1, lanes that wait
                                                     together 0 (exit 1 otherwise)

The model's side (--model build/gpumemsim [--gpu P] [--set K=V ...]): the same steps as an Accel-Sim trace - one
warp whose N lanes each load (LDG.E.CG, L1 bypassed) a line the last step's data names, every line a DRAM miss - and
per case the model's mean step beside silicon's, both less their one-lane mean: what the N - 1 other lanes add.
    validate/scripts/latency_lanes.py RUNS.jsonl --model build/gpumemsim --set gpu.dram.latency_spread_scope=channel
"""
import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import add_replay_args, run_trace, write_warps_trace  # noqa: E402

GIB_LINES = (1 << 30) // 128  # the ubench's 1 GiB of 128-byte lines
GROUP_LINES = 32              # its contiguous groups: 4 KiB
BASE = 0x7F0000000000
CASES = [("random", n) for n in (1, 2, 4, 8, 16, 32)] + [("contiguous", n) for n in (2, 4, 8, 16, 32)]
CHECK_MEAN_MISS = 60  # cycles: --check's bound on the mean |model - silicon| of what the other lanes add


def fail(message):
    print(f"latency_lanes.py: {message}", file=sys.stderr)
    sys.exit(2)


def quantile(permille, p):
    """The quantile p (0..1) of a distribution given at 0, 0.1, ..., 100 %, linearly between the points."""
    x = p * (len(permille) - 1)
    k = min(len(permille) - 2, int(x))
    return permille[k] + (permille[k + 1] - permille[k]) * (x - k)


def iid_max(permille, n, points=4000):
    """Mean, p50 and p90 of the slowest of n independent draws from `permille`."""
    qs = [quantile(permille, ((i + 0.5) / points) ** (1.0 / n)) for i in range(points)]
    return statistics.fmean(qs), quantile(permille, 0.5 ** (1.0 / n)), quantile(permille, 0.9 ** (1.0 / n))


def load(path):
    rows = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                fail(f"{path}:{no}: not JSON ({e.msg})")
            if r.get("measure") != "latency_lanes":
                continue
            p = r.get("permille")
            if not isinstance(p, list) or len(p) != 1001 or any(b < a for a, b in zip(p, p[1:])):
                fail(f"{path}:{no}: 'permille' must be 1001 ascending values")
            rows.append(r)
    return rows


def analyse(rows):
    cases = {}
    for r in rows:
        cases.setdefault((r["layout"], r["lanes"]), []).append(r)
    one = cases.get(("random", 1))
    if not one:
        fail("no one-lane random case in the input")
    base = [statistics.fmean(r["permille"][i] for r in one) for i in range(1001)]
    base_mean = statistics.fmean(r["mean_cycles"] for r in one)
    out = []
    for (layout, lanes), rs in sorted(cases.items()):
        perm = [statistics.fmean(r["permille"][i] for r in rs) for i in range(1001)]
        mean = statistics.fmean(r["mean_cycles"] for r in rs)
        i_mean, i_p50, i_p90 = iid_max(base, lanes)
        excess = (mean - base_mean) / (i_mean - base_mean) if i_mean - base_mean > 1e-9 else float("nan")
        out.append({"layout": layout, "lanes": lanes, "runs": len(rs), "mean": mean, "p50": perm[500],
                    "p90": perm[900], "iid_mean": i_mean, "iid_p50": i_p50, "iid_p90": i_p90, "excess": excess})
    return out


def synthetic(together, seed=7, steps=20000):
    """Rows as the microbenchmark prints them, from a two-mode distribution with a tail like the H200's: each step
    the slowest of N draws, independent or one draw for every lane (`together`)."""
    rng = random.Random(seed)

    def draw():
        x = rng.gauss(570, 30) if rng.random() < 0.43 else rng.gauss(750, 40)
        return x + (rng.uniform(100, 580) if rng.random() < 0.06 else 0.0)

    rows = []
    for lanes in (1, 2, 4, 8, 16, 32):
        steps_at = sorted(draw() if together else max(draw() for _ in range(lanes)) for _ in range(steps))
        rows.append({"measure": "latency_lanes", "layout": "random", "lanes": lanes,
                     "mean_cycles": statistics.fmean(steps_at),
                     "permille": [steps_at[(steps - 1) * p // 1000] for p in range(1001)]})
    return rows


def model_trace(directory, layout, lanes, steps, seed=11):
    """One warp, `steps` dependent steps: each its N lanes' loads of N unrelated lines (random) or of N adjacent lines
    of one 4 KiB group (contiguous), every line new."""
    rng = random.Random(seed)
    mask = (1 << lanes) - 1
    body = []
    for _ in range(steps):
        if layout == "random":
            lines = rng.sample(range(GIB_LINES), lanes)
        else:
            group = rng.randrange(GIB_LINES // GROUP_LINES)
            lines = [group * GROUP_LINES + k for k in range(lanes)]
        addresses = " ".join(f"0x{BASE + line * 128:x}" for line in lines)
        body.append(f"{mask:08x} 1 R4 LDG.E.CG 1 R4 4 0 {addresses} 0")
    body.append("ffffffff 0 EXIT 0 0 0")
    return write_warps_trace(directory, "latency_lanes", lambda c: [body], 1, 1)


def model_means(binary, gpu, sets, steps):
    """(layout, lanes) -> the model's mean cycles per step."""
    means = {}
    with tempfile.TemporaryDirectory() as work:
        for layout, lanes in CASES:
            name = f"{layout}{lanes}"
            kernels = model_trace(os.path.join(work, name), layout, lanes, steps)
            try:
                out = run_trace(binary, gpu, kernels, work, sets, name + "-out")
            except (subprocess.CalledProcessError, OSError) as e:
                fail(f"the model's run failed: {getattr(e, 'stderr', '') or e}")
            with open(os.path.join(out, "ctas.csv")) as f:
                row = next(csv.DictReader(f))
            means[(layout, lanes)] = (float(row["end_cycle"]) - float(row["start_cycle"])) / steps
    return means


def self_test():
    ok = True
    for together, want in ((False, 1.0), (True, 0.0)):
        for t in analyse(synthetic(together)):
            if t["lanes"] == 1:
                continue
            good = abs(t["excess"] - want) <= 0.06
            ok &= good
            print(f"{'ok' if good else 'MISS'} {'together' if together else 'independent'} lanes {t['lanes']}: "
                  f"excess {t['excess']:.3f} (want {want:.0f})")
    print("self-test passed" if ok else "self-test FAILED")
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="?", help="latency_lanes_run.jsonl")
    ap.add_argument("--json", action="store_true", help="the table as JSON")
    ap.add_argument("--self-test", action="store_true", help="check the analysis on synthetic steps")
    ap.add_argument("--steps", type=int, default=2048, help="the model's steps per case")
    add_replay_args(ap)
    a = ap.parse_args()
    if a.check and not a.model:
        fail("--check compares the model: give --model")
    if a.self_test:
        sys.exit(self_test())
    if not a.runs:
        fail("give latency_lanes_run.jsonl (or --self-test)")
    try:
        table = analyse(load(a.runs))
    except OSError as e:
        fail(f"{e}")
    if a.model:
        if a.steps < 1:
            fail("--steps must be 1 or more")
        means = model_means(a.model, a.gpu, a.set, a.steps)
        one = next(t["mean"] for t in table if t["layout"] == "random" and t["lanes"] == 1)
        model_one = means[("random", 1)]
        rows = [(t, means[(t["layout"], t["lanes"])]) for t in table if (t["layout"], t["lanes"]) in means]
        print(f"| layout | lanes | silicon: mean step less one lane's | model ({os.path.basename(a.gpu)}"
              f"{' ' + ' '.join(a.set) if a.set else ''}) |")
        print("|---|---|---|---|")
        for t, m in rows:
            print(f"| {t['layout']} | {t['lanes']} | {t['mean'] - one:+.0f} | {m - model_one:+.0f} |")
        print(f"one lane: silicon {one:.0f} cycles a step, the model {model_one:.0f}")
        if a.check:
            # From 4 lanes up (at 2, silicon's unrelated lines add nothing, which no draw explains): per-read draws
            # miss by ~120 cycles on the mean (adjacent lines), one draw for the device by ~110 (unrelated ones).
            mean_miss = statistics.fmean(abs((t["mean"] - one) - (m - model_one)) for t, m in rows if t["lanes"] >= 4)
            ok = mean_miss <= CHECK_MEAN_MISS
            print(f"{'check passed' if ok else 'check FAILED'}: the model's added cycles miss silicon's by "
                  f"{mean_miss:.0f} on the mean from 4 lanes up (at most {CHECK_MEAN_MISS})")
            sys.exit(0 if ok else 1)
        return
    if a.json:
        json.dump(table, sys.stdout, indent=1)
        print()
        return
    print("| layout | lanes | mean | p50 | p90 | iid mean | iid p50 | iid p90 | excess |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in table:
        ex = "-" if t["lanes"] == 1 else f"{t['excess']:.2f}"
        print(f"| {t['layout']} | {t['lanes']} | {t['mean']:.0f} | {t['p50']:.0f} | {t['p90']:.0f} | "
              f"{t['iid_mean']:.0f} | {t['iid_p50']:.0f} | {t['iid_p90']:.0f} | {ex} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Does a warp keep its age's priority for the issue port after it waits? Silicon's `gms-issue-ubench --wake`
(validate/scripts/device_issue_wake.sh) beside the model's replay of the same loops.

  issue_wake.py SILICON_DIR [--model GPUMEMSIM --gpu YAML [--set KEY=VALUE ...]] [--only WAKE[:PERIOD]]
                [--scale N] [--check]

Per configuration (CTAs x threads per SM, FFMA chains per warp, the event after every PERIOD iterations: none, a
__syncthreads, or a dependent L2 load; or `lds`, a shared load every iteration whose value each chain adds): the SM's CTAs ranked by age and each one's end as a fraction of the SM's
span (medians over the SMs), run 1 of the record, and how far the record's runs differ. Under the table: what a
barrier costs a CTA alone on its SM (the lone CTA's span with a barrier every PERIOD iterations less its span
without, over the barriers), with --model the model's beside it.

--model: each configuration replayed by `GPUMEMSIM run` on one SM of YAML as an Accel-Sim trace of the loop the
compiler made of it (validate/results/h200/issue_wake/issue_wake_sass.txt.xz): the FFMA chains, the unrolled
loop's counter, compare and branch every 16 iterations, the block's constant load, compare and branch, the event;
1/SCALE of the iterations (default 16). `--set` goes to the run (e.g. gpu.sm.warp_scheduler=lrr).

--check: exit 1 unless (a) the record's runs agree within 0.02 on every configuration but two whose first ranks
change places from run to run (a barrier every 64 iterations, 4 x 128; a shared load to every 4 FFMAs, 4 x 128), (b) wherever a warp waits only for L2 loads or for a
barrier every 512 or more iterations, the youngest CTA ends last and the older half by 0.7 of the span (the
priority is the warps' age and survives the wait), and (c) a lone CTA's barrier every 512 or more iterations costs
20-100 cycles.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import ONE_SM_SETS, SHARED_BASE, run_trace, write_uniform_trace  # noqa: E402
from check_result import report  # noqa: E402

AGREE = 0.02
# Configurations whose first ranks change places from run to run (their SMs split between two orders).
UNSTABLE = {("barrier", 64, 4, 128, 2), ("lds", 1, 4, 128, 4)}
# kFfmasPerWarp / chains (3 chains: the loop's 170 blocks of 512 iterations)
SILICON_ITERATIONS = {1: 1 << 18, 2: 1 << 17, 3: 170 * 512, 4: 1 << 16, 8: 1 << 15, 16: 1 << 14}


def key(d):
    return (d.get("wake", "none"), d.get("period", 0), d["ctas_per_sm"], d["threads"], d["chains"])


def label(k):
    wake, period, ctas, threads, chains = k
    return f"{wake} {period}, {ctas} x {threads}, {chains} ch"


def read_record(directory):
    """Run -> configuration -> line, from issue_wake.jsonl (device_issue_wake.sh) and, where the directory has them,
    issue_lds.jsonl (device_issue_wake.sh --shared: the `lds` configurations) and issue_rate.jsonl (--rate: 3 chains)."""
    path = os.path.join(directory, "issue_wake.jsonl")
    if not os.path.isfile(path):
        raise ValueError(f"{directory}: no issue_wake.jsonl (validate/scripts/device_issue_wake.sh writes it)")
    runs = {}
    for p in (path, os.path.join(directory, "issue_lds.jsonl"), os.path.join(directory, "issue_rate.jsonl")):
        if not os.path.isfile(p):
            continue
        with open(p) as f:
            for n, line in enumerate(f, 1):
                try:
                    d = json.loads(line)
                    runs.setdefault(d["run"], {})[key(d)] = d
                except (ValueError, KeyError) as e:
                    raise ValueError(f"{p}:{n}: not a gms-issue-ubench line ({e})")
    if 1 not in runs:
        raise ValueError(f"{path}: no run 1")
    return runs


def barrier_costs(spans):
    """Per lone-CTA layout: cycles a barrier adds, from the barrier-every-P span less the span without
    (`spans`: configuration -> span in cycles, at the silicon loop's iterations)."""
    out = []
    for (wake, period, ctas, threads, chains), span in sorted(spans.items()):
        # the loop in the same blocks without the barrier where it was measured (--rate: period 64), else in blocks of 512
        none = spans.get(("none", period, 1, threads, chains), spans.get(("none", 512, 1, threads, chains)))
        if wake == "barrier" and ctas == 1 and none is not None:
            out.append((threads, period, (span - none) / (SILICON_ITERATIONS[chains] // period)))
    return out


def lds_lines(chains, iterations):
    """The `lds` loop as sm_90 compiled it: per iteration an IADD3 and a LOP3 for the address, the LDS, and the
    FFMAs adding the value loaded three iterations before (the compiler's software pipelining); a compare and
    branch every 8 iterations (its unrolling)."""
    lines = ["ffffffff 0 BAR.SYNC 0 0 0"]
    for i in range(iterations):
        lines += ["ffffffff 1 R30 IADD3 1 R6 0 0", "ffffffff 1 R31 LOP3.LUT 1 R30 0 0",
                  f"ffffffff 1 R{40 + i % 8} LDS 1 R31 4 1 0x{SHARED_BASE + (i * 128) % 4096:x} 4 0"]
        if i >= 3:
            lines += [f"ffffffff 1 R{10 + j} FFMA 2 R{10 + j} R{40 + (i - 3) % 8} 0 0" for j in range(chains)]
        if i % 8 == 7:
            lines += ["ffffffff 0 ISETP.NE.AND 1 R19 0 0", "ffffffff 0 BRA 0 0 0"]
    lines.append("ffffffff 0 EXIT 0 0 0")
    return [f"{16 * n:04x} {s}" for n, s in enumerate(lines)]


def trace_lines(wake, period, chains, iterations):
    """One warp's instructions, as sm_90 compiled the ubench's loop (its SASS, shortened to what issues), each at its
    address in the loop's code: the unrolled 16 iterations' back-edge BRA is taken but on a block's last pass, the
    block's BRA after its event jumps back to the block's head (a taken branch costs its warp the ISA table's
    `taken`); the end of the last block falls through to the EXIT."""
    if wake == "lds":
        return lds_lines(chains, iterations)
    head = ["ffffffff 1 R4 LDC 0 0 0", "ffffffff 0 ISETP.GE.AND 1 R4 0 0", "ffffffff 0 BRA 0 0 0"]
    body = ["ffffffff 1 R5 HFMA2.MMA 0 0 0", "ffffffff 1 R8 IADD3 1 R8 0 0", "ffffffff 0 ISETP.GT.AND 1 R8 0 0"]
    body += [f"ffffffff 1 R{10 + j} FFMA 2 R{10 + j} R5 0 0" for j in range(chains)] * 16
    body.append("ffffffff 0 BRA 0 0 0")
    event = {"barrier": ["ffffffff 0 BAR.SYNC 0 0 0"],
             "load": ["ffffffff 1 R40 LDG.E.CG 1 R10 4 1 0x7f0000000000 4 0", "ffffffff 1 R10 FFMA 2 R40 R10 0 0"]}.get(wake, [])
    event.append("ffffffff 0 BRA 0 0 0")  # back to the block's head
    at_head, at_body = 1, 1 + len(head)
    at_event = at_body + len(body)
    lines = [(0, "ffffffff 0 BAR.SYNC 0 0 0")]
    blocks = iterations // period
    for block in range(blocks):
        lines += [(at_head + n, s) for n, s in enumerate(head)]
        for _ in range(period // 16):
            lines += [(at_body + n, s) for n, s in enumerate(body)]
        last = block == blocks - 1
        lines += [(at_event + n, s) for n, s in enumerate(event[:-1] if last else event)]
    lines.append((at_event + len(event), "ffffffff 0 EXIT 0 0 0"))
    return [f"{16 * n:04x} {s}" for n, s in lines]


def write_trace(directory, k, scale):
    wake, period, ctas, threads, chains = k
    iterations = max(period, SILICON_ITERATIONS[chains] // scale // period * period)
    write_uniform_trace(directory, "issue_wake", ctas, threads, "\n".join(trace_lines(wake, period, chains, iterations)))
    return iterations


def model_ends(binary, gpu, sets, k, scale, work):
    """The model's end fractions by age and its span scaled to the silicon loop's iterations."""
    name = "_".join(str(x) for x in k)
    trace = os.path.join(work, name)
    iterations = write_trace(trace, k, scale)
    one_sm = [*ONE_SM_SETS, *sets]
    try:
        out = run_trace(binary, gpu, os.path.join(trace, "kernelslist.g"), work, one_sm, name + "-out")
    except subprocess.CalledProcessError as e:
        raise ValueError(f"{' '.join(e.cmd)}: {e.stderr.strip()}")
    with open(os.path.join(out, "ctas.csv")) as f:
        rows = list(csv.DictReader(f))
    starts = [float(r["start_cycle"]) for r in rows]
    ends = [float(r["end_cycle"]) for r in rows]  # launch order: the oldest first
    lo, hi = min(starts), max(ends)
    return [(e - lo) / (hi - lo) for e in ends], (hi - lo) * SILICON_ITERATIONS[k[4]] / iterations


def check(runs):
    first, problems = runs[1], []
    for r, other in runs.items():
        for k, d in other.items():
            if k in UNSTABLE or k not in first:
                continue
            diff = max(abs(a - b) for a, b in zip(d["end_fraction_by_age"], first[k]["end_fraction_by_age"]))
            if diff > AGREE:
                problems.append(f"{label(k)}: run {r} differs from run 1 by {diff:.3f}")
    for k, d in first.items():
        wake, period, ctas, threads, chains = k
        if ctas < 2 or chains != 2 or wake == "none" or period < 512:  # a load every 64: no longer port-bound
            continue
        ends = d["end_fraction_by_age"]
        if ends[-1] < max(ends) or max(ends[: ctas // 2]) > 0.7:
            problems.append(f"{label(k)}: ends {ends} - the age order did not survive the wait")
    costs = barrier_costs({k: d["span_cycles"] for k, d in first.items()})
    if not costs:
        problems.append("no lone-CTA barrier configurations")
    for threads, period, c in costs:
        if not 20 <= c <= 100 and period >= 512:
            problems.append(f"a lone {threads}-thread CTA's barrier (every {period}) costs {c:.0f} cycles")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("silicon")
    ap.add_argument("--model", help="a gpumemsim binary: replay every configuration")
    ap.add_argument("--gpu", default="configs/gpus/h200.yaml")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    ap.add_argument("--only", action="append", default=[], help="WAKE or WAKE:PERIOD (repeatable)")
    ap.add_argument("--scale", type=int, default=16)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        runs = read_record(a.silicon)
        if a.scale < 1:
            raise ValueError("--scale must be at least 1")
        first = runs[1]
        wanted = [o.split(":") for o in a.only]
        model_spans = {}
        print("| configuration | silicon: ends by age (run 1) | runs differ | span (k cycles) |"
              + (" model: ends | model span |" if a.model else ""))
        print("|---|---|---|---|" + ("---|---|" if a.model else ""))
        with tempfile.TemporaryDirectory() as work:
            for k in sorted(first, key=lambda k: (k[2] * k[3], k[4], k[0], k[1])):
                if wanted and not any(w[0] == k[0] and (len(w) == 1 or int(w[1]) == k[1]) for w in wanted):
                    continue
                d = first[k]
                diff = max((max(abs(x - y) for x, y in zip(o[k]["end_fraction_by_age"], d["end_fraction_by_age"]))
                            for o in runs.values() if k in o), default=0)
                row = (f"| {label(k)} | {' '.join(f'{e:.3f}' for e in d['end_fraction_by_age'])} | {diff:.3f} | "
                       f"{d['span_cycles'] / 1000:.0f} |")
                if a.model:
                    ends, span = model_ends(a.model, a.gpu, a.sets, k, a.scale, work)
                    model_spans[k] = span
                    row += f" {' '.join(f'{e:.3f}' for e in ends)} | {span / 1000:.0f} |"
                print(row)
        model_costs = {(t, p): c for t, p, c in barrier_costs(model_spans)}
        for threads, period, c in barrier_costs({k: d["span_cycles"] for k, d in first.items()}):
            m = model_costs.get((threads, period))
            print(f"a lone {threads}-thread CTA, a barrier every {period} iterations: {c:.0f} cycles each"
                  + (f" (model {m:.0f})" if m is not None else ""))
    except (ValueError, OSError) as e:
        print(f"issue_wake.py: {e}", file=sys.stderr)
        return 2
    if a.check:
        report(check(runs), True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

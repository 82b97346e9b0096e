#!/usr/bin/env python3
"""Reads gms-issue-trace-ubench's record (validate/scripts/device_issue_trace.sh): every warp's clock after each
segment of ~16 FFMAs (+ a clock read and a LOP3: 18 instructions), one to four warps a sub-partition from one CTA or
from two to four. Per case and sub-partition the warps are ranked by their CTA's age (its warps' first start, then the
CTA's index) and their own start; the table gives, per CTA rank, the median over SMs and sub-partitions of its warps'
cycles a segment in their steady run (the share of the port: 18 / cycles) and of their ends as
a fraction of the sub-partition's span.

  validate/scripts/issue_trace.py validate/results/h200/issue_trace [--check]
      [--model build/gpumemsim [--gpu configs/gpus/h200.yaml] [--set KEY=VALUE]...]

--check holds what the record says (docs/co-resident-ctas.md, "Who issues when several warps want the port"): the warps
of one CTA share a sub-partition's port evenly, two to four of them; warps of two CTAs, one of each, share it evenly; of
four CTAs' warps three share it evenly and the youngest waits for them; of two CTAs with two warps each, the older's
warps take a third of the port each. On a --waits record (every segment waiting on a shared or global load): every
CTA's warps run alike - a warp that waits longer than a short stall gives its place away. --model replays each case as an Accel-Sim trace on one SM (the segments' FFMAs,
clock reads and LOP3s with their registers) and prints the model's ends by the same ranks beside silicon's.
"""
import argparse
import csv
import json
import lzma
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accelsim_trace import ONE_SM_SETS, SHARED_BASE, add_replay_args, run_trace, write_uniform_trace  # noqa: E402

SEGMENT = 18  # instructions a segment of 16 or 8 chains: its FFMAs, the clock read and the LOP3 that pins it


def load(folder):
    path = Path(folder) / "issue_trace_run.jsonl"
    text = lzma.open(str(path) + ".xz", "rt").read() if not path.exists() else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def sub_partitions(case):
    """Per SM and sub-partition (the warp slot mod 4): its warps as (cta rank, start, [segment ends]), of the second pass."""
    for sm in case["sms"]:
        first = {}
        for w in sm["warps"]:
            first[w["cta"]] = min(first.get(w["cta"], w["start"]), w["start"])
        rank = {c: r for r, c in enumerate(sorted(first, key=lambda c: (first[c], c)))}
        for sp in range(4):
            ws = [(rank[w["cta"]], w["start"], w["stamps"]) for w in sm["warps"] if w["slot"] % 4 == sp]
            if ws:
                yield sorted(ws, key=lambda x: (x[0], x[1]))


def shares(case):
    """Per CTA rank: the median over its warps of their middle segments' cycles (the 8th to the 8th-last: the share of
    the port a warp holds in its steady run), and the median end of its warps as a fraction of the sub-partition's
    span."""
    seg, end = {}, {}
    for ws in sub_partitions(case):
        lo, hi = min(w[1] for w in ws), max(w[2][-1] for w in ws)
        for r, start, stamps in ws:
            marks = [start] + stamps
            seg.setdefault(r, []).append(statistics.median([b - a for a, b in zip(marks[8:-8], marks[9:-8])]))
            end.setdefault(r, []).append((stamps[-1] - lo) / (hi - lo))
    return {r: (statistics.median(seg[r]), statistics.median(end[r])) for r in sorted(end)}


def ends_by_rank(sps):
    """`sps`: per sub-partition its warps as (cta rank, start, end). Per CTA rank the medians over the sub-partitions of
    its first and last warp's end, as fractions of the sub-partition's span."""
    first, last = {}, {}
    for ws in sps:
        lo, hi = min(w[1] for w in ws), max(w[2] for w in ws)
        for r in {w[0] for w in ws}:
            mine = [(w[2] - lo) / (hi - lo) for w in ws if w[0] == r]
            first.setdefault(r, []).append(min(mine))
            last.setdefault(r, []).append(max(mine))
    def shown(lo, hi):  # one end where the CTA's warps end together
        return f"{lo:.2f}-{hi:.2f}" if hi - lo >= 0.015 else f"{hi:.2f}"
    return " / ".join(shown(statistics.median(first[r]), statistics.median(last[r])) for r in sorted(first))


def label(case):
    per_sub = case["ctas_per_sm"] * case["threads"] // 128
    wait = f", {case['wait']} waits" if case.get("wait", "none") != "none" else ""
    return f"{case['chains']:2d} chains{wait}, {case['ctas_per_sm']} x {case['threads']:3d} ({per_sub} a sub-partition)"


def table(cases):
    print("case                                         per CTA rank: cycles a segment, steady (port share), end")
    rows = {}
    for c in cases:
        s = shares(c)
        rows[(c.get("wait", "none"), c["chains"], c["ctas_per_sm"], c["threads"])] = s
        # the port share where a segment is its FFMAs, the clock read and the LOP3 (a --waits loop's SASS holds more)
        inst = c["ffma_per_segment"] + 2 if c.get("wait", "none") == "none" else None
        cells = [f"{seg:5.1f} ({inst / seg:.2f}), {e:.3f}" if inst else f"{seg:5.1f}, {e:.3f}" for seg, e in s.values()]
        print(f"{label(c):44s} " + " | ".join(cells))
    return rows


def failures(rows):
    """What the record says (the module's docstring); a --waits record's cases instead: every CTA's warps alike."""
    out = []
    waits = {k: v for k, v in rows.items() if k[0] != "none"}
    for (wait, chains, ctas, threads), s in waits.items():
        segs = [v[0] for v in s.values()]
        if max(segs) > 1.1 * min(segs):
            out.append(f"{chains} chains, {wait} waits, {ctas} x {threads}: {[round(x) for x in segs]} cycles a segment "
                       "by CTA age (every warp alike within 10 %: a warp that waits gives its place away)")
    if waits:
        return out
    rows = {k[1:]: v for k, v in rows.items()}

    def shown(s):  # per CTA rank: cycles a segment / end
        return ", ".join(f"{seg:.0f} / {end:.3f}" for seg, end in s.values())

    def near(x, y, tol):
        return x is not None and y is not None and abs(x / y - 1) <= tol

    for chains in (16, 8):
        for threads, k in ((256, 2), (384, 3), (512, 4)):
            s = rows.get((chains, 1, threads))
            if not s:
                out.append(f"{chains} chains, 1 x {threads}: missing")
                continue
            seg, end = s[0]
            if not (k * SEGMENT <= seg <= k * SEGMENT * 1.15):
                out.append(f"{chains} chains, one CTA, {k} warps a sub-partition: {seg:.1f} cycles a segment "
                           f"(the port shared evenly: {k * SEGMENT} - {k * SEGMENT * 1.15:.0f})")
        s = rows.get((chains, 2, 128), {})
        if len(s) != 2 or not near(s[0][1], s[1][1], 0.03):
            out.append(f"{chains} chains, 2 x 128: {shown(s)} (ending together within 3 %)")
        s = rows.get((chains, 4, 128), {})
        if len(s) != 4 or not all(near(s[r][0], 3 * SEGMENT * 1.05, 0.1) for r in (0, 1, 2)) or s[3][1] < 0.99 \
                or max(s[r][1] for r in (0, 1, 2)) > 0.6:
            out.append(f"{chains} chains, 4 x 128: {shown(s)} (three oldest CTAs share the port evenly, ~{3 * SEGMENT} "
                       "cycles a segment, and end by 0.6 of the span; the youngest ends last)")
        s = rows.get((chains, 2, 256), {})
        if len(s) != 2 or not near(s[0][0], 3 * SEGMENT * 1.05, 0.1) or s[0][1] > 0.65:
            out.append(f"{chains} chains, 2 x 256: {shown(s)} (the older CTA's two warps a third of the port each, "
                       f"~{3 * SEGMENT} cycles a segment, the CTA ending by 0.65 of the span)")
    return out


def segment_lines(chains, segments, wait="none"):
    """One warp's two passes as a trace: each ~16 FFMAs a segment over the chains with the addend the LOP3 before them
    wrote, then the clock read and the LOP3 of the read two segments back - or, on a --waits case, the clock read, a
    shared or global load whose address it gives, and the LOP3 that waits on the load; a barrier between the passes, as
    the microbenchmark's. Returns the trace lines and the instructions of a pass."""
    rounds = 1 if chains >= 16 else 16 // chains
    load = {"shared": f"LDS 1 R{{r}} 4 1 0x{SHARED_BASE:x} 4 0", "global": "LDG.E.CG 1 R{r} 4 1 0x7f0000000000 4 0"}
    one = []
    for s in range(segments):
        one += [f"ffffffff 1 R{10 + i % chains} FFMA 3 R{10 + i % chains} R5 R6 0 0" for i in range(rounds * chains)]
        one.append(f"ffffffff 1 R{40 + s % 3} CS2R 0 0 0")
        if wait == "none":
            one.append(f"ffffffff 1 R6 LOP3 2 R7 R{40 + (s + 1) % 3} 0 0")
        else:
            one += [f"ffffffff 1 R44 {load[wait].format(r=40 + s % 3)}", "ffffffff 1 R6 LOP3 2 R7 R44 0 0"]
    texts = one + ["ffffffff 0 BAR 0 0 0"] + one + ["ffffffff 0 EXIT 0 0 0"]
    return "\n".join(f"{16 * n:04x} {t}" for n, t in enumerate(texts)), len(one)


def model(cases, a):
    print(f"\nthe model ({Path(a.gpu).name}{''.join(' --set ' + kv for kv in a.set)}): per CTA by age, where its first and "
          "last warp end (a fraction of their sub-partition's span; medians over the sub-partitions), and its warps' "
          "cycles a segment in their steady run, silicon's first:")
    with tempfile.TemporaryDirectory() as work:
        for c in cases:
            ctas = c["ctas_per_sm"]
            name = f"trace_{c.get('wait', 'none')}_{c['chains']}_{ctas}_{c['threads']}"
            body, per_pass = segment_lines(c["chains"], c["segments"], c.get("wait", "none"))
            kernelslist = write_uniform_trace(Path(work) / name, name, ctas, c["threads"], body)
            try:
                out = run_trace(a.model, a.gpu, kernelslist, work, [*ONE_SM_SETS, *a.set], name + "-out",
                                ["--warp-timeline", "0"])
            except subprocess.CalledProcessError as e:
                return [f"{name}: {e.stderr.strip()}"]
            issues = {}
            with open(Path(out) / "warps.csv") as f:
                for r in csv.DictReader(f):
                    if r["state"] == "selected":
                        issues.setdefault((int(r["launch_index"]), int(r["warp_slot"])), []).append(float(r["start_cycle"]))
            # As the microbenchmark's stamps: each warp's second pass, from its first instruction after the barrier
            second = {key: sorted(t)[per_pass + 1:2 * per_pass + 1] for key, t in issues.items()}
            model_sps = [[(cta, t[0], t[-1]) for (cta, slot), t in second.items() if slot % 4 == sp] for sp in range(4)]
            silicon_sps = [[(r, start, stamps[-1]) for r, start, stamps in ws] for ws in sub_partitions(c)]
            steady = {}  # per CTA: its warps' cycles a segment over the middle half of their second pass
            for (cta, _), t in second.items():
                q1, q3 = len(t) // 4, 3 * len(t) // 4
                steady.setdefault(cta, []).append((t[q3] - t[q1]) / (q3 - q1) * per_pass / c["segments"])
            silicon_seg = " / ".join(f"{v[0]:.0f}" for v in shares(c).values())
            model_seg = " / ".join(f"{statistics.median(v):.0f}" for _, v in sorted(steady.items()))
            print(f"  {label(c):44s} silicon {ends_by_rank(silicon_sps):26s} model {ends_by_rank(model_sps):26s} "
                  f"cycles a segment: silicon {silicon_seg:18s} model {model_seg}")
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    add_replay_args(ap)
    a = ap.parse_args()
    cases = load(a.folder)
    rows = table(cases)
    bad = model(cases, a) if a.model else []
    if a.check:
        bad += failures(rows)
    for f in bad:
        print("FAIL:", f)
    print(f"{len(bad)} failure(s)" if a.check or a.model else "")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

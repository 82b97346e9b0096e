#!/usr/bin/env python3
"""The WMMA GEMM's K step with one CTA per SM and with two (device_cta_occupancy.sh and
device_cta_occupancy_ncu.sh; validate/results/h100/cta_occupancy): the time a K step takes one warp per
sub-partition alone, what the other CTA's warps beside it add, and where Nsight counts the difference.

  cta_occupancy.py DIR [--pad 8|0|16] [--check] [--model-two CASE=RUN_DIR] [--model-one CASE=RUN_DIR]
                   [--model-within ALONE_PCT,SHARED_PCT]

Prints, per case, the median per-K-step time of the stamped CTAs with two and with one CTA per SM and
their ratio; then the warp states per issued instruction of the 8192^3 grouped-8 launch in both
modes (cta_occupancy_ncu.csv) and, per instruction kind, the main loop's stall samples that the
second CTA adds (cta_occupancy_source.csv.xz). --model-two / --model-one add a row for a `gpumemsim run
--record .../CASE.json -o RUN_DIR` replay (with --set gpu.sm.max_ctas=1 for one). --pad 0 / 16 reads
device_cta_occupancy_pads.sh's files for that pad (cta_occupancy_pad<P>*) instead of pad 8's.
--model-within A,S: exit 1 unless every model case given both ways has its K step alone within A % and shared
within S % of silicon's (CI holds the model's 8192^3 grouped-8 replay so: tests/validate_checks_sm.cmake).

--check (pad 8's data): exit 1 unless the driver placed the CTAs per SM asked for, every case's K step takes 1.3-1.6x
as long shared as alone, and the second CTA brings dispatch stalls (under 0.1 per issued instruction
alone, over 0.25 shared) - what the H100's data of 2026-11-27 show (docs/calibration.md)."""
import argparse
import csv
import json
import lzma
import os
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cta_phases import case_stats, k_steps  # noqa: E402
from cta_stamps import model_stamps, stamp_runs  # noqa: E402

STALLS = ("wait", "dispatch_stall", "not_selected", "short_scoreboard", "long_scoreboard", "math_pipe_throttle",
          "barrier", "branch_resolving", "no_instruction", "mio_throttle")


def read_modes(directory, stem):
    """{'two': (cases, placed), 'one': ...}: stamp runs per case and the CTAs per SM the driver placed."""
    tar = os.path.join(directory, stem + ".tar.gz")
    if not os.path.isfile(tar):
        sys.exit(f"cta_occupancy: no {stem}.tar.gz in {directory}")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(tar) as t:
            if hasattr(tarfile, "data_filter"):  # Python 3.12 and the 3.11 backports
                t.extractall(tmp, filter="data")
            else:
                t.extractall(tmp)
        for mode in ("two", "one"):
            sub = os.path.join(tmp, mode)
            with open(os.path.join(sub, "cta_times.jsonl")) as f:
                placed = {j["case"]: j["ctas_per_sm"] for j in map(json.loads, f)}
            out[mode] = (stamp_runs(sub), placed)
    return out


def ncu_states(directory, stem):
    """Warp states per issued instruction of the two launches (two CTAs per SM first)."""
    with open(os.path.join(directory, stem + "_ncu.csv")) as f:
        rows = list(csv.reader(f))
    head, launches = rows[0], rows[2:]
    if len(launches) != 2:
        sys.exit(f"cta_occupancy: {len(launches)} launches in cta_occupancy_ncu.csv, expected two")
    col = {k: i for i, k in enumerate(head)}
    out = []
    for r in launches:
        num = lambda k: float(r[col[k]].replace(",", "")) if k in col and r[col[k]] else 0.0
        out.append({s: num(f"smsp__average_warps_issue_stalled_{s}_per_issue_active.ratio") for s in STALLS})
    return out


def added_by_kind(directory, stem):
    """{stall: [(instruction kind, samples per issued instruction shared, alone)]}: the loop's samples."""
    with lzma.open(os.path.join(directory, stem + "_source.csv.xz"), "rt") as f:
        rows = list(csv.reader(f))
    starts = [i for i, r in enumerate(rows) if r and r[0] == "Kernel Name"] + [len(rows)]
    modes = []
    for b in range(len(starts) - 1):
        head = rows[starts[b] + 1]
        data = [r for r in rows[starts[b] + 2:starts[b + 1]] if len(r) == len(head)]
        col = {h: i for i, h in enumerate(head)}
        executed = lambda r: int(r[col["Instructions Executed"]] or 0)
        most = max(map(executed, data))
        loop = [r for r in data if executed(r) >= most / 2]  # the main loop: executed once per K step
        issued = sum(int(r[col["stall_selected"]] or 0) for r in loop)
        modes.append((col, loop, issued))
    if len(modes) != 2:
        sys.exit(f"cta_occupancy: {len(modes)} kernel sections in cta_occupancy_source.csv.xz, expected two")

    def kind(r):
        words = r[1].split()
        return (words[1] if words[0].startswith("@") else words[0]).split(".")[0]
    out = {}
    for stall in ("stall_dispatch", "stall_wait", "stall_not_selected", "stall_long_sb", "stall_math"):
        per = {}
        for m, (col, loop, issued) in enumerate(modes):
            for r in loop:
                per.setdefault(kind(r), [0.0, 0.0])[m] += int(r[col[stall]] or 0) / issued
        out[stall[6:]] = sorted(((k, v[0], v[1]) for k, v in per.items()), key=lambda x: x[2] - x[1])
    return out


def check_model(step, alone_pct, shared_pct):
    """Exit 1 unless every model case run both ways is within the given % of silicon's K step (alone, shared)."""
    bad, checked = [], 0
    for case in [c for c in step["two"] if c.endswith(" (model)") and c in step["one"]]:
        silicon = case[: -len(" (model)")]
        if silicon not in step["two"] or silicon not in step["one"]:
            sys.exit(f"cta_occupancy: no silicon stamps for {silicon}")
        for mode, pct in (("one", alone_pct), ("two", shared_pct)):
            err = 100.0 * (step[mode][case] / step[mode][silicon] - 1.0)
            checked += 1
            if abs(err) > pct:
                bad.append(f"{case} {'alone' if mode == 'one' else 'shared'} {err:+.1f} % (within {pct:g} % asked)")
    if not checked:
        sys.exit("cta_occupancy: --model-within needs a case given with both --model-two and --model-one")
    if bad:
        sys.exit("cta_occupancy: " + "; ".join(bad))
    print(f"\nmodel check: {checked // 2} case(s) within {alone_pct:g} % alone and {shared_pct:g} % shared of silicon's K step")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--pad", type=int, choices=(8, 0, 16), default=8)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--model-two", action="append", default=[], metavar="CASE=RUN_DIR")
    ap.add_argument("--model-one", action="append", default=[], metavar="CASE=RUN_DIR")
    ap.add_argument("--model-within", metavar="ALONE_PCT,SHARED_PCT")
    a = ap.parse_args()
    if a.check and a.pad != 8:
        ap.error("--check holds pad 8's data (the other pads share differently: docs/sm-sharing.md)")
    stem = "cta_occupancy" if a.pad == 8 else f"cta_occupancy_pad{a.pad}"
    modes = read_modes(a.dir, stem)
    problems = []
    for mode, want in (("two", 2), ("one", 1)):
        wrong = [c for c, n in modes[mode][1].items() if n != want]
        if wrong:
            problems.append(f"{mode}: the driver placed other than {want} CTA(s) per SM for " + ", ".join(wrong))
    step = {mode: {c: case_stats(runs, k_steps(c))["per_step"] for c, runs in modes[mode][0].items()} for mode in modes}
    for mode, specs in (("two", a.model_two), ("one", a.model_one)):
        for spec in specs:
            case, _, run_dir = spec.partition("=")
            try:
                step[mode][f"{case} (model)"] = case_stats([model_stamps(run_dir)], k_steps(case))["per_step"]
            except ValueError as e:
                sys.exit(f"cta_occupancy: {e}")
    print("| case | per K step, two CTAs per SM (us) | one CTA per SM (us) | ratio |")
    print("|---|---|---|---|")
    for case in step["two"]:
        two, one = step["two"][case], step["one"].get(case, float("nan"))
        print(f"| {case} | {two:.3f} | {one:.3f} | {two / one:.2f} |")
        if "(model)" not in case and not 1.3 <= two / one <= 1.6:
            problems.append(f"{case}: K step {two / one:.2f}x as long shared as alone (1.3-1.6 expected)")
    if a.model_within:
        check_model(step, *(float(x) for x in a.model_within.split(",")))
    shared, alone = ncu_states(a.dir, stem)
    print(f"\n8192^3 grouped-8 (pad {a.pad}), warp states per issued instruction (Nsight):\n")
    print("| state | two CTAs per SM | one | the second CTA adds |")
    print("|---|---|---|---|")
    for s in STALLS:
        print(f"| `{s}` | {shared[s]:.3f} | {alone[s]:.3f} | {shared[s] - alone[s]:+.3f} |")
    print(f"| all | {sum(shared[s] for s in STALLS) + 1:.2f} | {sum(alone[s] for s in STALLS) + 1:.2f} | "
          f"{sum(shared[s] - alone[s] for s in STALLS):+.2f} |")
    if not (alone["dispatch_stall"] < 0.1 and shared["dispatch_stall"] > 0.25):
        problems.append(f"dispatch stalls per instruction {alone['dispatch_stall']:.3f} alone, "
                        f"{shared['dispatch_stall']:.3f} shared (under 0.1 and over 0.25 expected)")
    print("\nThe main loop's samples per issued instruction, two CTAs per SM -> one, by instruction kind (the five "
          "largest changes):\n")
    for stall, kinds in added_by_kind(a.dir, stem).items():
        top = sorted(kinds, key=lambda k: -abs(k[1] - k[2]))[:5]
        print(f"* `{stall}`: " + ", ".join(f"{k} {s:.3f} -> {o:.3f}" for k, s, o in top))
    if a.check:
        if problems:
            sys.exit("cta_occupancy: " + "; ".join(problems))
        silicon = [c for c in step["two"] if "(model)" not in c]
        print(f"\ncheck: {len(silicon)} cases 1.3-1.6x slower per K step shared than alone, dispatch stalls "
              "only beside a second CTA")


if __name__ == "__main__":
    main()

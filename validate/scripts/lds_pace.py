#!/usr/bin/env python3
"""The pace at which the SM's shared-memory data path serves one warp's independent loads, alone and beside other warps
(gms-lds-pace-ubench, validate/scripts/device_lds_pace.sh).

    lds_pace.py validate/results/h200/lds_pace [--check] [--model GPUMEMSIM [--gpu PRESET] [--set KEY=VALUE ...]]

Printed per kind (LDS.32 with 1-32 ways of bank conflict, conflict-free LDS.64 / LDS.128, LDS.128 at a 32-byte stride,
ldmatrix.x4) and layout of the flooding warps (w0 alone; w0,w4 on one sub-partition; w0,w1 on two; one or two on each
of four): a warp's cycles per load and the SM's cycles per wavefront (a warp's over the warps, over the wavefronts ncu
counts per instruction). A kind whose ncu instruction count falls short of what the kernel issues (ptxas merged loads
of equal addresses: ldmatrix has no volatile form) is marked and left out of the check.
--model: the same floods as an Accel-Sim trace on one SM of the preset (one CTA of 8 warps; each flooding warp 17 rounds
of independent loads of the kind at the kernel's addresses); per kind and layout the model's cycles a load a warp (from
its fifth round's first load to its last load's data back, warps.csv) beside silicon's, and the mean |model - silicon| /
silicon over the table.
--check: exit 1 unless ncu counts the wavefronts each kind claims, a lone warp's loads of 4 or more wavefronts take at
least 1.9 cycles a wavefront (half the path's rate: sm.shared_replay_cycles), its conflict-free vectors of 128 bytes a
wavefront (LDS.64, LDS.128, ldmatrix.x4) at least 2.8 (the data's ~40 bytes a cycle for one warp), and four or more
warps bring the SM within 1.15 cycles a wavefront (the path's one a cycle)."""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import ONE_SM_SETS, SHARED_BASE, add_replay_args, issue_times, run_trace, write_warps_trace  # noqa: E402
from jsonl_rows import read_jsonl  # noqa: E402

LAYOUTS = ("w0", "w0,w4", "w0,w1", "w0..w3", "w0..w7")
FULL_WAVEFRONT_VECTORS = ("lds64", "lds128", "ldsm_x4")  # conflict-free: 128 bytes of data a wavefront
LOADS_PER_ROUND = {"lds32": 64, "lds64": 32, "lds128": 16, "lds128_2way": 16, "ldsm_x4": 16, "ldsm_x4_2way": 16}


def ncu_counts(path):
    """Per kind, in the order measured: (instructions, wavefronts per instruction) from the --ncu-once launches."""
    per_id = {}
    with open(path) as f:
        for r in csv.reader(f):
            if len(r) == 15 and r[0] != "ID":
                per_id.setdefault(int(r[0]), {})[r[12]] = float(r[14].replace(",", ""))
    out = []
    for _, m in sorted(per_id.items()):
        ins = m["smsp__sass_inst_executed_op_shared_ld.sum"] + m["smsp__sass_inst_executed_op_ldsm.sum"]
        out.append((ins, m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] / ins if ins else 0.0))
    return out


def loads_per_round(kind):
    """Loads a flooding warp issues a round (every LDS.32 kind alike)."""
    return LOADS_PER_ROUND["lds32" if kind.startswith("lds32") else kind]


LAYOUT_WARPS = {"w0": (0,), "w0,w4": (0, 4), "w0,w1": (0, 1), "w0..w3": (0, 1, 2, 3), "w0..w7": tuple(range(8))}
MODEL_ROUNDS, MODEL_TIMED_FROM = 17, 5  # the kernel's at least 17 rounds, timed over the last three quarters


def load_line(kind, i, dst):
    """Load i of a round as a trace line (no PC): the kernel's addresses (lds_pace_ubench.cu's load())."""
    if kind.startswith("lds32"):
        w = int(kind.split("_w")[1])
        lanes = " ".join(f"0x{SHARED_BASE + 4 * ((l % w) * 32 + l // w + (i * 5) % 32):x}" for l in range(32))
        return f"ffffffff 1 R{dst} LDS 1 R0 4 0 {lanes} 0"
    if kind == "lds64":
        return f"ffffffff 1 R{dst} LDS.64 1 R0 8 1 0x{SHARED_BASE + 4 * (i % 8) * 64:x} 8 0"
    # LDS.128 / ldmatrix.x4: contiguous 16-byte lanes, or at a 32-byte stride (the _2way kinds).
    op = "LDS.128" if kind.startswith("lds128") else "LDSM.16.M88.4"
    base, stride = ((i % 8) * 128 * 4, 16) if kind in ("lds128", "ldsm_x4") else ((i % 4) * 16, 32)
    return f"ffffffff 1 R{dst} {op} 1 R0 16 1 0x{SHARED_BASE + base:x} {stride} 0"


def flood_warp(kind):
    """MODEL_ROUNDS rounds of the kind's independent loads, then one add reading the last load's register: its issue is
    when the warp's data is all back (a shared load's data comes back in the warp's order). The kernel's per-round folds
    are left out: the trace names no scoreboard barriers, and the replay's would tie a round's folds to the next
    round's loads (they share slots), which SASS does not."""
    n = loads_per_round(kind)
    body = [load_line(kind, i, 20 + i) for _ in range(MODEL_ROUNDS) for i in range(n)]
    return body + [f"ffffffff 1 R2 IADD3 2 R2 R{20 + n - 1} 0 0", "ffffffff 0 EXIT 0 0 0"]


def model_pace(binary, gpu, kind, layout, work, sets):
    """The model's cycles a load a warp, the median over the flooding warps (silicon's statistic): from its round
    MODEL_TIMED_FROM's first load to its last load's data back."""
    n = loads_per_round(kind)
    flooders = LAYOUT_WARPS[layout]
    warps = [flood_warp(kind) if w in flooders else ["ffffffff 0 EXIT 0 0 0"] for w in range(8)]
    name = f"{kind}-{layout.replace(',', '_').replace('..', '_')}"
    kl = write_warps_trace(os.path.join(work, name), "lds_pace", lambda _: warps, 1, 8)
    out = run_trace(binary, gpu, kl, work, [*ONE_SM_SETS, *sets], name + "-out", ["--warp-timeline", "0"])
    paces = [(t[-2] - t[MODEL_TIMED_FROM * n]) / ((MODEL_ROUNDS - MODEL_TIMED_FROM) * n)
             for t in issue_times(out, flooders).values()]
    return statistics.median(paces)


def print_model(a, kinds, counts, by, sms):
    """The model's cycles a load a warp beside silicon's, per kind and layout (kinds whose ncu count fell short: left out)."""
    print()
    print("| kind | " + " | ".join(f"{l}: silicon / model" for l in LAYOUTS) + " |")
    print("|---" * (1 + len(LAYOUTS)) + "|")
    errors = []
    with tempfile.TemporaryDirectory(prefix="lds_pace.") as work:
        for k, (ins, _) in zip(kinds, counts):
            if ins != loads_per_round(k) * sms:
                continue
            cells = []
            for l in LAYOUTS:
                si = by[(k, l)]["warp_cycles_per_load"]
                try:
                    mo = model_pace(a.model, a.gpu, k, l, work, a.set)
                except subprocess.CalledProcessError as e:
                    sys.exit(f"lds_pace.py: {' '.join(e.cmd)}: {e.stderr.strip()}")
                errors.append(abs(mo / si - 1))
                cells.append(f"{si:.2f} / {mo:.2f}")
            print(f"| {k} | " + " | ".join(cells) + " |")
    print(f"model: mean |model - silicon| / silicon {100 * statistics.mean(errors):.1f} % over {len(errors)} cells, "
          f"largest {100 * max(errors):.1f} %")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    add_replay_args(ap)
    a = ap.parse_args()
    rows = [r for r in read_jsonl(os.path.join(a.folder, "lds_pace_run.jsonl"), "lds_pace.py") if r.get("measure") == "lds_pace"]
    kinds = list(dict.fromkeys(r["kind"] for r in rows))
    counts = ncu_counts(os.path.join(a.folder, "lds_pace_ncu.csv"))
    if len(counts) != len(kinds):
        sys.exit(f"lds_pace.py: {a.folder}: {len(counts)} ncu launches for {len(kinds)} kinds")
    sms = {r["samples"] // 5 for r in rows if r["layout"] == "w0"}.pop()
    by = {(r["kind"], r["layout"]): r for r in rows}
    failures = []
    print("| kind | wavefronts (ncu) | " + " | ".join(f"{l}: warp / SM a wavefront" for l in LAYOUTS) + " |")
    print("|---" * (2 + len(LAYOUTS)) + "|")
    for k, (ins, wf) in zip(kinds, counts):
        expected = loads_per_round(k) * sms
        valid = ins == expected
        claimed = by[(k, "w0")]["wavefronts"]
        cells = []
        for l in LAYOUTS:
            r = by[(k, l)]
            cells.append(f"{r['warp_cycles_per_load']:.2f} / {r['sm_cycles_per_load'] / claimed:.2f}")
        note = "" if valid else f" (ncu: {ins:.0f} of {expected} instructions: merged, not used)"
        print(f"| {k}{note} | {wf:.2f} | " + " | ".join(cells) + " |")
        if not valid:
            continue
        if abs(wf - claimed) > 0.01:
            failures.append(f"{k}: ncu counts {wf:.2f} wavefronts an instruction, the kernel claims {claimed}")
        lone = by[(k, "w0")]["sm_cycles_per_load"] / claimed
        if claimed >= 4 and lone < 1.9:
            failures.append(f"{k}: a lone warp at {lone:.2f} cycles a wavefront (half the path's rate expected)")
        if k in FULL_WAVEFRONT_VECTORS and lone < 2.8:
            failures.append(f"{k}: a lone warp's 128-byte wavefronts at {lone:.2f} cycles each (~3.2 measured)")
        for l in ("w0..w3", "w0..w7"):
            if claimed >= 2 and by[(k, l)]["sm_cycles_per_load"] / claimed > 1.15:
                failures.append(f"{k}, {l}: the SM at {by[(k, l)]['sm_cycles_per_load'] / claimed:.2f} cycles a wavefront")
    if a.model:
        print_model(a, kinds, counts, by, sms)
    if a.check and failures:
        for f in failures:
            print("lds_pace.py: " + f, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The pace at which the SM's shared-memory data path serves one warp's independent loads, alone and beside other warps
(gms-lds-pace-ubench, validate/scripts/device_lds_pace.sh).

    lds_pace.py validate/results/h200/lds_pace [--check]

Printed per kind (LDS.32 with 1-32 ways of bank conflict, conflict-free LDS.64 / LDS.128, LDS.128 at a 32-byte stride,
ldmatrix.x4) and layout of the flooding warps (w0 alone; w0,w4 on one sub-partition; w0,w1 on two; one or two on each
of four): a warp's cycles per load and the SM's cycles per wavefront (a warp's over the warps, over the wavefronts ncu
counts per instruction). A kind whose ncu instruction count falls short of what the kernel issues (ptxas merged loads
of equal addresses: ldmatrix has no volatile form) is marked and left out of the check.
--check: exit 1 unless ncu counts the wavefronts each kind claims, a lone warp's loads of 4 or more wavefronts take at
least 1.9 cycles a wavefront (half the path's rate: sm.shared_replay_cycles), its conflict-free vectors of 128 bytes a
wavefront (LDS.64, LDS.128, ldmatrix.x4) at least 2.8 (the data's ~40 bytes a cycle for one warp), and four or more
warps bring the SM within 1.15 cycles a wavefront (the path's one a cycle)."""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder")
    ap.add_argument("--check", action="store_true")
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
        expected = LOADS_PER_ROUND["lds32" if k.startswith("lds32") else k] * sms
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
    if a.check and failures:
        for f in failures:
            print("lds_pace.py: " + f, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Adds the compiled main loop's issue profile (workload issue.instructions, issue.stall_cycles, issue.shared_reads,
issue.special_reads, issue.register_bank_conflicts, issue.measured) to the records of the kernels whose SASS and per-instruction executed counts are committed in
validate/results/h100/issue/ (validate/scripts/device_sass.sh): this project's WMMA GEMM
(gemm_fp16_kernel<32, 3, PAD>), Triton's wgmma GEMM at its three tilings (cp.async tiles, and TMA tiles:
validate/scripts/device_tma.sh) and the seed-002 ladder
(sgemm_ladder<...>, kind tiled_gemm: the loop's count replaces other_instructions_per_k_tile).

The profile is a fact of the compiled code, read by `gpumemsim issue` from the stall counts the
compiler wrote into each instruction, weighted by how often the H100 executed it; and, from the same
profile's warp-state samples, the loop's measured wait, dispatch_stall and branch_resolving cycles per
K tile (issue.measured: inputs taken from silicon, as registers are taken from the compiler; for the WMMA
GEMM from its profile with one CTA per SM, validate/results/h100/cta_occupancy, the warp's own stalls without
what a second CTA's warps add - the model produces that part); and the
loop's own wait on shared reads and on the special registers it re-reads (S2R, S2UR), walked from the control
codes (issue.shared_reads, issue.special_reads); for the ladder's rungs the warps resident per scheduler on its
profile and the same loop's dispatch_stall with one CTA an SM (issue.measured.warps_per_scheduler,
issue.measured.alone.*: the loop's measured stall scaled by the lone / shared ratio of an H200's back-to-back
profiles, validate/results/h200/ladder_issue_alone); and the issue
cycles its register-bank conflicts cost (issue.register_bank_conflicts). The
measured and ncu sections of a record are left as they are. Both GPUs run the same sm_90 code (nvcc 13.0 and
Triton 3.6.0 on both machines), so the H100's profile holds for the H200's records.

usage: validate/scripts/records_add_issue.py [--gpumemsim build/gpumemsim] [--check] DIR...
  --check: change nothing; exit 1 when a record's profile is not what its committed code gives
"""
import argparse
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from ladder_issue import cycles_per_instruction  # noqa: E402
from ncu_launches import raw_launches  # noqa: E402
from record_files import finish_check, records, save  # noqa: E402

ISSUE = pathlib.Path("validate/results/h100/issue")
OCCUPANCY = pathlib.Path("validate/results/h100/cta_occupancy")
# The ladder profiled at its occupancy (shared/) and with one CTA an SM, back to back on an H200
# (device_ladder_issue.sh 4096 [--alone]): per rung the warps resident per scheduler and what a lone CTA's
# warps stall in dispatch per issued instruction against the shared run's.
LADDER_ALONE = pathlib.Path("validate/results/h200/ladder_issue_alone")


def ladder_alone():
    """{case: (warps per scheduler shared, alone, alone / shared dispatch_stall per issued instruction)}."""
    out = {}
    runs = []
    for folder in (LADDER_ALONE / "shared", LADDER_ALONE):
        path = folder / "ladder_issue_ncu.csv"
        names = [l.split()[1] for l in open(path) if l.startswith("profiled ")]
        runs.append(dict(zip(names, raw_launches(path))))

    for case, shared in runs[0].items():
        alone = runs[1].get(case)
        if alone:
            out[case] = (shared["smsp__warps_active.avg.per_cycle_active"], alone["smsp__warps_active.avg.per_cycle_active"],
                         cycles_per_instruction(alone, "dispatch_stall") / cycles_per_instruction(shared, "dispatch_stall"))
    return out


def profile(gms, sass, kernel, executed, section=None):
    """`gpumemsim issue` of a listing (a path, or a name under ISSUE); without an executed-count export, the
    loop body's static profile (each instruction once an iteration)."""
    sass = sass if isinstance(sass, pathlib.Path) else ISSUE / sass
    cmd = [gms, "issue", str(sass), "--kernel", kernel, "--json"]
    if executed is not None:
        cmd[-1:-1] = ["--executed", str(executed)]
    if section is not None:
        cmd[-1:-1] = ["--section", str(section)]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    shown = " ".join(c if " " not in c else f'"{c}"' for c in ["gpumemsim"] + cmd[1:] if c != "--json")
    return out, shown


def source_of(w, folder=None):
    """(SASS file, kernel filter, executed CSV or None, section of it) for a record's workload, or None. A Triton
    tiling the H100's profiles lack takes the listing its own record folder keeps (sass/<kernel>_<tiling>.sass.xz,
    from the call that measured it: validate/results/h200/triton_stages), statically."""
    t = w.get("tile", {})
    if w.get("kind") == "tiled_gemm":
        th, copy, smem = w["threads"], w["copy"], w.get("smem", {})
        name = (f"sgemm_ladderILi{t['m']}ELi{t['n']}ELi{t['k']}ELi{th['m']}ELi{th['n']}ELi{copy['vector']}"
                f"ELb{int(copy.get('async', False))}ELi{w.get('stages', 1)}ELi{smem.get('pad', 0)}ELi{w.get('read_vector', 1)}EE")
        return "gms-ladder.sm90.sass.xz", name, ISSUE / "ladder_source.csv.xz", None
    if w.get("kind") != "gemm":
        return None
    if w.get("mma") == "wgmma":
        kernel, executed = ("triton_tma_gemm", "triton_tma_source.csv.xz") if w.get("copy") == "tma" else \
            ("triton_gemm", "triton_source.csv.xz")
        name = f"{kernel}_{t['m']}x{t['n']}x{t['k']}_w{w['warps']}_s{w['stages']}"
        if (ISSUE / f"{name}.sm90.sass.xz").exists():
            return f"{name}.sm90.sass.xz", "", ISSUE / executed, None
        own = pathlib.Path(folder or ".") / "sass" / f"{name}.sass.xz"
        return (own, "", None, None) if folder and own.exists() else None
    if w.get("mma", "auto") in ("auto", "mma_sync") and (t.get("m"), t.get("n"), t.get("k")) == (128, 128, 32) \
            and w.get("warps") == 4 and w.get("stages") == 3 and "smem" in w:
        # The warp's own profile: measured with one CTA per SM (the export's second launch), since the
        # model produces what the second CTA's warps cost it (sm.mma_sync_holds_dispatch; docs/sm-sharing.md).
        pad = w["smem"]["pad"]
        export = OCCUPANCY / ("cta_occupancy_source.csv.xz" if pad == 8 else f"cta_occupancy_pad{pad}_source.csv.xz")
        return "gms-validate.sm90.sass.xz", f"gemm_fp16_kernelILi32ELi3ELi{pad}E", export, 2
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpumemsim", default="build/gpumemsim")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 on a stale or missing profile")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    cache, changed, stale, checked = {}, 0, 0, 0
    alone_of = ladder_alone()
    for path, text, rec in records(a.dirs):
        src = source_of(rec.get("workload") or {}, pathlib.Path(path).parent)
        if src is None:
            continue
        checked += 1
        if src not in cache:
            cache[src] = profile(a.gpumemsim, *src)
        p, command = cache[src]
        issue = {"instructions": round(p["instructions_per_k_tile"]),
                 "stall_cycles": f"{round(p['stall_cycles_per_k_tile'])}cycles"}
        shared = p["shared_reads_per_k_tile"]
        if round(shared["exposed"], 1) > 0:
            issue["shared_reads"] = {"exposed": round(shared["exposed"], 1), "hidden": f"{round(shared['hidden_cycles'])}cycles"}
        special = p["special_reads_per_k_tile"]
        if round(special["exposed"], 1) > 0:
            issue["special_reads"] = {"exposed": round(special["exposed"], 1),
                                      "hidden": f"{round(special['hidden_cycles'])}cycles"}
        banks = round(p["register_bank_conflict_cycles_per_k_tile"])
        if banks > 0:
            issue["register_bank_conflicts"] = f"{banks}cycles"
        sampled = p.get("measured_per_k_tile")
        if sampled:
            issue["measured"] = {k: f"{round(sampled[k])}cycles" for k in ("wait", "dispatch_stall", "branch_resolving")}
            if rec.get("case") in alone_of:  # the lone profile's share of it (sm.dispatch_stall_follows_residents)
                warps, warps_alone, ratio = alone_of[rec["case"]]
                issue["measured"]["warps_per_scheduler"] = round(warps, 2)
                issue["measured"]["alone"] = {"dispatch_stall": f"{round(sampled['dispatch_stall'] * ratio)}cycles",
                                              "warps_per_scheduler": round(warps_alone, 2)}
        if a.check:
            if rec["workload"].get("issue") != issue:
                print(f"{path}: issue {rec['workload'].get('issue')}, its code gives {issue}")
                stale += 1
            continue
        rec["workload"]["issue"] = issue
        rec["workload"].pop("other_instructions_per_k_tile", None)  # tiled_gemm: follows from the count
        rec["issue_profile"] = {"command": command, "instructions_per_k_tile": p["instructions_per_k_tile"],
                                "stall_cycles_per_k_tile": p["stall_cycles_per_k_tile"],
                                "shared_reads_per_k_tile": shared,
                                "special_reads_per_k_tile": special,
                                "register_bank_conflict_cycles_per_k_tile": p["register_bank_conflict_cycles_per_k_tile"]}
        if sampled:
            rec["issue_profile"]["measured_per_k_tile"] = sampled
        save(path, text, rec)
        changed += 1
    if a.check:
        finish_check(checked, stale)
    print(f"{changed} records given the issue profile of their compiled loop")


if __name__ == "__main__":
    main()

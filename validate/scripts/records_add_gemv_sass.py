#!/usr/bin/env python3
"""Writes what a GEMV record's compiled code does that the model takes as input, read from its SASS:
the window of global loads per warp (workload loads_in_flight) and the local-memory traffic of its
spills (workload spill_traffic). Records of seed 001's GEMV: this project's CUDA kernel
(gmsv::gemv_splitk_kernel<BN, BK, THREADS, ORDER>, validate/kernels/gemv_kernel.cuh) and Triton's
gemv_revsplitk (validate/scripts/triton_gemv.py).

Both are facts of the compiled code, as registers per thread are. The listings:
  CUDA:   validate/results/h100/issue/gms-validate.sm90.sass.xz (validate/scripts/device_sass.sh; the
          same sm_90 code, nvcc 13.0, runs on both GPUs), the function ncu names in the record;
  Triton: <gpu>/gemv_sweep/gemv_sass.tgz, gemv_bn<N>_bk<K>_w<W>_<order>.sass (each GPU's own listing,
          validate/scripts/device_gemv_sweep.sh).
* The window: the most 16-byte W loads (LDG.E.128; Triton's LDG.E.EF.128, evict-first) a warp has
  pending on its scoreboards at once, walked from the control codes by
  validate/scripts/sass_loads_in_flight.py. None is written where the model's window program cannot
  stand for the code: a kernel with a spill frame (its rows go through local memory, which the spill
  program models), one whose W loads are not 128-bit, or a window of more than 16 loads of rows (the
  program tracks 16; a K step's rows at once stands in). `loads_in_flight_source` says which.
* The eviction hints of its global loads (workload evict): W's from its 64/128-bit LDGs, x's from the
  others - `.EF` evict-first, `.EL` evict-last, neither normal (the CUDA kernel's plain
  `LDG.E.128.CONSTANT` and `LDG.E.U16.CONSTANT`; Triton's `eviction_policy`s).
* The spill traffic, for records with a spill frame: the bytes of every STL and LDL (the kernels are
  unrolled: each runs once per thread). --check also holds them against the record's own Nsight
  counters (l1tex__t_sectors_pipe_lsu_mem_local_op_{st,ld}.sum x 32 B per thread): within 2 %.
* The spill traffic in program order, for records with a spill frame (workload local_program,
  validate/scripts/sass_local_program.py): each STL/LDL at its frame line among the global loads,
  waits and instructions, so that the model reloads a slot as far from its store as the code does.
* The loads and waits in program order, for Triton's records without a spill frame (workload
  local_program with loads only, validate/scripts/sass_local_program.py): the model then issues each
  W and x load where the code does and waits where its scoreboards wait, which replaces the window
  (loads_in_flight is dropped; loads_in_flight_source keeps the walk's facts and says so). The
  window keeps a K step's worth of loads in flight throughout; the code keeps a third to a half of
  them at its waits (docs/shared-memory.md, "What the fitted start gate does not stand for").
* The in-CTA reduction as compiled (workload reduction_smem_stores / reduction_smem_loads /
  reduction_smem_ldmatrix / reduction_barriers: its STS, LDS + LDSM, the LDSM and BAR.SYNC per
  warp; reduction_shuffles / reduction_shuffle_levels: its SHFL and the most of them on one
  dependency chain, validate/scripts/sass_shuffle_levels.py; start_special_reads: the S2R before the
  first LDG, a warp's first MIO instructions) and instructions_per_warp: its instructions up to the last EXIT (warps leaving at an
  earlier, predicated EXIT execute fewer: --check allows that many). Only for straight-line kernels
  (no branch but the self-loop after EXIT: every count is per warp) whose records carry
  reduction_smem_wavefronts (not this project's CUDA kernel: its profiles count no instructions to
  hold these against). --check also holds them against the record's Nsight counters
  (smsp__sass_inst_executed_op_shared_{st,ld}.sum, smsp__inst_executed.sum per warp): equal.
The measured and ncu sections are left as they are.

usage: validate/scripts/records_add_gemv_sass.py [--check] DIR...
  --check: change nothing; exit 1 when a record's inputs are not what its committed code gives
"""
import argparse
import lzma
import pathlib
import sys
import tarfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from record_files import finish_check, records, save  # noqa: E402
from sass_local_program import access_width, local_program  # noqa: E402
from sass_loads_in_flight import INSTR, functions, loads_in_flight  # noqa: E402
from sass_shuffle_levels import shuffle_levels  # noqa: E402

CUDA_SASS = "validate/results/h100/issue/gms-validate.sm90.sass.xz"
ORDERS = {"llcc": 0, "lclc": 1}  # gemv_kernel.cuh: enum GemvOrder
MAX_UNITS = 16                    # loads of rows the GEMV window program tracks (gemv_kernel.cpp)


def source_of(rec, path):
    """(listing, tar member or None, function-name fragment, opcode) of a GEMV record's kernel, or None."""
    w, kernel = rec.get("workload") or {}, rec.get("ncu", {}).get("kernel", "")
    if w.get("kind") != "gemv" or w.get("order") not in ORDERS:
        return None
    b = w["block"]
    if kernel.startswith("void gemv_splitk_kernel<"):
        return CUDA_SASS, None, f"gemv_splitk_kernelILi{b['n']}ELi{b['k']}ELi{32 * w['warps']}ELi{ORDERS[w['order']]}EE", "LDG.E.128"
    if kernel == "gemv_revsplitk":
        tgz = path.parent.parent / "gemv_sweep" / "gemv_sass.tgz"
        return str(tgz), f"gemv_sass/gemv_bn{b['n']}_bk{b['k']}_w{w['warps']}_{w['order']}.sass", "gemv_revsplitk", "LDG.E.EF.128"
    return None


_listings = {}


def window_of(listing, member, fragment, opcode):
    """(function, loads, most in flight, waits) of the one function matching `fragment`."""
    if (listing, member) not in _listings:
        if member:
            with tarfile.open(listing) as t:
                text = t.extractfile(member).read().decode()
        else:
            with lzma.open(listing, "rt") if listing.endswith(".xz") else open(listing) as f:
                text = f.read()
        _listings[(listing, member)] = list(functions(text))
    names = [(n, lines) for n, lines in _listings[(listing, member)] if fragment in n]
    if len(names) != 1:
        sys.exit(f"{listing} {member or ''}: {len(names)} functions match {fragment}; expected exactly one")
    return (names[0][0],) + loads_in_flight(names[0][1], opcode)


def function_lines(listing, member, fragment):
    """The SASS lines of the one function matching `fragment` (window_of loaded the listing)."""
    return next(lines for n, lines in _listings[(listing, member)] if fragment in n)


def local_traffic(listing, member, fragment):
    """(bytes stored, bytes loaded) per thread by the STL and LDL of the one function matching `fragment`."""
    lines = function_lines(listing, member, fragment)
    total = {"STL": 0, "LDL": 0}
    for line in lines:
        m = INSTR.match(line)
        if m and m.group(1).split(".")[0] in total:
            total[m.group(1).split(".")[0]] += access_width(m.group(1))
    return total["STL"], total["LDL"]


def hint_of(opcodes, what):
    """'first' / 'last' / 'normal' from the opcodes of one operand's loads; one hint or an error."""
    hints = {"first" if ".EF" in op else "last" if ".EL" in op else "normal" for op in opcodes}
    if len(hints) != 1:
        sys.exit(f"records_add_gemv_sass: the {what} loads carry {sorted(hints) or 'no'} eviction hints: {sorted(opcodes)}")
    return hints.pop()


def evict_of(listing, member, fragment):
    """The workload's evict block: the hints of the W (64/128-bit) and x (the other) global loads."""
    lines = function_lines(listing, member, fragment)
    ops = [m.group(1) for m in map(INSTR.match, lines) if m and m.group(1).startswith("LDG")]
    w = {op for op in ops if ".128" in op or ".64" in op}
    x = set(ops) - w
    return {"activations": hint_of(x, "x"), "weights": hint_of(w, "W")}


def reduction_of(listing, member, fragment):
    """The compiled reduction's STS, LDS + LDSM, LDS and BAR per warp, the straight-line instruction
    count up to the last EXIT (None where the code branches) and the instructions an early EXIT skips."""
    lines = function_lines(listing, member, fragment)
    ops = [m.group(1) for m in map(INSTR.match, lines) if m]
    base = [op.split(".")[0] for op in ops]
    exits = [i for i, b in enumerate(base) if b == "EXIT"]
    branches = [i for i, b in enumerate(base) if b in ("BRA", "BRX", "JMP", "CALL", "RET", "BSSY", "BSYNC", "WARPSYNC")]
    # Straight-line: no branch before the last EXIT; earlier EXITs are predicated (the warps that
    # have no columns to reduce leave early and skip the instructions between it and the last).
    straight = bool(exits) and all(i > exits[-1] for i in branches)
    shuffles, levels = shuffle_levels(lines)
    first_load = next((i for i, b in enumerate(base) if b == "LDG"), len(base))
    return {"stores": base.count("STS"), "loads": base.count("LDS") + base.count("LDSM"), "lds": base.count("LDS"),
            "shuffles": shuffles, "shuffle_levels": levels, "start_s2r": base[:first_load].count("S2R"),
            "barriers": base.count("BAR"), "instructions": exits[-1] + 1 if straight else None,
            "early_exit_skips": exits[-1] - exits[0] if straight else 0}


def reduction_inputs(rec, src):
    """(the workload keys the compiled reduction gives, the instructions an early EXIT skips); no keys
    but for a straight-line kernel, whose counts are per warp."""
    r = reduction_of(*src[:3])
    # Only where the record carries the reduction's wavefronts to spread (Triton's, from its profile);
    # the CUDA kernel's records have neither those nor instruction counts to hold these against.
    if r["instructions"] is None or not rec["workload"].get("reduction_smem_wavefronts"):
        return {}, 0
    keys = {"reduction_smem_stores": r["stores"], "reduction_smem_loads": r["loads"],
            "reduction_smem_ldmatrix": r["loads"] - r["lds"],
            "reduction_barriers": max(1, r["barriers"]), "instructions_per_warp": r["instructions"]}
    if r["shuffles"]:  # MIO instructions with a wavefront each (sass_shuffle_levels.py)
        keys.update(reduction_shuffles=r["shuffles"], reduction_shuffle_levels=r["shuffle_levels"])
    if r["start_s2r"]:  # the warp's first MIO instructions, before its first load
        keys.update(start_special_reads=r["start_s2r"])
    return keys, r["early_exit_skips"]


def ncu_per_warp(rec):
    """Nsight's per-warp counts of (STS, LDS, instructions) for --check, or None."""
    c = rec.get("ncu", {}).get("counters", {})
    warps = c.get("launch__grid_size", 0) * c.get("launch__block_size", 0) / 32
    keys = ("smsp__sass_inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__inst_executed.sum")
    if not warps or any(k not in c for k in keys):
        return None
    return tuple(c[k] / warps for k in keys)


def spill_of(rec, src):
    """(spill_traffic, its source, local_program) for a record with a spill frame, else Nones."""
    w = rec["workload"]
    if str(w.get("spill_bytes_per_thread", "0B")) in ("0B", "0"):
        return None, None, None
    stored, loaded = local_traffic(*src[:3])
    c = rec.get("ncu", {}).get("counters", {})
    threads = c.get("launch__grid_size", 0) * c.get("launch__block_size", 0)
    source = {"command": "STL/LDL bytes of " + src[2] + " in " + (f"{src[0]}:{src[1]}" if src[1] else src[0]),
              "stored": stored, "loaded": loaded}
    if threads:
        source["ncu_stored"] = round(c.get("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", 0) * 32 / threads, 1)
        source["ncu_loaded"] = round(c.get("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 0) * 32 / threads, 1)
    return {"stored": f"{stored}B", "loaded": f"{loaded}B"}, source, local_program(function_lines(*src[:3]))


def expected(rec, path):
    """(loads_in_flight or None, loads_in_flight_source) the record's compiled code gives, or None."""
    src = source_of(rec, path)
    if src is None:
        return None
    listing, member, fragment, opcode = src
    function, loads, most, waits = window_of(*src)
    w = rec["workload"]
    where = f"{listing}:{member}" if member else listing
    source = {"command": f"validate/scripts/sass_loads_in_flight.py {where} --kernel {fragment} --opcode {opcode}",
              "function": function, "loads": loads, "most_in_flight": most, "waits": waits}
    spill = str(w.get("spill_bytes_per_thread", "0B"))
    vectors_per_row = max(1, -(-w["block"]["n"] * 2 // 512))  # fp16 rows, 32 lanes x 16 B per load
    if not loads:
        source["none"] = f"its W loads are not {opcode}"
    elif spill not in ("0B", "0"):
        source["none"] = f"a spill frame of {spill} per thread: the spill program models its rows"
    elif most // vectors_per_row > MAX_UNITS:
        source["none"] = f"{most // vectors_per_row} loads of rows; the window program tracks {MAX_UNITS}"
    spilled = spill_of(rec, src)
    program = None if spilled[0] or not loads else compiled_program(src)
    if program:
        source.pop("none", None)  # a program has no window to outgrow
        source["replaced_by"] = "workload local_program: the compiled loads and waits"
    return (None if "none" in source or program else most), source, spilled, program, evict_of(*src[:3]), \
        reduction_inputs(rec, src)


def compiled_program(src):
    """The loads and waits of a Triton GEMV without a spill frame (workload local_program), or None:
    only for Triton's straight-line code with 128-bit W loads (the program's W load is 16 bytes a
    lane; the CUDA kernel's records keep their window: the program's x-load rule is Triton's, once
    per W load or per K step)."""
    if not src[1] or reduction_of(*src[:3])["instructions"] is None:
        return None
    return local_program(function_lines(*src[:3]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 on a stale or missing window")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    changed = stale = checked = windows = 0
    for path, text, rec in records(a.dirs):
        exp = expected(rec, path)
        if exp is None:
            continue
        window, source, (traffic, traffic_source, spill_program), loads_program, evict, (reduction, early_exit_skips) = exp
        program = spill_program or loads_program
        checked += 1
        windows += window is not None
        if a.check:
            if rec["workload"].get("loads_in_flight") != window or rec.get("loads_in_flight_source") != source:
                print(f"{path}: loads_in_flight {rec['workload'].get('loads_in_flight')}, its code gives {window}")
                stale += 1
            if rec["workload"].get("evict") != evict:
                print(f"{path}: evict {rec['workload'].get('evict')}, its code gives {evict}")
                stale += 1
            if rec["workload"].get("spill_traffic") != traffic or rec.get("spill_traffic_source") != traffic_source:
                print(f"{path}: spill_traffic {rec['workload'].get('spill_traffic')}, its code gives {traffic}")
                stale += 1
            if rec["workload"].get("local_program") != program:
                print(f"{path}: local_program is not what its code gives")
                stale += 1
            for k, v in reduction.items():
                if rec["workload"].get(k) != v:
                    print(f"{path}: {k} {rec['workload'].get(k)}, its code gives {v}")
                    stale += 1
            shfl = rec.get("measured", {}).get("sass_ops", {}).get("SHFL")
            if shfl is not None and reduction and reduction.get("reduction_shuffles", 0) != shfl:
                print(f"{path}: {reduction.get('reduction_shuffles', 0)} shuffles in the SASS, the record's sass_ops say {shfl}")
                stale += 1
            per_warp = ncu_per_warp(rec)
            if reduction and per_warp:
                # Nsight counts LDSM under neither shared_ld nor shared_st: the LDS alone are its loads.
                sass = (reduction["reduction_smem_stores"],
                        reduction["reduction_smem_loads"] - reduction["reduction_smem_ldmatrix"],
                        reduction["instructions_per_warp"])
                slack = (0.5, 0.5, early_exit_skips + 0.5)  # warps leaving early execute fewer
                for name, mine, theirs, tol in zip(("STS", "LDS", "instructions"), sass, per_warp, slack):
                    if abs(mine - theirs) > tol:
                        print(f"{path}: {name} per warp {mine} in the SASS, Nsight counted {theirs:.1f}")
                        stale += 1
            for k in ("stored", "loaded"):
                if traffic_source and "ncu_" + k in traffic_source and \
                        abs(traffic_source["ncu_" + k] - traffic_source[k]) > 0.02 * traffic_source[k]:
                    print(f"{path}: the SASS {k} {traffic_source[k]} B per thread, Nsight counted {traffic_source['ncu_' + k]}")
                    stale += 1
            continue
        if window is None:
            rec["workload"].pop("loads_in_flight", None)
        else:
            rec["workload"]["loads_in_flight"] = window
        rec["loads_in_flight_source"] = source
        rec["workload"]["evict"] = evict
        rec["workload"].update(reduction)
        for k in reduction:
            rec.setdefault("workload_sources", {})[k] = "its SASS (validate/scripts/records_add_gemv_sass.py), as Nsight counts it"
        if traffic:
            rec["workload"]["spill_traffic"] = traffic
            rec["spill_traffic_source"] = traffic_source
        if program:
            rec["workload"]["local_program"] = program
            rec.setdefault("workload_sources", {})["local_program"] = \
                "its SASS (validate/scripts/sass_local_program.py, through records_add_gemv_sass.py)"
        save(path, text, rec)
        changed += 1
    if a.check:
        finish_check(checked, stale, f" ({windows} with a window)")
    print(f"{changed} records given the inputs of their compiled kernel ({windows} with a window of loads)")


if __name__ == "__main__":
    main()

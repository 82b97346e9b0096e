#!/usr/bin/env python3
"""Writes the compiled window of global loads per warp (workload loads_in_flight) into the records of
seed 001's CUDA GEMV (gmsv::gemv_splitk_kernel<BN, BK, THREADS, ORDER>, validate/kernels/gemv_kernel.cuh).

The window is a fact of the compiled code, as registers per thread are: the most LDG.E.128 a warp has
pending on its scoreboards at once, walked from the control codes of the validated binary's SASS
(validate/results/h100/issue/gms-validate.sm90.sass.xz, validate/scripts/device_sass.sh) by
validate/scripts/sass_loads_in_flight.py. Both GPUs run the same sm_90 code (nvcc 13.0 on both
machines), so one listing serves the H100's and the H200's records. The measured and ncu sections
of a record are left as they are; the record gains `loads_in_flight_source` saying where the number
came from.

usage: validate/scripts/records_add_loads_in_flight.py [--sass LISTING] [--check] DIR...
  --check: change nothing; exit 1 when a record's window is not what its committed code gives
"""
import argparse
import json
import lzma
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sass_loads_in_flight import functions, loads_in_flight  # noqa: E402

SASS = "validate/results/h100/issue/gms-validate.sm90.sass.xz"
OPCODE = "LDG.E.128"
ORDERS = {"llcc": 0, "lclc": 1}  # gemv_kernel.cuh: enum GemvOrder


def kernel_of(rec):
    """The mangled-name fragment of the kernel a CUDA GEMV record ran, or None for other records
    (Triton's GEMVs share the workload's keys; ncu names the kernel that ran)."""
    w = rec.get("workload") or {}
    if not rec.get("ncu", {}).get("kernel", "").startswith("void gemv_splitk_kernel<") or w.get("order") not in ORDERS:
        return None
    b = w.get("block", {})
    return f"gemv_splitk_kernelILi{b['n']}ELi{b['k']}ELi{32 * w['warps']}ELi{ORDERS[w['order']]}EE"


def windows(listing):
    with lzma.open(listing, "rt") if listing.endswith(".xz") else open(listing) as f:
        text = f.read()
    return {name: loads_in_flight(lines, OPCODE) for name, lines in functions(text)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sass", default=SASS, help="cuobjdump -sass listing of the validated binary")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 on a stale or missing window")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    found = windows(a.sass)
    changed = stale = checked = 0
    for d in a.dirs:
        for path in sorted(pathlib.Path(d).glob("*.json")):
            text = path.read_text()
            rec = json.loads(text)
            fragment = kernel_of(rec)
            if fragment is None:
                continue
            names = [n for n in found if fragment in n]
            if len(names) != 1:
                sys.exit(f"{path}: {len(names)} functions of {a.sass} match {fragment}; expected exactly one")
            loads, most, waits = found[names[0]]
            if not loads:
                sys.exit(f"{path}: {names[0]} has no {OPCODE}")
            checked += 1
            if a.check:
                if rec["workload"].get("loads_in_flight") != most:
                    print(f"{path}: loads_in_flight {rec['workload'].get('loads_in_flight')}, its code gives {most}")
                    stale += 1
                continue
            rec["workload"]["loads_in_flight"] = most
            rec["loads_in_flight_source"] = {
                "command": f"validate/scripts/sass_loads_in_flight.py {a.sass} --kernel {fragment} --opcode {OPCODE}",
                "function": names[0], "loads": loads, "most_in_flight": most, "waits": waits}
            path.write_text(json.dumps(rec, indent=1) + ("\n" if text.endswith("\n") else ""))
            changed += 1
    if a.check:
        print(f"{checked} records checked, {stale} stale")
        sys.exit(1 if stale or not checked else 0)
    print(f"{changed} records given the loads in flight of their compiled kernel")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Adds the shared-memory layout of the project's WMMA GEMM (validate/kernels/gemm_kernel.cuh:
kPadA = kPadB = 8 halves of padding per shared row, no swizzle) to the workload description of
records written before the runner recorded it (validate/runner/cases.cpp now writes it).

The layout is a fact of the kernel source, not a measurement: the measured and ncu sections are
left as they are. The padding decides what the kernel's cp.async copies cost at L2 (every other
shared row is 16 bytes off a 32-byte sector: those rows' sectors are fetched twice;
sim/model/shared_copy.h), so a replay without it models a different kernel.

usage: validate/scripts/records_add_smem_layout.py validate/results/h100/gemm validate/results/h200/gemm
"""
import json
import pathlib
import sys

LAYOUT = {"pad": 8, "swizzle": "none"}


def main(dirs):
    changed = 0
    for d in dirs:
        for path in sorted(pathlib.Path(d).glob("*.json")):
            text = path.read_text()
            rec = json.loads(text)
            w = rec.get("workload", {})
            if rec.get("kind") != "gemm" or w.get("kind") != "gemm" or "mma" in w or "smem" in w:
                continue
            # Keep the key order of the runner: smem after the pipeline keys.
            out = {}
            for k, v in w.items():
                out[k] = v
                if k == "bypass_l1":
                    out["smem"] = dict(LAYOUT)
            out.setdefault("smem", dict(LAYOUT))
            rec["workload"] = out
            path.write_text(json.dumps(rec, indent=1) + ("\n" if text.endswith("\n") else ""))
            changed += 1
    print(f"{changed} records given smem {LAYOUT}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

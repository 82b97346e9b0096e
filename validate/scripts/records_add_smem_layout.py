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
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from record_files import add_to_wmma_gemms  # noqa: E402

LAYOUT = {"pad": 8, "swizzle": "none"}


def main(dirs):
    # The runner writes smem after the pipeline keys.
    print(f"{add_to_wmma_gemms(dirs, 'bypass_l1', 'smem', dict(LAYOUT))} records given smem {LAYOUT}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

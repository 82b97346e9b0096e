#!/usr/bin/env python3
"""Adds how the project's WMMA GEMM stores its C tile (`"epilogue": "fragments"`) to the workload of
records written before the runner recorded it (validate/runner/cases.cpp now writes it).

A fact of the kernel source, not a measurement: validate/kernels/gemm_kernel.cuh stores each warp's
accumulators with wmma::store_matrix_sync straight from registers - 64 STG.E (32-bit) per warp, each
writing 8 rows x 16 bytes (validate/results/h100/issue/gms-validate.sm90.sass.xz) - where the workload's
default (`coalesced`) is Triton's epilogue through shared memory (STG.E.128, whole sectors). The measured
and ncu sections are left as they are. Records of other kernels (those that name an `mma`) are skipped.

usage: validate/scripts/records_add_epilogue.py validate/results/h100/gemm validate/results/h100/padding ...
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from record_files import add_to_wmma_gemms  # noqa: E402


def main(dirs):
    # The runner writes epilogue after smem.
    print(f"{add_to_wmma_gemms(dirs, 'smem', 'epilogue', 'fragments')} records given epilogue fragments")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

#!/usr/bin/env python3
"""How often a GEMM grid reads its B matrix from DRAM, wave by wave: the rows sweep of
validate/results/h200/triton_rows (one tiling, N = K fixed, M from half a wave to 15.5 waves).

  b_reads.py NCU_CSV[.xz]... [--model COMPARE_JSON...] [--check [--kernel REGEX]]

B reads = (dram__bytes_read - A's bytes) / B's bytes, A = M x K and B = K x N fp16; a wave = the CTAs
resident at once (launch__waves_per_multiprocessor gives the waves). In a grid that stays in step, the
~4 row tiles of a wave share each B line in L2 and B is read once a wave; where each of them misses on its
own, ~4 times. --model adds the model's B reads from `gpumemsim compare --json` files (cases by name).
--check: exit 1 unless silicon's row-major cases whose names match --kernel (default ^triton_gemm_: cp.async)
read B at most 1.1 times a wave up to 8 waves and more than 2 times a wave at 15 or more (what the README says
of the 128x128x64 tiling; the TMA cases, --kernel ^triton_tma_gemm_, lose the sharing sooner and fail it, as
does the 64x128x32 tiling, whose grid drifts from its first wave)."""
import argparse, json, lzma, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from merge_ncu import parse_ncu  # noqa: E402

SHAPE = re.compile(r"_(\d+)x(\d+)x(\d+)_")


def b_reads(case, dram_read):
    m, n, k = (int(v) for v in SHAPE.search(case).groups())
    return (dram_read - 2 * m * k) / (2 * k * n)


def model_dram(paths):
    out = {}
    for p in paths:
        with (lzma.open(p, "rt") if p.endswith(".xz") else open(p)) as f:
            for c in json.load(f)["cases"]:
                v = c["metrics"].get("dram__bytes_read.sum")
                if v:
                    out[c["case"]] = v["simulated"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ncu", nargs="+")
    ap.add_argument("--model", action="append", default=[], metavar="COMPARE_JSON")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--kernel", default="^triton_gemm_", help="the cases --check holds (a regular expression on the name)")
    a = ap.parse_args()
    model = model_dram(a.model)
    print("| case | waves | B reads | a wave | model B reads | a wave |")
    print("|---|---|---|---|---|---|")
    bad, checked = [], 0
    for path in a.ncu:
        for case, prof in parse_ncu(path).items():
            c = prof["counters"]
            waves = c["launch__waves_per_multiprocessor"]
            b = b_reads(case, c["dram__bytes_read.sum"])
            mb = b_reads(case, model[case]) if case in model else None
            per = max(1.0, waves)
            cells = f"{mb:.2f} | {mb / per:.2f}" if mb is not None else "- | -"
            print(f"| {case} | {waves:.2f} | {b:.2f} | {b / per:.2f} | {cells} |")
            if re.search(a.kernel, case) and case.endswith("row_major"):
                checked += 1
                if waves <= 8 and b / per > 1.1 or waves >= 15 and b / per <= 2:
                    bad.append(f"{case}: {b / per:.2f} B reads a wave over {waves:.1f} waves")
    if a.check:
        if not checked:
            sys.exit(f"b_reads: no row-major case matching {a.kernel} to check")
        if bad:
            sys.exit("b_reads: silicon no longer reads B as the README says:\n  " + "\n  ".join(bad))
        print(f"check: {checked} row-major cases matching {a.kernel} read B <= 1.1 times a wave up to 8 waves, > 2 at 15+")


if __name__ == "__main__":
    main()

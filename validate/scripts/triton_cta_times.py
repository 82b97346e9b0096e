#!/usr/bin/env python3
"""When the Triton GEMM's CTAs start and end (issue 11: does silicon's grid drift apart wave by wave,
and more at the short K step of 64x128x32, whose L2 merges fewer requests than the model's?).

triton_matmul.py's `matmul_stamped` - the records' `matmul` with %globaltimer / %clock64 stamps at
entry and after the C stores and %smid - at the records' tilings, shapes and orders: per case five
plain timings (time_launches) of `matmul` and of `matmul_stamped` (the stamps' cost), then three
stamped runs whose stamps are written as <case>_run<r>.csv.gz (`cta,sm,gt_start_ns,gt_end_ns,
clk_start,clk_end`, the columns of gms-cta-times), read by cta_spread.py.

  triton_cta_times.py --out DIR [--shapes 4096x4096x4096,...] [--tilings 64x128x32w4s4,...] [--groups 8,1]

Writes DIR/triton_cta_times.jsonl (one line per case: plain and stamped medians, registers)."""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stamped_runs import emit, stamped_case  # noqa: E402
from triton_gemm_records import case_name, cases, parse_list, parse_tiling  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--shapes")
    ap.add_argument("--tilings")
    ap.add_argument("--groups")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    import torch, triton

    from triton_env import record_environment
    from triton_matmul import matmul, matmul_stamped

    os.makedirs(a.out, exist_ok=True)
    env = record_environment("triton_cta_times.py")
    chosen = cases(parse_list(a.shapes, lambda t: tuple(int(v) for v in t.split("x"))), parse_list(a.tilings, parse_tiling),
                   parse_list(a.groups, int))
    with open(os.path.join(a.out, "triton_cta_times.jsonl"), "w") as out:
        for shape, tiling, group in chosen:
            m, n, k = shape
            bm, bn, bk, w, s = tiling
            name = case_name(shape, tiling, group)
            gen = torch.Generator(device="cuda").manual_seed(1234)
            A = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=gen)
            B = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=gen)
            C = torch.empty((m, n), device="cuda", dtype=torch.float16)
            ctas = triton.cdiv(m, bm) * triton.cdiv(n, bn)
            stamps = torch.zeros(ctas * 5, device="cuda", dtype=torch.int64)
            args = (A, B, C, m, n, k, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1))
            meta = dict(BM=bm, BN=bn, BK=bk, GROUP_M=group, num_warps=w, num_stages=s)

            def plain():
                return matmul[(ctas,)](*args, **meta)

            def stamped():
                return matmul_stamped[(ctas,)](*args, stamps, **meta)

            emit(out, stamped_case(name, ctas, a.runs, a.out, env, plain, stamped, stamps))


if __name__ == "__main__":
    main()

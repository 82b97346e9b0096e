#!/usr/bin/env python3
"""A second GEMM implementation for validate: Triton's tutorial-style matmul (GROUP_SIZE_M ordering,
software-pipelined K loop; on Hopper Triton lowers tl.dot to wgmma and the tile loads to cp.async),
at several tilings, shapes and CTA orders. Writes one JSON line per case in the runner's record form
(`case`, `kind`, `workload` in the simulator's schema, `measured`, `check`, `environment`), which
merge_ncu.py turns into records `gpumemsim compare` replays.

  triton_gemm_records.py --jsonl OUT.jsonl     # check + time every case (5 event pairs around 10 launches each)
  triton_gemm_records.py --profile             # launch each case once (run under ncu -k regex:matmul)
  triton_gemm_records.py --list                # case names
  --copy tma                                   # the same cases with TMA tile copies (matmul_tma; cases
                                               # triton_tma_gemm_*, workload copy: tma)
  --tilings 128x256x32w4s3,... --shapes 4096x4096x4096,... --groups 8
                                               # other cases than the default set (e.g. spilling tilings)
  --sass DIR                                   # one cuobjdump -sass listing per tiling (its cubin)

The kernel is triton_matmul.py's (fp16 in, fp32 accumulate, fp16 out); Triton and PyTorch are the GPU
machine's. Registers, spills and shared memory per CTA come from the compiled kernel's metadata."""
import argparse, json, os

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192)]
# (BM, BN, BK, warps, stages): Triton tutorial / autotune configurations for Hopper fp16.
TILINGS = [(128, 128, 64, 4, 3), (128, 256, 64, 8, 4), (64, 128, 32, 4, 4)]
GROUPS = [8, 1]  # GROUP_SIZE_M 8 (grouped) and 1 (= row-major program order)


def case_name(shape, tiling, group, copy="cp_async"):
    m, n, k = shape
    bm, bn, bk, w, s = tiling
    order = f"grouped{group}" if group > 1 else "row_major"
    kernel = "triton_tma_gemm" if copy == "tma" else "triton_gemm"
    return f"{kernel}_{m}x{n}x{k}_{bm}x{bn}x{bk}_w{w}_s{s}_{order}"


def cases(shapes=None, tilings=None, groups=None):
    return [(sh, t, g) for sh in shapes or SHAPES for t in tilings or TILINGS for g in groups or GROUPS]


def parse_tiling(text):
    """'128x256x32w4s3' -> (128, 256, 32, 4, 3)."""
    tile, rest = text.split("w")
    warps, stages = rest.split("s")
    return tuple(int(v) for v in tile.split("x")) + (int(warps), int(stages))


def parse_list(text, parse):
    return [parse(t) for t in text.split(",")] if text else None


def workload(shape, tiling, group, regs, copy="cp_async"):
    m, n, k = shape
    bm, bn, bk, w, s = tiling
    order = {"kind": "grouped", "group_m": group} if group > 1 else {"kind": "row_major"}
    out = {"kind": "gemm", "name": case_name(shape, tiling, group, copy), "m": m, "n": n, "k": k, "dtype": "fp16",
           "c_dtype": "fp16", "layout": {"a": "row", "b": "row"}, "tile": {"m": bm, "n": bn, "k": bk},
           "warps": w, "stages": s, "bypass_l1": True, "cta_order": order, "registers_per_thread": regs,
           "mma": "wgmma"}
    if copy == "tma":
        out["copy"] = "tma"
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jsonl")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--copy", choices=["cp_async", "tma"], default="cp_async")
    ap.add_argument("--tilings", help="BMxBNxBKwWARPSsSTAGES,... (default: the three of TILINGS)")
    ap.add_argument("--shapes", help="MxNxK,... (default: SHAPES)")
    ap.add_argument("--groups", help="GROUP_SIZE_M values, e.g. 8,1 (default: 8,1)")
    ap.add_argument("--sass", help="directory for one SASS listing per compiled tiling")
    a = ap.parse_args()
    chosen = cases(parse_list(a.shapes, lambda t: tuple(int(v) for v in t.split("x"))), parse_list(a.tilings, parse_tiling),
                   parse_list(a.groups, int))
    if a.list:
        for c in chosen:
            print(case_name(*c, a.copy))
        return
    import torch, triton, triton.language as tl

    from triton_matmul import matmul, matmul_tma

    from triton_env import record_environment, time_launches
    from triton_gemv_records import sass_of

    env = record_environment("triton_gemm_records.py")
    out = open(a.jsonl, "w") if a.jsonl else None
    listed = set()
    for shape, tiling, group in chosen:
        m, n, k = shape
        bm, bn, bk, w, s = tiling
        name = case_name(shape, tiling, group, a.copy)
        gen = torch.Generator(device="cuda").manual_seed(1234)
        A = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=gen)
        B = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=gen)
        C = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)

        if a.copy == "tma":
            from triton.tools.tensor_descriptor import TensorDescriptor

            da, db = TensorDescriptor.from_tensor(A, [bm, bk]), TensorDescriptor.from_tensor(B, [bk, bn])

            def launch():
                return matmul_tma[grid](da, db, C, m, n, k, C.stride(0), C.stride(1), BM=bm, BN=bn, BK=bk,
                                        GROUP_M=group, num_warps=w, num_stages=s)
        else:
            def launch():
                return matmul[grid](A, B, C, m, n, k, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0),
                                    C.stride(1), BM=bm, BN=bn, BK=bk, GROUP_M=group, num_warps=w, num_stages=s)

        if a.profile:
            print("profiled", name, flush=True)
            launch()
            torch.cuda.synchronize()
            continue
        kern = launch()
        torch.cuda.synchronize()
        # Check: 256 sampled entries against an fp64 reference (NaN-poisoned C catches unwritten tiles).
        idx = torch.randint(0, m * n, (256,), device="cuda", generator=gen)
        rows, cols = idx // n, idx % n
        ref = (A[rows].double() * B[:, cols].t().double()).sum(dim=1)
        got = C.flatten()[idx].double()
        rel = ((got - ref).norm() / ref.norm()).item()
        passed = bool(torch.isfinite(C).all().item()) and rel < 5e-3
        # Back-to-back launches between two events: 5 runs of 10 (triton_env.time_launches).
        times = time_launches(launch)
        med = times[len(times) // 2]
        regs = int(kern.n_regs)
        if a.sass and tiling not in listed:  # the compiled code does not depend on the shape or group
            os.makedirs(a.sass, exist_ok=True)
            bm_, bn_, bk_, w_, s_ = tiling
            with open(os.path.join(a.sass, f"triton_gemm_{bm_}x{bn_}x{bk_}_w{w_}_s{s_}.sass"), "w") as f:
                f.write(sass_of(kern))
            listed.add(tiling)
        rec = {"case": name, "kind": "gemm", "workload": workload(shape, tiling, group, regs, a.copy),
               "measured": {"time_ns.median": med, "time_ns.min": times[0], "time_ns.max": times[-1], "reps": 50,
                            "tflops": 2.0 * m * n * k / med / 1e3, "registers_per_thread": regs,
                            "spills": int(kern.n_spills), "shared_mem_per_cta": int(kern.metadata.shared)},
               "check": {"passed": passed, "relative_error": rel, "tolerance": 5e-3,
                         "method": "256 sampled entries vs fp64 reference; NaN-poisoned C"},
               "environment": env}
        print(name, f"{med / 1e3:.1f} us", f"{rec['measured']['tflops']:.0f} TFLOP/s", "regs", regs, "spills",
              kern.n_spills, "smem", kern.metadata.shared, "rel", f"{rel:.1e}", "ok" if passed else "FAILED", flush=True)
        if out:
            out.write(json.dumps(rec) + "\n")
    if out:
        out.close()


if __name__ == "__main__":
    main()

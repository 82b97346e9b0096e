#!/usr/bin/env python3
"""Compiles a Triton matmul (tutorial-style: GROUP_SIZE_M ordering, software-pipelined K loop) for the
GPU at hand and writes its PTX and SASS, one file per tiling, for order-from-asm's tests:
  triton_gemm_asm.py OUT_DIR [--copy tma]
The kernel is triton_matmul.py's `matmul` (fp16 in, fp32 accumulate; tiles by cp.async), with --copy tma
its `matmul_tma` (tiles by the TMA; files triton_tma_gemm_*); Triton is the GPU machine's."""
import os, subprocess, sys
import torch, triton, triton.language as tl

from triton_matmul import matmul, matmul_tma


def main():
    out = sys.argv[1]
    tma = sys.argv[2:] == ["--copy", "tma"]
    os.makedirs(out, exist_ok=True)
    M = N = K = 4096
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    ref = a.float() @ b.float()
    for bm, bn, bk, warps, stages in [(128, 128, 64, 4, 3), (128, 256, 64, 8, 4), (64, 128, 32, 4, 4)]:
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
        if tma:
            from triton.tools.tensor_descriptor import TensorDescriptor

            da, db = TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bk, bn])
            k = matmul_tma[grid](da, db, c, M, N, K, c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk, GROUP_M=8,
                                 num_warps=warps, num_stages=stages)
        else:
            k = matmul[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                             c.stride(1), BM=bm, BN=bn, BK=bk, GROUP_M=8, num_warps=warps, num_stages=stages)
        torch.cuda.synchronize()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        name = f"triton_{'tma_' if tma else ''}gemm_{bm}x{bn}x{bk}_w{warps}_s{stages}"
        with open(os.path.join(out, name + ".sm90.ptx"), "w") as f:
            f.write(k.asm["ptx"])
        cubin = os.path.join("/tmp", name + ".cubin")
        with open(cubin, "wb") as f:
            f.write(k.asm["cubin"])
        sass = subprocess.run(["cuobjdump", "-sass", cubin], capture_output=True, text=True).stdout
        with open(os.path.join(out, name + ".sm90.sass"), "w") as f:
            f.write(sass)
        print(name, "rel error", f"{err:.2e}", "wgmma" if "wgmma" in k.asm["ptx"] else "no wgmma",
              "cp.async" if "cp.async.cg" in k.asm["ptx"] or "cp.async.ca" in k.asm["ptx"] else "no cp.async",
              "UTMALDG x%d" % sass.count("UTMALDG"), "LDGSTS x%d" % sass.count("LDGSTS"),
              "registers", k.n_regs, "spills", k.n_spills, "smem", k.metadata.shared)

if __name__ == "__main__":
    main()

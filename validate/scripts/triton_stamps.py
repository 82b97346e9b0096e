"""The per-CTA stamps of the stamped Triton kernels (triton_matmul.py's `matmul_stamped`, triton_gemv.py's
`gemv_revsplitk_stamped`), as gms-cta-times puts them in the CUDA kernels: %globaltimer and %clock64 read at a point
of the program, and the five int64 a CTA (sm, gt_start_ns, gt_end_ns, clk_start, clk_end) stamped_runs.py reads.
Triton is the GPU machine's."""
import triton, triton.language as tl


@triton.jit
def globaltimer():
    return tl.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)


@triton.jit
def clock64():
    return tl.inline_asm_elementwise("mov.u64 $0, %clock64;", "=l", [], dtype=tl.int64, is_pure=False, pack=1)


@triton.jit
def store_stamps(base, t0, t1, c0, c1):
    """stamps[base : base + 5] = (%smid, t0, t1, c0, c1)."""
    sm = tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(base + 0, sm.to(tl.int64))
    tl.store(base + 1, t0)
    tl.store(base + 2, t1)
    tl.store(base + 3, c0)
    tl.store(base + 4, c1)

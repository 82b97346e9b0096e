"""Seed 001's GEMV in Triton (gemlite's revsplitK shape): y[1xN] += x[1xK] . W[KxN], fp16 in, fp32
atomics. Grid (N / BN, K / (2 BK)); program (n, q) covers columns n*BN.. and two BK-deep K steps from
2*q*BK, sums each step over K in fp32 and adds its 1xBN partial to y with tl.atomic_add. LCLC = 0
writes the source as load, load, compute, compute (gemlite), 1 as load, compute, load, compute; the
compiler schedules either (the records keep the SASS counts). Eviction hints as gemlite's: x last, W
first. Triton is the GPU machine's."""
import triton, triton.language as tl

from triton_stamps import clock64, globaltimer, store_stamps


@triton.jit
def gemv_revsplitk(x, w, y, K, N, BN: tl.constexpr, BK: tl.constexpr, LCLC: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1) * 2
    rn = pid_n * BN + tl.arange(0, BN)
    rk = pid_k * BK + tl.arange(0, BK)
    xp = x + rk
    wp = w + rk[:, None] * N + rn[None, :]
    if LCLC:
        a0 = tl.load(xp, eviction_policy="evict_last")
        b0 = tl.load(wp, eviction_policy="evict_first")
        acc = tl.sum(a0[:, None].to(tl.float32) * b0.to(tl.float32), axis=0)
        a1 = tl.load(xp + BK, eviction_policy="evict_last")
        b1 = tl.load(wp + BK * N, eviction_policy="evict_first")
        acc += tl.sum(a1[:, None].to(tl.float32) * b1.to(tl.float32), axis=0)
    else:
        a0 = tl.load(xp, eviction_policy="evict_last")
        b0 = tl.load(wp, eviction_policy="evict_first")
        a1 = tl.load(xp + BK, eviction_policy="evict_last")
        b1 = tl.load(wp + BK * N, eviction_policy="evict_first")
        acc = tl.sum(a0[:, None].to(tl.float32) * b0.to(tl.float32), axis=0)
        acc += tl.sum(a1[:, None].to(tl.float32) * b1.to(tl.float32), axis=0)
    tl.atomic_add(y + rn, acc, sem="relaxed")


@triton.jit
def gemv_revsplitk_stamped(x, w, y, K, N, stamps, BN: tl.constexpr, BK: tl.constexpr, LCLC: tl.constexpr):
    """`gemv_revsplitk` with per-program stamps, as triton_matmul.py's `matmul_stamped` puts them: %globaltimer
    and %clock64 at entry and after the atomics are issued, and %smid, written to stamps[p * 5 : p * 5 + 5] as
    (sm, gt_start_ns, gt_end_ns, clk_start, clk_end) for the program's linear index p = pid_0 + pid_1 x grid_0
    (the order the hardware launches them and the model numbers its launches). The GEMV is `gemv_revsplitk`'s,
    inlined."""
    t0 = globaltimer()
    c0 = clock64()
    gemv_revsplitk(x, w, y, K, N, BN, BK, LCLC)
    t1 = globaltimer()
    c1 = clock64()
    store_stamps(stamps + (tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)) * 5, t0, t1, c0, c1)


@triton.jit
def gemv_revsplitk_start_stamped(x, w, y, K, N, stamps, BN: tl.constexpr, BK: tl.constexpr, LCLC: tl.constexpr):
    """`gemv_revsplitk` with the wait of the program's first S2R stamped: %clock64 at entry, %clock64 again once a
    read of %tid.x is back (a predicate on it guards the read, so the clock waits for the S2R's result - an MIO
    queue entry on sm_90, gms-mio-startup-ubench), %clock64 after the atomics and %smid, written to
    stamps[p * 5 : p * 5 + 5] as (sm, clk_entry, clk_s2r, clk_end, 0) for the program's linear index p."""
    c0 = clock64()
    cs = tl.inline_asm_elementwise(
        "{ .reg .u32 t; .reg .pred p; mov.u32 t, %tid.x; setp.ne.u32 p, t, $1; mov.u64 $0, 0; @p mov.u64 $0, %clock64; }",
        "=l,r", [N], dtype=tl.int64, is_pure=False, pack=1)
    gemv_revsplitk(x, w, y, K, N, BN, BK, LCLC)
    c1 = clock64()
    sm = tl.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=tl.int32, is_pure=True, pack=1)
    base = stamps + (tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)) * 5
    tl.store(base + 0, sm.to(tl.int64))
    tl.store(base + 1, c0)
    tl.store(base + 2, cs)
    tl.store(base + 3, c1)

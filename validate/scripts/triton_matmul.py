"""The Triton matmuls the validate scripts run (tutorial-style: GROUP_SIZE_M ordering, software-pipelined
K loop; fp16 in, fp32 accumulate, fp16 out; `matmul` copies its tiles with cp.async, `matmul_tma` with
the TMA): triton_gemm_asm.py writes their PTX/SASS for the tests, triton_gemm_records.py measures them.
Triton is the GPU machine's."""
import triton, triton.language as tl

from triton_stamps import clock64, globaltimer, store_stamps


@triton.jit
def matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m, num_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pm = first_m + ((pid % group) % size_m)
    pn = (pid % group) // size_m
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    pa = a + rm[:, None] * sam + rk[None, :] * sak
    pb = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(pa, mask=rk[None, :] < K - k * BK, other=0.0)
        y = tl.load(pb, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        pa += BK * sak
        pb += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(tl.float16), mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def matmul_tma(a_desc, b_desc, c, M, N, K, scm, scn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """The same GEMM with its A and B tiles copied by the Tensor Memory Accelerator: host-built tensor
    descriptors (triton.tools.tensor_descriptor), which Triton lowers on Hopper to bulk tensor copies
    (UTMALDG) completing on mbarriers instead of per-thread cp.async. Same program order, same K loop,
    same epilogue (C through plain stores), so the two differ only in how tiles reach shared memory."""
    pid = tl.program_id(0)
    num_m, num_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
    group = GROUP_M * num_n
    first_m = (pid // group) * GROUP_M
    size_m = min(num_m - first_m, GROUP_M)
    pm = first_m + ((pid % group) % size_m)
    pn = (pid % group) // size_m
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = a_desc.load([pm * BM, k * BK])
        y = b_desc.load([k * BK, pn * BN])
        acc = tl.dot(x, y, acc)
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(tl.float16), mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def matmul_stamped(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn, stamps,
                   BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    """`matmul` with per-CTA stamps, as gms-cta-times puts them in the WMMA kernel: %globaltimer and
    %clock64 at entry and after the C stores, and %smid, written to stamps[pid * 5 : pid * 5 + 5] as
    (sm, gt_start_ns, gt_end_ns, clk_start, clk_end). The GEMM itself is `matmul`'s, inlined."""
    t0 = globaltimer()
    c0 = clock64()
    matmul(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn, BM, BN, BK, GROUP_M)
    t1 = globaltimer()
    c1 = clock64()
    store_stamps(stamps + tl.program_id(0) * 5, t0, t1, c0, c1)

#!/usr/bin/env python3
"""Measures what `gpumemsim recommend` picked (issue 14): for each recommend JSON (one GEMM shape),
the top-N ranked configurations, the Triton tutorial's autotune list (what `triton.autotune` would
choose from) and a few configurations recommend left out as spilling - all through the same
tutorial-style Triton matmul (triton_matmul.py) and the same timing as triton_gemm_records.py
(5 event pairs around 10 back-to-back launches, median; 256 sampled entries checked against fp64).

  recommend_check.py --jsonl OUT.jsonl validate/results/h100/recommend/predicted/*.json

One JSON line per (shape, configuration): source (recommend rank / autotune / spill), time, registers,
spills, shared memory and tensor-core class (wgmma / mma_sync, from its PTX) of the compiled kernel,
the check and the environment."""
import argparse, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# triton/python/tutorials/03-matrix-multiplication.py, get_cuda_autotune_config() (fp16 entries):
# (BM, BN, BK, GROUP_M, stages, warps).
AUTOTUNE = [(128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4), (128, 64, 32, 8, 4, 4),
            (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4), (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2)]


def parse_label(label):
    # "128x256x64 w8 s3 g8"
    tile, w, s, g = label.split()
    bm, bn, bk = (int(x) for x in tile.split("x"))
    return bm, bn, bk, int(g[1:]), int(s[1:]), int(w[1:])


def label_of(c):
    bm, bn, bk, g, s, w = c
    return f"{bm}x{bn}x{bk} w{w} s{s} g{g}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jsonl", required=True)
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--spills", type=int, default=2, help="left-out spilling configurations to measure per shape")
    ap.add_argument("recommend_json", nargs="+")
    a = ap.parse_args()
    import torch, triton

    from triton_matmul import matmul
    from triton_env import record_environment, time_launches

    env = record_environment("recommend_check.py")
    out = open(a.jsonl, "w")
    for path in a.recommend_json:
        rec = json.load(open(path))
        m, n, k = rec["m"], rec["n"], rec["k"]
        todo = {}  # label -> list of sources
        for i, c in enumerate(rec["ranked"][:a.top]):
            todo.setdefault(c["config"], []).append(f"recommend#{i + 1}")
        for c in AUTOTUNE:
            todo.setdefault(label_of(c), []).append("autotune")
        # Spilling tilings: left out by recommend before it priced spills (`excluded`), ranked since
        # (`spill_bytes_per_thread` > 0): the best-ranked ones.
        spills = ([c for c in rec["excluded"] if c["excluded"].startswith("spills")] +
                  [c for c in rec["ranked"] if c.get("spill_bytes_per_thread", 0) > 0])[:a.spills]
        for c in spills:
            todo.setdefault(c["config"], []).append("spill")
        gen = torch.Generator(device="cuda").manual_seed(1234)
        A = torch.randn(m, k, device="cuda", dtype=torch.float16, generator=gen)
        B = torch.randn(k, n, device="cuda", dtype=torch.float16, generator=gen)
        for label, sources in todo.items():
            bm, bn, bk, g, s, w = parse_label(label)
            C = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)

            def launch():
                return matmul[grid](A, B, C, m, n, k, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0),
                                    C.stride(1), BM=bm, BN=bn, BK=bk, GROUP_M=g, num_warps=w, num_stages=s)

            row = {"shape": [m, n, k], "config": label, "sources": sources}
            try:
                kern = launch()
                torch.cuda.synchronize()
            except Exception as e:  # out of shared memory / resources: recorded, not hidden
                row["error"] = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                row["environment"] = env
                out.write(json.dumps(row) + "\n")
                print(m, n, k, label, sources, "ERROR", row["error"], flush=True)
                continue
            idx = torch.randint(0, m * n, (256,), device="cuda", generator=gen)
            rows, cols = idx // n, idx % n
            ref = (A[rows].double() * B[:, cols].t().double()).sum(dim=1)
            rel = ((C.flatten()[idx].double() - ref).norm() / ref.norm()).item()
            passed = bool(torch.isfinite(C).all().item()) and rel < 5e-3
            times = time_launches(launch)
            med = times[len(times) // 2]
            # Which tensor-core class the compiler chose (the model's compiler_mma_class must agree).
            ptx = kern.asm.get("ptx", "")
            row["mma_class"] = "wgmma" if "wgmma.mma_async" in ptx else "mma_sync" if "mma.sync" in ptx else "none"
            row.update({"time_ns.median": med, "time_ns.min": times[0], "time_ns.max": times[-1], "reps": 50,
                        "tflops": 2.0 * m * n * k / med / 1e3, "registers_per_thread": int(kern.n_regs),
                        "spills": int(kern.n_spills), "shared_mem_per_cta": int(kern.metadata.shared),
                        "check": {"passed": passed, "relative_error": rel, "tolerance": 5e-3}, "environment": env})
            out.write(json.dumps(row) + "\n")
            print(m, n, k, label, sources, f"{med / 1e3:.1f} us", f"{row['tflops']:.0f} TFLOP/s", row["mma_class"],
                  "regs", kern.n_regs,
                  "spills", kern.n_spills, "ok" if passed else "CHECK FAILED", flush=True)
    out.close()


if __name__ == "__main__":
    main()

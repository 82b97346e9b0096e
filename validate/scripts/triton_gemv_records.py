#!/usr/bin/env python3
"""GEMV records across block sizes and warps (issue 11): seed 001's revsplitK GEMV in Triton
(triton_gemv.py) on the two shapes of seed 001, BN 32..512, BK 16..64, warps 1/2/4/8, both source
orders. One JSON line per case in the runner's record form (`case`, `kind`, `workload` in the
simulator's schema, `measured`, `check`, `environment`); merge_ncu.py joins the ncu counters.

  triton_gemv_records.py --jsonl OUT.jsonl [--sass DIR]   # check + time every case; SASS atomics per config
  triton_gemv_records.py --profile                        # launch each case once (ncu -k regex:gemv_revsplitk)
  triton_gemv_records.py --list

Time: 5 event pairs around 10 back-to-back launches, W rotated over 4 copies so that no launch finds
W in L2 from the one before (a 58.7 MB W is larger than neither L2 by much). Registers, spills and
the reduction instruction (RED or ATOM, counted in the cubin's SASS with cuobjdump) per config."""
import argparse, json, os, re, subprocess, sys, tempfile

SHAPES = [(4096, 7168), (8192, 28672)]  # (K, N) of seed 001
BASE = (256, 64, 4)  # (BN, BK, warps)
# One parameter at a time around the base, plus the corners the issue names (tiny blocks, 8 warps).
CONFIGS = sorted({BASE,
                  *[(bn, 64, 4) for bn in (32, 64, 128, 512)],
                  *[(256, bk, 4) for bk in (16, 32)],
                  *[(256, 64, w) for w in (1, 2, 8)],
                  (32, 16, 4), (64, 16, 1), (512, 64, 8), (128, 32, 8)})
ORDERS = ["llcc", "lclc"]
ROTATE = 4


def case_name(shape, cfg, order):
    k, n = shape
    bn, bk, w = cfg
    return f"triton_gemv_1x{k}x{n}_bn{bn}_bk{bk}_w{w}_{order}"


def chosen(only=None):
    """The cases whose name the regular expression `only` matches (all without one), by shape: (shape, [(cfg, order,
    name, grid), ...]) for each shape with any, grid = the launch's (N / BN, K / (2 BK))."""
    for shape in SHAPES:
        k, n = shape
        picked = [(cfg, order, case_name(shape, cfg, order), (n // cfg[0], k // (2 * cfg[1])))
                  for cfg in CONFIGS for order in ORDERS
                  if not only or re.search(only, case_name(shape, cfg, order))]
        if picked:
            yield shape, picked


def gemv_inputs(shape):
    """x, the ROTATE copies of W and y of one shape, on the GPU, from the records' seed (every script that launches the
    records' GEMV launches it on these)."""
    import torch

    k, n = shape
    gen = torch.Generator(device="cuda").manual_seed(1001)
    x = torch.randn(k, device="cuda", dtype=torch.float16, generator=gen)
    Ws = [torch.randn(k, n, device="cuda", dtype=torch.float16, generator=gen) for _ in range(ROTATE)]
    y = torch.zeros(n, device="cuda", dtype=torch.float32)
    return x, Ws, y


def workload(shape, cfg, order, regs, spills):
    """The simulator's description of a case. Triton writes each lane's contiguous outputs with one
    vector RED (the SASS holds one RED per thread), so the atomics cover the block's outputs once:
    reduction_lane_elements 1. n_spills counts 4-byte local slots per thread."""
    k, n = shape
    bn, bk, w = cfg
    return {"kind": "gemv", "name": case_name(shape, cfg, order), "m": 1, "k": k, "n": n, "dtype": "fp16",
            "block": {"n": bn, "k": bk}, "k_steps": 2, "warps": w, "order": order, "reduction": "atomic_fp32",
            "reduction_lane_elements": 1, "registers_per_thread": regs, "spill_bytes_per_thread": f"{4 * spills}B"}


def finish(directory):
    """Adds the profile's shared-memory wavefronts per warp (Triton's cross-warp tl.sum and layout
    conversion, which the simulator does not derive from Triton's layouts) to each merged record's
    workload as reduction_smem_wavefronts, and rewrites the workload from the case and the compiler's
    numbers. Measured fields are not touched."""
    import glob
    done = 0
    for path in sorted(glob.glob(os.path.join(directory, "triton_gemv_*.json"))):
        rec = json.load(open(path))
        c = rec.get("ncu", {}).get("counters", {})
        wl = rec["workload"]
        shape = (wl["k"], wl["n"])
        cfg = (wl["block"]["n"], wl["block"]["k"], wl["warps"])
        new = workload(shape, cfg, wl["order"], rec["measured"]["registers_per_thread"], rec["measured"]["spills"])
        wf = c.get("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
        warps = c.get("launch__grid_size", 0) * wl["warps"]
        if wf is None or warps <= 0:
            sys.exit(f"{path}: no l1tex__data_pipe_lsu_wavefronts_mem_shared.sum or grid size in its ncu counters")
        new["reduction_smem_wavefronts"] = int(round(wf / warps))
        rec["workload"] = new
        rec["workload_sources"] = {"registers_per_thread": "Triton kernel.n_regs",
                                   "spill_bytes_per_thread": "4 x Triton kernel.n_spills",
                                   "reduction_smem_wavefronts": "ncu l1tex__data_pipe_lsu_wavefronts_mem_shared.sum / "
                                                                "(launch__grid_size x warps)"}
        with open(path, "w") as f:
            json.dump(rec, f, indent=1, sort_keys=False)
            f.write("\n")
        done += 1
    print(f"finished {done} records under {directory}")


def sass_of(kern):
    """SASS of a compiled Triton kernel: its cubin through cuobjdump (the GPU machine has it)."""
    with tempfile.NamedTemporaryFile(suffix=".cubin", delete=False) as f:
        f.write(kern.asm["cubin"])
        path = f.name
    try:
        return subprocess.run(["cuobjdump", "-sass", path], capture_output=True, text=True).stdout
    finally:
        os.unlink(path)


def atomic_counts(sass):
    return {"RED": len(re.findall(r"\bRED\.", sass)) + len(re.findall(r"\bREDG\.", sass)),
            "ATOM": len(re.findall(r"\bATOMG?\.", sass)),
            "LDG": len(re.findall(r"\bLDG\.", sass)), "STL": len(re.findall(r"\bSTL", sass)),
            "LDL": len(re.findall(r"\bLDL", sass)), "SHFL": len(re.findall(r"\bSHFL\.", sass)),
            "BAR": len(re.findall(r"\bBAR\.", sass))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jsonl")
    ap.add_argument("--sass", help="directory for one SASS file per compiled config")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", help="regular expression: only the cases whose name it matches")
    ap.add_argument("--finish", metavar="DIR", help="merged records: add the profile's facts to their workloads")
    a = ap.parse_args()
    if a.finish:
        finish(a.finish)
        return
    if a.list:
        for _, picked in chosen(a.only):
            for _, _, name, _ in picked:
                print(name)
        return
    import torch, triton

    from triton_gemv import gemv_revsplitk

    from triton_env import record_environment

    env = record_environment("triton_gemv_records.py")
    out = open(a.jsonl, "w") if a.jsonl else None
    for shape, picked in chosen(a.only):
        k, n = shape
        x, Ws, y = gemv_inputs(shape)
        ref = (x.double()[None, :] @ Ws[0].double())[0]
        for cfg, order, name, grid in picked:
            bn, bk, w = cfg

            def launch(W):
                return gemv_revsplitk[grid](x, W, y, k, n, BN=bn, BK=bk, LCLC=int(order == "lclc"), num_warps=w)

            if a.profile:
                y.zero_()
                print("profiled", name, flush=True)
                launch(Ws[0])
                torch.cuda.synchronize()
                continue
            y.zero_()
            kern = launch(Ws[0])
            torch.cuda.synchronize()
            rel = ((y.double() - ref).norm() / ref.norm()).item()
            passed = bool(torch.isfinite(y).all().item()) and rel < 1e-4
            times = []
            for rep in range(5):
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                launch(Ws[1])
                e0.record()
                for i in range(10):
                    launch(Ws[(i + rep) % ROTATE])
                e1.record()
                e1.synchronize()
                times.append(e0.elapsed_time(e1) * 1e6 / 10)
            times.sort()
            med = times[len(times) // 2]
            sass = sass_of(kern)
            ops = atomic_counts(sass)
            if a.sass:
                os.makedirs(a.sass, exist_ok=True)
                with open(os.path.join(a.sass, f"gemv_bn{bn}_bk{bk}_w{w}_{order}.sass"), "w") as f:
                    f.write(sass)
            regs = int(kern.n_regs)
            rec = {"case": name, "kind": "gemv", "workload": workload(shape, cfg, order, regs, int(kern.n_spills)),
                   "measured": {"time_ns.median": med, "time_ns.min": times[0], "time_ns.max": times[-1],
                                "reps": 50, "input_sets_rotated": ROTATE,
                                "achieved_gbps": 2.0 * k * n / med, "registers_per_thread": regs,
                                "spills": int(kern.n_spills), "shared_mem_per_cta": int(kern.metadata.shared),
                                "sass_ops": ops,
                                "reduction_instruction": "ATOM" if ops["ATOM"] and not ops["RED"] else
                                ("RED" if ops["RED"] and not ops["ATOM"] else "mixed" if ops["RED"] else "none")},
                   "check": {"passed": passed, "relative_error": rel, "tolerance": 1e-4,
                             "method": "all outputs vs fp64 reference"},
                   "environment": env}
            print(name, f"{med / 1e3:.1f} us", f"{rec['measured']['achieved_gbps']:.0f} GB/s", "regs", regs,
                  "spills", kern.n_spills, rec["measured"]["reduction_instruction"], ops,
                  f"rel {rel:.1e}", "ok" if passed else "FAILED", flush=True)
            if out:
                out.write(json.dumps(rec) + "\n")
    if out:
        out.close()


if __name__ == "__main__":
    main()


def stamped_cases(only, kernel, stamped_kernel):
    """Each chosen case (its name matching `only`) of `kernel` and its stamped twin `stamped_kernel` (the stamped one
    takes a stamps tensor of five int64 a program after y, K, N), launched as the records launch them: (name, programs,
    plain, stamped, stamps) - plain() and stamped() launch one kernel each on the next of the ROTATE W copies and
    return it, stamps is the stamped kernel's zeroed int64 tensor of programs x 5. On the GPU machine."""
    import torch

    for shape, picked in chosen(only):
        k, n = shape
        x, Ws, y = gemv_inputs(shape)
        for cfg, order, name, grid in picked:
            bn, bk, w = cfg
            programs = grid[0] * grid[1]
            stamps = torch.zeros(programs * 5, device="cuda", dtype=torch.int64)
            meta = dict(BN=bn, BK=bk, LCLC=int(order == "lclc"), num_warps=w)
            turn = [0]

            def next_w(turn=turn):
                turn[0] += 1
                return Ws[turn[0] % ROTATE]

            def plain(grid=grid, meta=meta, next_w=next_w):
                return kernel[grid](x, next_w(), y, k, n, **meta)

            def stamped(grid=grid, meta=meta, next_w=next_w, stamps=stamps):
                return stamped_kernel[grid](x, next_w(), y, k, n, stamps, **meta)

            yield name, programs, plain, stamped, stamps


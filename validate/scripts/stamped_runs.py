"""One stamped case of triton_cta_times.py and triton_gemv_cta_times.py: the plain and the stamped kernel timed
(time_launches), then `runs` stamped runs whose stamps (five int64 a CTA: sm, gt_start_ns, gt_end_ns, clk_start,
clk_end) are written as DIR/<case>_run<r>.csv.gz - the columns of gms-cta-times, read by cta_stamps.py. Imported on
the GPU machine (torch and triton there)."""
import gzip
import json
import os


def stamped_case(name, ctas, runs, out_dir, env, plain, stamped, stamps, before_run=None):
    """The case's record (plain and stamped medians, registers; or its error - one failing case must not lose the
    others). `plain` and `stamped` launch the kernels and return them, `stamps` is the stamped kernel's int64 tensor
    of ctas x 5, `before_run` (if any) is launched before each stamped run."""
    import torch

    from triton_env import time_launches

    try:
        kp, ks = plain(), stamped()
        torch.cuda.synchronize()
        tp, ts = time_launches(plain), time_launches(stamped)
        for r in range(runs):
            if before_run:
                before_run()
            stamps.zero_()
            stamped()
            torch.cuda.synchronize()
            write_stamps(os.path.join(out_dir, f"{name}_run{r}.csv.gz"), stamps.view(ctas, 5).cpu().tolist())
        return {"case": name, "plain_ns.median": tp[len(tp) // 2], "stamped_ns.median": ts[len(ts) // 2],
                "registers_plain": int(kp.n_regs), "registers_stamped": int(ks.n_regs),
                "spills_stamped": int(ks.n_spills), "ctas": ctas, "runs": runs, "environment": env}
    except Exception as e:  # noqa: BLE001 - recorded, the next case goes on
        return {"case": name, "error": repr(e)}


def write_stamps(path, rows):
    with gzip.open(path, "wt") as f:
        f.write("cta,sm,gt_start_ns,gt_end_ns,clk_start,clk_end\n")
        for cta, (sm, g0, g1, c0, c1) in enumerate(rows):
            f.write(f"{cta},{sm},{g0},{g1},{c0},{c1}\n")


def emit(out, rec):
    """Prints the record without its environment and appends it whole to the open JSON-lines file `out`."""
    print(json.dumps({k: v for k, v in rec.items() if k != "environment"}), flush=True)
    out.write(json.dumps(rec) + "\n")

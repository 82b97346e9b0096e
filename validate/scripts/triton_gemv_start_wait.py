#!/usr/bin/env python3
"""How long the Triton GEMV's new programs wait for their first S2R (issue 11: what the fitted start gate
`sm.mio_start_backlog` stands for on the large shape). triton_gemv.py's `gemv_revsplitk_start_stamped` - the
records' GEMV with %clock64 at entry and once its first %tid.x read (S2R) is back, and at its end - on the chosen
cases, launched as triton_gemv_records.py launches them (W rotated over 4 copies, a plain launch before each
stamped run). Per case: plain and stamped medians, registers, and per run the start waits (clk_s2r - clk_entry) of
the first wave (the programs an SM started before its first program ended) and of the later programs, and the
programs' durations; the stamps as <case>_run<r>.csv.gz (`cta,sm,clk_entry,clk_s2r,clk_end`).

  triton_gemv_start_wait.py --out DIR [--only REGEX] [--runs 2]

Writes DIR/triton_gemv_start_wait.jsonl; read by triton_gemv_start_wait_model.py."""
import argparse, gzip, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stamped_runs import emit  # noqa: E402
from triton_gemv_records import stamped_cases  # noqa: E402


def quantiles(v):
    v = sorted(v)
    if not v:
        return None
    q = lambda f: v[min(len(v) - 1, int(f * len(v)))]  # noqa: E731
    return {"n": len(v), "p10": q(0.1), "median": q(0.5), "p90": q(0.9), "mean": sum(v) / len(v)}


def summary(rows):
    """rows: (cta, sm, clk_entry, clk_s2r, clk_end). First wave per SM: started before that SM's first end."""
    first_end = {}
    for _, sm, c0, _, c1 in rows:
        first_end[sm] = min(first_end.get(sm, c1), c1)
    first = [cs - c0 for _, sm, c0, cs, _ in rows if c0 < first_end[sm]]
    later = [cs - c0 for _, sm, c0, cs, _ in rows if c0 >= first_end[sm]]
    return {"start_wait_first_wave": quantiles(first), "start_wait_later": quantiles(later),
            "duration": quantiles([c1 - c0 for _, _, c0, _, c1 in rows])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="regular expression: only the cases whose name it matches")
    ap.add_argument("--runs", type=int, default=2)
    a = ap.parse_args()
    import torch

    from triton_env import record_environment, time_launches
    from triton_gemv import gemv_revsplitk, gemv_revsplitk_start_stamped

    os.makedirs(a.out, exist_ok=True)
    env = record_environment("triton_gemv_start_wait.py")
    with open(os.path.join(a.out, "triton_gemv_start_wait.jsonl"), "w") as out:
        for name, programs, plain, stamped, stamps in stamped_cases(a.only, gemv_revsplitk, gemv_revsplitk_start_stamped):
            try:
                kp, ks = plain(), stamped()
                torch.cuda.synchronize()
                tp, ts = time_launches(plain), time_launches(stamped)
                rec = {"case": name, "plain_ns.median": tp[len(tp) // 2], "stamped_ns.median": ts[len(ts) // 2],
                       "registers_plain": int(kp.n_regs), "registers_stamped": int(ks.n_regs),
                       "spills_stamped": int(ks.n_spills), "ctas": programs, "runs": []}
                for r in range(a.runs):
                    plain()
                    stamps.zero_()
                    stamped()
                    torch.cuda.synchronize()
                    rows = [(i, *v[:4]) for i, v in enumerate(stamps.view(programs, 5).cpu().tolist())]
                    with gzip.open(os.path.join(a.out, f"{name}_run{r}.csv.gz"), "wt") as f:
                        f.write("cta,sm,clk_entry,clk_s2r,clk_end\n")
                        f.writelines(f"{c},{s},{c0},{cs},{c1}\n" for c, s, c0, cs, c1 in rows)
                    rec["runs"].append(summary(rows))
                rec["environment"] = env
            except Exception as e:  # noqa: BLE001 - recorded, the next case goes on
                rec = {"case": name, "error": repr(e)}
            emit(out, rec)


if __name__ == "__main__":
    main()

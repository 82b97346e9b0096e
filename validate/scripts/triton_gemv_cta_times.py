#!/usr/bin/env python3
"""When the Triton GEMV's programs start and end (issue 11: do silicon's waves of programs stay in step, as the
model's do - its DRAM then alternates between saturated and idle - or drift apart?).

triton_gemv.py's `gemv_revsplitk_stamped` - the records' GEMV with %globaltimer / %clock64 stamps at entry and
after its atomics, and %smid - on the records' shapes, configurations and orders, launched as
triton_gemv_records.py launches them (W rotated over 4 copies): per case five plain timings of the GEMV and of
the stamped one (the stamps' cost), then three stamped runs written as <case>_run<r>.csv.gz (`cta,sm,gt_start_ns,
gt_end_ns,clk_start,clk_end`, the columns of gms-cta-times; cta = the program's linear index, pid_0 fastest),
read by cta_spread.py and triton_gemv_waves.py.

  triton_gemv_cta_times.py --out DIR [--only REGEX] [--runs 3]

Writes DIR/triton_gemv_cta_times.jsonl (one line per case: plain and stamped medians, registers)."""
import argparse, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stamped_runs import emit, stamped_case  # noqa: E402
from triton_gemv_records import stamped_cases  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", help="regular expression: only the cases whose name it matches")
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    from triton_env import record_environment
    from triton_gemv import gemv_revsplitk, gemv_revsplitk_stamped

    os.makedirs(a.out, exist_ok=True)
    env = record_environment("triton_gemv_cta_times.py")
    with open(os.path.join(a.out, "triton_gemv_cta_times.jsonl"), "w") as out:
        for name, programs, plain, stamped, stamps in stamped_cases(a.only, gemv_revsplitk, gemv_revsplitk_stamped):
            # Before each stamped run a plain one leaves the L2 as a record's launch finds it.
            emit(out, stamped_case(name, programs, a.runs, a.out, env, plain, stamped, stamps, before_run=plain))


if __name__ == "__main__":
    main()

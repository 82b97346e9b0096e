#!/usr/bin/env python3
"""The model's side of gms-lrc-ubench's curve (validate/results/h100/lrc): for each case, writes the
ubench's trace (lrc_trace.py) to a temporary folder, replays it with gpumemsim on a GPU preset and
prints the lookups per delivered sector (lts__t_sectors_srcunit_tex_op_read / l1tex__m_xbar2l1tex_read_sectors)
beside silicon's, and the kernel's time (gpu__time_duration.sum) beside silicon's median.

  lrc_model_check.py GPUMEMSIM PRESET RESULTS_DIR [--cases 1/0,128/0,2112/0] [--check TOLERANCE] [--set KEY=VALUE ...]

--check: exit 1 if any case is further than TOLERANCE from silicon."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import lrc_capacity  # noqa: E402
from accelsim_trace import trace_metrics  # noqa: E402


def silicon(results):
    """Per (groups, stagger): lookups per delivered sector and the median time in microseconds."""
    cases = [json.loads(l) for l in open(os.path.join(results, "lrc_ubench.jsonl")) if l.strip()]
    rows = lrc_capacity.ncu_rows(os.path.join(results, "lrc_ncu.csv"))
    return {(c["groups"], c["stagger"]): (lrc_capacity.num(r, "lts__t_sectors_srcunit_tex_op_read.sum") /
                                          lrc_capacity.num(r, "l1tex__m_xbar2l1tex_read_sectors.sum"),
                                          c["ms.median"] * 1000.0) for c, r in zip(cases, rows[1::2])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpumemsim")
    ap.add_argument("preset")
    ap.add_argument("results")
    ap.add_argument("--cases", default="1/0,16/0,128/0,1024/0,2112/0")
    ap.add_argument("--check", type=float)
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    measured = silicon(a.results)
    bad, merge_diffs, time_errors = [], [], []
    print("| groups / stagger | lookups per sector: model | silicon | time (us): model | silicon |")
    print("|---|---|---|---|---|")
    for case in a.cases.split(","):
        g, s = (int(v) for v in case.split("/"))
        if (g, s) not in measured:
            sys.exit(f"lrc_model_check: silicon has no case {g}/{s}")
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, os.path.join(here, "lrc_trace.py"), str(g), str(s), os.path.join(tmp, "t")],
                           check=True)
            m = trace_metrics(a.gpumemsim, a.preset, os.path.join(tmp, "t", "kernelslist.g"), tmp, a.set)
        model = m["lts__t_sectors_srcunit_tex_op_read.sum"] / m["l1tex__m_xbar2l1tex_read_sectors.sum"]
        model_us = m["gpu__time_duration.sum"] / 1000.0
        ratio, silicon_us = measured[(g, s)]
        merge_diffs.append(abs(model - ratio))
        time_errors.append(abs(model_us / silicon_us - 1.0))
        print(f"| {g} / {s} | {model:.3f} | {ratio:.3f} | {model_us:.1f} | {silicon_us:.1f} |")
        if a.check is not None and abs(model - ratio) > a.check:
            bad.append(f"{g}/{s}: model {model:.3f}, silicon {ratio:.3f}")
    print(f"mean abs. difference of lookups per sector {sum(merge_diffs) / len(merge_diffs):.3f}, "
          f"mean abs. time error {100.0 * sum(time_errors) / len(time_errors):.1f} % over {len(merge_diffs)} cases")
    if bad:
        sys.exit(f"lrc_model_check: further than {a.check} from silicon: " + "; ".join(bad))


if __name__ == "__main__":
    main()

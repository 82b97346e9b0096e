#!/usr/bin/env python3
"""Silicon's start waits of the Triton GEMV (triton_gemv_start_wait.py's records) beside the model's: per case, the
first wave's and the later programs' wait for their first S2R (silicon: clk_s2r - clk_entry, warp 0's, with the
S2R's ~30-cycle latency and the stamps' own cycles; the model: ctas.csv's first_special_read_cycle - start_cycle, the
S2R's issue) and the programs' durations, in SM cycles. The model replays each case's record
(validate/results/<gpu>/triton_gemv/<case>.json) at the stamped kernel's registers.

  triton_gemv_start_wait_model.py DIR --model BIN --gpu configs/gpus/h200.yaml [--records DIR] [--set K=V ...]
      [--only REGEX] [--json OUT]

Exit 2 on a usage error."""
import argparse, csv, json, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triton_gemv_start_wait import summary  # noqa: E402


def model_summary(ctas_csv):
    """summary() of a model run's ctas.csv: the S2R's issue in place of silicon's clock read behind it."""
    rows = [(int(r["launch_index"]), r["sm"], int(r["start_cycle"]), int(r["first_special_read_cycle"]), int(r["end_cycle"]))
            for r in csv.DictReader(open(ctas_csv)) if r["first_special_read_cycle"]]
    return summary(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--model", required=True)
    ap.add_argument("--gpu", required=True)
    ap.add_argument("--records", help="the records' directory (default: DIR/../triton_gemv)")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--only")
    ap.add_argument("--json")
    a = ap.parse_args()
    path = os.path.join(a.dir, "triton_gemv_start_wait.jsonl")
    if not os.path.isfile(path) or not os.access(a.model, os.X_OK):
        print(f"{sys.argv[0]}: need {path} and an executable --model", file=sys.stderr)
        sys.exit(2)
    records = a.records or os.path.join(a.dir, "..", "triton_gemv")
    rows = []
    print("| case | source | first wave: start wait p10 / median / p90 | later: p10 / median / p90 (mean) | duration median |")
    print("|---|---|---|---|---|")
    for line in open(path):
        s = json.loads(line)
        if "error" in s or (a.only and not re.search(a.only, s["case"])):
            continue
        with tempfile.TemporaryDirectory() as out:
            cmd = [a.model, "run", "-q", "-g", a.gpu, "--record", os.path.join(records, s["case"] + ".json"),
                   "--set", f"workload.registers_per_thread={s['registers_stamped']}", "-o", out]
            for kv in a.set:
                cmd += ["--set", kv]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            m = model_summary(os.path.join(out, "ctas.csv"))
        for source, q in [(f"silicon run {i}", r) for i, r in enumerate(s["runs"])] + [("model", m)]:
            f, l, d = q["start_wait_first_wave"], q["start_wait_later"], q["duration"]
            later = f"{l['p10']} / {l['median']} / {l['p90']} ({l['mean']:.0f})" if l else "-"
            print(f"| {s['case']} | {source} | {f['p10']} / {f['median']} / {f['p90']} | {later} | {d['median']} |")
        rows.append({"case": s["case"], "silicon": s["runs"], "model": m})
    if a.json:
        json.dump({"gpu": a.gpu, "sets": a.set, "cases": rows}, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()

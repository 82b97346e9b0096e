#!/usr/bin/env python3
"""docs/results/recommend-<gpu>.md from a recommend_check.py measurement (issue 14): per shape, every
measured configuration with its predicted time (the recommend JSON, or gpumemsim.run for the
autotune entries recommend did not rank), measured time and the ranks; whether recommend's first
pick is within 10 % of the best measured configuration; Spearman of predicted vs measured time.

  PYTHONPATH=build/python validate/scripts/recommend_table.py --gpu h100 \\
      --measured validate/results/h100/recommend/recommend.jsonl \\
      --predicted validate/results/h100/recommend/predicted --out docs/results/recommend-h100.md"""
import argparse, glob, json, os, sys

import gpumemsim

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_stats import spearman  # noqa: E402


def predict(gpu, workload_text, label):
    tile, w, s, g = label.split()
    bm, bn, bk = tile.split("x")
    sets = ["workload.tile.m=" + bm, "workload.tile.n=" + bn, "workload.tile.k=" + bk, "workload.warps=" + w[1:],
            "workload.stages=" + s[1:], "workload.cta_order.group_m=" + g[1:]]
    path = "/tmp/recommend_table_workload.yaml"
    with open(path, "w") as f:
        f.write(workload_text)
    try:
        return gpumemsim.run(gpu, path, set=sets, ctas=False)["gpu__time_duration.sum"], ""
    except gpumemsim.ConfigError as e:
        return None, str(e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu", required=True)
    ap.add_argument("--measured", required=True)
    ap.add_argument("--predicted", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    preds = {}
    for p in sorted(glob.glob(os.path.join(a.predicted, "*.json"))):
        r = json.load(open(p))
        preds[(r["m"], r["n"], r["k"])] = r
    rows = [json.loads(l) for l in open(a.measured)]
    env = next((r["environment"] for r in rows if "environment" in r), {})
    md = ["# `gpumemsim recommend` against silicon (%s)" % env.get("gpu", "?"), "",
          "Measured with `validate/scripts/device_recommend.sh` (Triton %s, PyTorch %s; tutorial matmul, median of "
          "5 x 10 launches); predicted by `gpumemsim recommend -g %s` (the JSON under `%s`). Regenerate this page "
          "with `validate/scripts/recommend_table.py` (its docstring has the command)." %
          (env.get("triton", "?"), env.get("torch", "?"), a.gpu, a.predicted), ""]
    summary = []
    for shape, rec in preds.items():
        m, n, k = shape
        mine = [r for r in rows if tuple(r["shape"]) == shape]
        pred_by_label = {c["config"]: c["gpu__time_duration.sum"] for c in rec["ranked"]}
        rank_by_label = {c["config"]: i + 1 for i, c in enumerate(rec["ranked"])}
        excluded = {c["config"]: c["excluded"] for c in rec["excluded"]}
        table = []
        for r in mine:
            label = r["config"]
            p = pred_by_label.get(label)
            note = ""
            if p is None and label in excluded and not excluded[label].startswith("spills"):
                note = excluded[label]
            elif p is None:
                # Autotune's entries recommend did not rank, and the spilling tilings it left out when
                # the model did not price spills: today's model (the spill frame estimated).
                p, note = predict(a.gpu, rec["workload"], label)
                if label in excluded:
                    note = "left out then (%s); priced now, its spill frame estimated" % excluded[label].split(";")[0]
            t = r.get("time_ns.median")
            table.append({"label": label, "sources": ",".join(r["sources"]), "pred": p, "meas": t,
                          "regs": r.get("registers_per_thread"), "spills": r.get("spills"),
                          "ok": r.get("check", {}).get("passed"), "error": r.get("error", ""), "note": note,
                          "rank": rank_by_label.get(label)})
        ran = [x for x in table if x["meas"] is not None and x["ok"]]
        best = min(ran, key=lambda x: x["meas"])
        first = next(x for x in table if x["sources"].startswith("recommend#1"))
        auto = min((x for x in ran if "autotune" in x["sources"]), key=lambda x: x["meas"])
        both = [x for x in ran if x["pred"] is not None]
        rho = spearman([x["pred"] for x in both], [x["meas"] for x in both])
        gap = 100.0 * (first["meas"] / best["meas"] - 1)
        summary.append((shape, first, best, auto, gap, rho, len(both)))
        md += ["## GEMM %dx%dx%d fp16" % shape, "",
               "First pick **%s**: %.1f us measured; best measured **%s** %.1f us -> the pick is %s (%.1f %% slower "
               "than the best). Triton autotune's choice (best of its list): %s, %.1f us. Spearman of predicted vs "
               "measured time over the %d configurations both have: %+.2f." %
               (first["label"], first["meas"] / 1e3, best["label"], best["meas"] / 1e3,
                "within 10 %" if gap <= 10 else "NOT within 10 %", gap, auto["label"], auto["meas"] / 1e3, len(both),
                rho), "",
               "| config | source | recommend rank | predicted us | measured us | pred/meas | regs | spills | note |",
               "|---|---|---|---|---|---|---|---|---|"]
        for x in sorted(table, key=lambda x: (x["meas"] is None, x["meas"] or 0)):
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                x["label"], x["sources"], x["rank"] or "-", "%.1f" % (x["pred"] / 1e3) if x["pred"] else "-",
                "%.1f" % (x["meas"] / 1e3) if x["meas"] else "-",
                "%.2f" % (x["pred"] / x["meas"]) if x["pred"] and x["meas"] else "-", x["regs"] if x["regs"] else "-",
                x["spills"] if x["spills"] is not None else "-",
                (x["error"] or x["note"] or ("" if x["ok"] in (None, True) else "check failed"))[:90]))
        md.append("")
    md[len(md):] = ["## Summary", "", "| shape | first pick | measured us | best measured | us | pick vs best | "
                    "autotune's choice | us | Spearman |", "|---|---|---|---|---|---|---|---|---|"]
    for shape, first, best, auto, gap, rho, nb in summary:
        md.append("| %dx%dx%d | %s | %.1f | %s | %.1f | %+.1f %% | %s | %.1f | %+.2f (%d) |" % (
            shape + (first["label"], first["meas"] / 1e3, best["label"], best["meas"] / 1e3, gap, auto["label"],
                     auto["meas"] / 1e3, rho, nb)))
    within = sum(1 for x in summary if x[4] <= 10)
    beats = sum(1 for x in summary if x[1]["meas"] <= x[3]["meas"] * 1.0001)
    md += ["", "First pick within 10 %% of the best measured configuration on %d of %d shapes; as fast as or faster "
           "than Triton autotune's choice on %d of %d. Spilling tilings ran %.0f-%.0fx slower than the best measured "
           "configuration of their shape." % (
               within, len(summary), beats, len(summary),
               min(min(r["time_ns.median"] for r in rows if tuple(r["shape"]) == s[0] and "spill" in r["sources"]) /
                   s[2]["meas"] for s in summary),
               max(max(r["time_ns.median"] for r in rows if tuple(r["shape"]) == s[0] and "spill" in r["sources"]) /
                   s[2]["meas"] for s in summary))]
    open(a.out, "w").write("\n".join(md) + "\n")
    print("\n".join(md[-len(summary) - 2:]))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""docs/results/recommend-<gpu>.md from a recommend_check.py measurement (issue 14): per shape, every
measured configuration and recommend's top picks with the predicted time (the recommend JSON, or a
one-configuration `gpumemsim recommend` for the autotune entries it did not rank), the measured time,
the ranks and the tensor-core class (the model's, as Triton compiles it, beside the compiled PTX's);
whether recommend's first pick is within 10 % of the best measured configuration; Spearman of predicted
vs measured time.

  validate/scripts/recommend_table.py --gpu h200 [--gpumemsim build/gpumemsim] \\
      --measured validate/results/h200/recommend/recommend.jsonl \\
      --predicted validate/results/h200/recommend/predicted --out docs/results/recommend-h200.md

The sources (recommend#N, autotune, spill) are taken from the predictions given, so a measurement older
than them shows which of today's picks it has; a pick it lacks is listed, unmeasured."""
import argparse, glob, json, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_stats import spearman  # noqa: E402
from recommend_check import AUTOTUNE, label_of  # noqa: E402


def predict(binary, gpu, shape, label):
    """(time ns or None, tensor-core class, note): one configuration through `gpumemsim recommend`, so it takes
    the class and the spill estimate recommend gives every candidate."""
    tile, w, s, g = label.split()
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "one.json")
        p = subprocess.run([binary, "recommend", "-g", gpu, "--gemm", ",".join(map(str, shape)), "--tiles", tile,
                            "--warps", w[1:], "--stages", s[1:], "--group-m", g[1:], "-j", "1", "--json", out],
                           capture_output=True, text=True)
        if not os.path.exists(out):
            return None, "-", (p.stderr or p.stdout).strip().splitlines()[-1][:90]
        r = json.load(open(out))
    c = (r["ranked"] + r["excluded"])[0]
    return c.get("gpu__time_duration.sum"), c.get("mma", "-"), c.get("excluded", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpu", required=True)
    ap.add_argument("--gpumemsim", default="build/gpumemsim")
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
    env_txt = os.path.join(os.path.dirname(a.measured), "recommend_env.txt")
    when = next((l.split()[1][:10] for l in open(env_txt) if l.startswith("date:")), "?") if os.path.exists(env_txt) else "?"
    md = ["# `gpumemsim recommend` against silicon (%s)" % env.get("gpu", "?"), "",
          "Measured with `validate/scripts/device_recommend.sh` (Triton %s, PyTorch %s; tutorial matmul, median of "
          "5 x 10 launches); predicted by `gpumemsim recommend -g %s` (the JSON under `%s`). Regenerate this page "
          "with `validate/scripts/recommend_table.py` (its docstring has the command). mma: the tensor-core class "
          "of the model (as Triton compiles the tile and warps) / of the compiled kernel (its PTX; `?` where the "
          "measurement predates the record)." %
          (env.get("triton", "?"), env.get("torch", "?"), a.gpu, a.predicted), ""]
    summary = []
    for shape, rec in preds.items():
        m, n, k = shape
        measured = {r["config"]: r for r in rows if tuple(r["shape"]) == shape}
        pred_by_label = {c["config"]: c for c in rec["ranked"]}
        rank_by_label = {c["config"]: i + 1 for i, c in enumerate(rec["ranked"])}
        excluded = {c["config"]: c["excluded"] for c in rec["excluded"]}
        sources = {}
        for i, c in enumerate(rec["ranked"][:5]):
            sources.setdefault(c["config"], []).append("recommend#%d" % (i + 1))
        for c in AUTOTUNE:
            sources.setdefault(label_of(c), []).append("autotune")
        for label, r in measured.items():
            if "spill" in r["sources"]:
                sources.setdefault(label, []).append("spill")
        table = []
        for label, srcs in sources.items():
            r = measured.get(label, {})
            c = pred_by_label.get(label)
            p, mma, note = (c["gpu__time_duration.sum"], c.get("mma", "-"), "") if c else (None, "-", "")
            if c is None and label in excluded and not excluded[label].startswith("spills"):
                note = excluded[label]
            elif c is None:
                # Autotune's entries recommend did not rank, and the spilling tilings it left out when
                # the model did not price spills: today's model (the spill frame estimated).
                p, mma, note = predict(a.gpumemsim, a.gpu, shape, label)
                if label in excluded:
                    note = "left out then (%s); priced now, its spill frame estimated" % excluded[label].split(";")[0]
            if not r:
                note = "not measured: not a pick when silicon ran (%s)" % when
            table.append({"label": label, "sources": ",".join(srcs), "pred": p, "meas": r.get("time_ns.median"),
                          "regs": r.get("registers_per_thread"), "spills": r.get("spills"),
                          "mma": "%s / %s" % (mma, r.get("mma_class", "?") if r else "-"),
                          "ok": r.get("check", {}).get("passed"), "error": r.get("error", ""), "note": note,
                          "rank": rank_by_label.get(label)})
        ran = [x for x in table if x["meas"] is not None and x["ok"]]
        best = min(ran, key=lambda x: x["meas"])
        first = next(x for x in table if x["sources"].startswith("recommend#1"))
        auto = min((x for x in ran if "autotune" in x["sources"]), key=lambda x: x["meas"])
        both = [x for x in ran if x["pred"] is not None]
        rho = spearman([x["pred"] for x in both], [x["meas"] for x in both])
        if first["meas"] is None:
            sys.exit("%s: the first pick %s of %dx%dx%d was not measured: measure today's picks first "
                     "(device_recommend.sh)" % (a.measured, first["label"], m, n, k))
        gap = 100.0 * (first["meas"] / best["meas"] - 1)
        summary.append((shape, first, best, auto, gap, rho, len(both)))
        md += ["## GEMM %dx%dx%d fp16" % shape, "",
               "First pick **%s**: %.1f us measured; best measured **%s** %.1f us -> the pick is %s (%.1f %% slower "
               "than the best). Triton autotune's choice (best of its list): %s, %.1f us. Spearman of predicted vs "
               "measured time over the %d configurations both have: %+.2f." %
               (first["label"], first["meas"] / 1e3, best["label"], best["meas"] / 1e3,
                "within 10 %" if gap <= 10 else "NOT within 10 %", gap, auto["label"], auto["meas"] / 1e3, len(both),
                rho), "",
               "| config | source | recommend rank | predicted us | measured us | pred/meas | mma | regs | spills | note |",
               "|---|---|---|---|---|---|---|---|---|---|"]
        for x in sorted(table, key=lambda x: (x["meas"] is None, x["meas"] or 0)):
            md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                x["label"], x["sources"], x["rank"] or "-", "%.1f" % (x["pred"] / 1e3) if x["pred"] else "-",
                "%.1f" % (x["meas"] / 1e3) if x["meas"] else "-",
                "%.2f" % (x["pred"] / x["meas"]) if x["pred"] and x["meas"] else "-", x["mma"],
                x["regs"] if x["regs"] else "-",
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

#!/usr/bin/env python3
"""Markdown tables from `gpumemsim compare --json` output: the per-metric summary, the rank
correlations, the targets, and per case the time, DRAM read bytes and L2 hit rate side by side.
usage: scripts/compare_report.py compare.json > report.md"""
import json, sys

d = json.load(open(sys.argv[1]))
print("| metric | error over %d cases |" % len(d["cases"]))
print("|---|---|")
for m, s in d["summary"].items():
    v = s.get("mape_pct", s.get("mean_abs_error_pp"))
    print("| `%s` | %.1f %s |" % (m, v, "%" if "mape_pct" in s else "pp"))
print()
print("Spearman rank correlation of time within each group:\n")
sizes = d.get("spearman_time_group_sizes", {})
for g, r in d["spearman_time"].items():
    n = sizes.get(g)
    # Cases of one launch rank once (compare): say so where a group had some.
    note = " (%d launches of %d cases)" % (n["launches"], n["cases"]) if n and n["launches"] != n["cases"] else ""
    print("* %s: %+.2f%s" % (g, r, note))
if d.get("silicon_rank_noise"):
    # How far silicon's own ranking goes (groups whose records carry repeated rounds, validate/results/GPU/repeat):
    # the ceiling a Spearman against one measured round can reach, and the pairs silicon resolves in every round.
    sizes = d.get("spearman_time_group_sizes", {})
    print("\nSilicon against itself (repeated rounds):\n")
    print("| group | launches in rounds | silicon round vs round | the model vs the rounds' medians | pairs silicon resolves | the model orders as silicon |")
    print("|---|---|---|---|---|---|")
    for g, n in d["silicon_rank_noise"].items():
        launches = sizes.get(g, {}).get("launches")
        k = n.get("launches_with_rounds", launches)
        print("| %s | %s | %+.2f | %+.2f | %d of %d | %g |" % (g, "%d of %d" % (k, launches) if launches else k,
              n["silicon_round_vs_round_spearman"], n["model_vs_round_medians_spearman"], n["resolved_pairs"], n["pairs"],
              n["model_agrees_on"]))
if "targets" in d:
    print("\nTargets:\n")
    for t in d["targets"]:
        print("* %s `%s`: %s" % ("met" if t["passed"] else "MISSED", t["target"], t["reached"]))
for key, title in (("time_mape_by_record_set", "record set (the kernel)"), ("time_mape_by_group", "tiling (its CTA-order group)")):
    if d.get(key):
        print("\n| %s | time MAPE | cases |" % title)
        print("|---|---|---|")
        for g, v in d[key].items():
            print("| %s | %.1f %% | %d |" % (g, v["mape_pct"], v["n"]))
print()
cols = [("gpu__time_duration.sum", "time (us)", 1e-3), ("dram__bytes_read.sum", "DRAM read (MB)", 1e-6),
        ("lts__t_sector_hit_rate.pct", "L2 hit (%)", 1)]
print("| case | " + " | ".join("%s measured | simulated" % c[1] for c in cols) + " |")
print("|---|" + "---|---|" * len(cols))
for c in d["cases"]:
    cells = []
    for key, _, scale in cols:
        m = c["metrics"].get(key)
        cells += ["%.1f" % (m["measured"] * scale), "%.1f" % (m["simulated"] * scale)] if m else ["", ""]
    print("| %s | %s |" % (c["case"], " | ".join(cells)))

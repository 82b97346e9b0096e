#!/usr/bin/env python3
"""scripts/join_compare.py on the committed scorecards: joining a scorecard with a part cut from itself (some
groups' cases, Spearman and MAPE entries, as a rerun of those record sets would give) returns the scorecard
unchanged; a part whose measured values are another record's, or that splits a group, is refused (exit 2); a part
whose simulated values moved changes the recomputed summary by exactly those cases.

  join_compare_test.py REPO"""
import copy
import json
import lzma
import os
import random
import subprocess
import sys
import tempfile


def run(repo, base, part, tmp):
    paths = [os.path.join(tmp, n) for n in ("base.json", "part.json", "out.json")]
    for p, d in zip(paths, (base, part)):
        with open(p, "w") as f:
            json.dump(d, f)
    r = subprocess.run([sys.executable, os.path.join(repo, "scripts/join_compare.py"), *paths], capture_output=True, text=True)
    out = json.load(open(paths[2])) if r.returncode == 0 else None
    return r.returncode, out


def cut(base, groups):
    part = {"gpu": base["gpu"], "cases": copy.deepcopy([c for c in base["cases"] if c["group"] in groups])}
    for key in ("spearman_time", "spearman_time_group_sizes", "time_mape_by_group"):
        part[key] = {g: v for g, v in base.get(key, {}).items() if g in groups}
    part["time_mape_by_record_set"] = {}
    return part


def main():
    repo = sys.argv[1]
    failures = 0
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        for gpu in ("h100", "h200"):
            base = json.load(lzma.open(os.path.join(repo, f"docs/results/{gpu}-compare.json.xz"), "rt"))
            groups = sorted({c["group"] for c in base["cases"]})
            for trial in range(4):
                chosen = set(rng.sample(groups, k=1 + trial))
                code, out = run(repo, base, cut(base, chosen), tmp)
                if code != 0 or out != base:
                    print(f"FAIL {gpu}: joining a cut of {sorted(chosen)} changed the scorecard (exit {code})")
                    failures += 1
            # A part from other records (a measured value differs): refused.
            part = cut(base, {groups[0]})
            bad = copy.deepcopy(part)
            m = next(iter(bad["cases"][0]["metrics"].values()))
            m["measured"] = m["measured"] * 1.5 + 1
            code, _ = run(repo, base, bad, tmp)
            if code != 2:
                print(f"FAIL {gpu}: another record's measurements were not refused (exit {code})")
                failures += 1
            # A group split between the runs: refused.
            group = next(g for g in groups if sum(c["group"] == g for c in base["cases"]) > 1)
            split = cut(base, {group})
            split["cases"] = split["cases"][1:]
            code, _ = run(repo, base, split, tmp)
            if code != 2:
                print(f"FAIL {gpu}: a split group was not refused (exit {code})")
                failures += 1
            # A rerun whose time moved: the summary follows those cases only.
            moved = cut(base, {group})
            for c in moved["cases"]:
                t = c["metrics"]["gpu__time_duration.sum"]
                t["error"] = t["error"] + 10.0
            code, out = run(repo, base, moved, tmp)
            n = base["summary"]["gpu__time_duration.sum"]["n"]
            want = base["summary"]["gpu__time_duration.sum"]["mape_pct"] + sum(
                abs(c["metrics"]["gpu__time_duration.sum"]["error"]) - abs(c["metrics"]["gpu__time_duration.sum"]["error"] - 10.0)
                for c in moved["cases"]) / n
            if code != 0 or abs(out["summary"]["gpu__time_duration.sum"]["mape_pct"] - want) > 1e-9:
                print(f"FAIL {gpu}: the summary did not follow the moved cases")
                failures += 1
    print("join_compare: all checks passed" if failures == 0 else f"join_compare: {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

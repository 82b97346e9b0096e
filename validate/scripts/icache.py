#!/usr/bin/env python3
"""What a loop larger than the instruction caches costs (validate/scripts/device_icache.sh, gms-icache-ubench): per
loop size (its SASS from the env file's per-kernel counts), warps a sub-partition and how the warps reach the loop's
head (`held` 0: free; 1: at a barrier; 2: a load and a barrier; 3: at a barrier, an SM's second CTA half a pass behind
its first), a pass's cycles over the
issue-bound pass (one FFMA a cycle a sub-partition), the spread of the SMs' mean passes ((p10-p90) / median) and of a
warp's own passes (coefficient of variation).

    validate/scripts/icache.py validate/results/h200/icache [--check]

--check: exit 1 unless the two regimes the record shows hold - loops of up to 2,200 SASS instructions (~34 KB) within
20 % of the issue bound with the SMs alike (spread <= 5 %), and loops of 3,000 or more with one warp a sub-partition
at least 2x the bound and the SMs apart (spread >= 10 %) while a warp's own passes stay within 5 % of each other.
"""
import argparse
import json
import re
import sys
from pathlib import Path

from check_result import report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    run, env = a.folder / "icache_run.jsonl", a.folder / "icache_env.txt"
    if not run.exists() or not env.exists():
        sys.exit(f"icache.py: {a.folder} lacks icache_run.jsonl or icache_env.txt")
    # per (FFMA, held) the kernel's SASS instructions (a record from before `held` has one kernel per size)
    sass = {(int(m.group(1)), int(m.group(2) or 0)): int(m.group(3))
            for m in re.finditer(r"icache_loopILi(\d+)E(?:Li(\d+)E)?\S* (\d+) \d+", env.read_text())}
    rows = [json.loads(l) for l in open(run) if l.startswith("{")]
    failures = []
    if not rows:
        failures.append("no cases")
    print(f"{'FFMA':>6s} {'held':>4s} {'SASS':>6s} {'KB':>5s} {'warps/sub':>9s} {'pass':>8s} {'bound':>7s} {'over':>6s} "
          f"{'SMs':>7s} {'warp':>7s}")
    for r in rows:
        held = r.get("held", 0)
        n = sass.get((r["ffma_per_pass"], held), 0)
        per_sub = r["warps_per_cta"] * r["ctas_per_sm"] / 4
        over = r["cycles_per_pass"]["mean"] / r["issue_bound_pass"]
        sms, warp = r["across_sms_p10_p90_over_median"], r["within_warp_cv"]
        print(f"{r['ffma_per_pass']:6d} {held:4d} {n:6d} {n * 16 / 1024:5.1f} {per_sub:9g} {r['cycles_per_pass']['mean']:8.0f} "
              f"{r['issue_bound_pass']:7d} {over:5.2f}x {100 * sms:6.1f}% {100 * warp:6.1f}%")
        case = f"{r['ffma_per_pass']} FFMA, {per_sub:g} warps a sub-partition"
        if held:
            continue  # the held loops are reported, not held to the two regimes
        if n == 0:
            failures.append(f"{case}: no SASS count in {env.name}")
        elif n <= 2200:
            if over > 1.2 or sms > 0.05:
                failures.append(f"{case}: {over:.2f}x the bound, SMs {100 * sms:.1f} % apart (a loop that fits)")
        elif n >= 3000 and per_sub == 1:
            if over < 2 or sms < 0.10 or warp > 0.05:
                failures.append(f"{case}: {over:.2f}x, SMs {100 * sms:.1f} %, a warp {100 * warp:.1f} % (a loop that does not fit)")
    report(failures, a.check)


if __name__ == "__main__":
    main()

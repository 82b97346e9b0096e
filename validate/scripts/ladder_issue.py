#!/usr/bin/env python3
"""How full each sub-partition's issue port is on seed 002's ladder rungs (validate/scripts/device_ladder_issue.sh):
per rung the warps active and eligible per cycle, the cycles the port issued (smsp__issue_active), and the
warps' `selected` and `dispatch_stall` shares summed over the warps of a sub-partition (share x warps per
cycle, in percent of the cycles). A dispatch stall is a cycle the scheduler picked a warp that could not
dispatch; it costs the port a slot only if no other warp issued then, so the cycles the port did not issue
bound the dispatch stalls that emptied it.

    validate/scripts/ladder_issue.py validate/results/h200/ladder_issue [--check]

--check: exit 1 unless every rung of the ladder is there and Nsight's two views of the issue slots agree -
the summed `selected` share within 2 points of smsp__issue_active on every rung.
"""
import argparse
import sys
from pathlib import Path

from check_result import report
from ncu_launches import raw_launches

RUNGS = 9  # validate/runner/ladder_runner.cu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    path = a.folder / "ladder_issue_ncu.csv"
    if not path.exists():
        sys.exit(f"ladder_issue.py: {path} is missing")
    names = [l.split()[1] for l in open(path) if l.startswith("profiled ")]
    launches = raw_launches(path)
    failures = []
    if len(names) != len(launches) or len(launches) != RUNGS:
        failures.append(f"{len(launches)} profiled launches, {len(names)} rung names; the ladder has {RUNGS}")
    print(f"{'rung':32s} {'warps':>6s} {'eligible':>8s} {'issued':>7s} {'idle':>6s} {'sum selected':>12s} "
          f"{'sum dispatch':>12s} {'dispatch that can have emptied it':>34s}")
    for name, m in zip(names, launches):
        warps = m["smsp__warps_active.avg.per_cycle_active"]
        issued = m["smsp__issue_active.avg.pct_of_peak_sustained_active"]
        selected = m["smsp__warp_issue_stalled_selected_per_warp_active.pct"] * warps
        dispatch = m["smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct"] * warps
        idle = 100 - issued
        print(f"{name:32s} {warps:6.2f} {m['smsp__warps_eligible.avg.per_cycle_active']:8.2f} {issued:6.1f}% "
              f"{idle:5.1f}% {selected:11.1f}% {dispatch:11.1f}% {min(dispatch, idle):33.1f}%")
        if abs(selected - issued) > 2:
            failures.append(f"{name}: summed selected {selected:.1f} % against issue_active {issued:.1f} %")
    report(failures, a.check)


if __name__ == "__main__":
    main()

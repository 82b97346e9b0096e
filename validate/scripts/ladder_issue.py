#!/usr/bin/env python3
"""How full each sub-partition's issue port is on seed 002's ladder rungs (validate/scripts/device_ladder_issue.sh):
per rung the warps active and eligible per cycle, the cycles the port issued (smsp__issue_active), and the
warps' `selected` and `dispatch_stall` shares summed over the warps of a sub-partition (share x warps per
cycle, in percent of the cycles). A dispatch stall is a cycle the scheduler picked a warp that could not
dispatch; it costs the port a slot only if no other warp issued then, so the cycles the port did not issue
bound the dispatch stalls that emptied it.

    validate/scripts/ladder_issue.py validate/results/h200/ladder_issue [--check] [--alone FOLDER] [--model CASE=RUN ...]

--alone FOLDER: the same profile with one CTA an SM (device_ladder_issue.sh SIZE --alone) beside it - per rung
and warp state the cycles a warp spends in it per issued instruction (the state's share over `selected`'s),
alone / shared: what the co-resident CTAs add to each warp's own instructions; `every state` sums all the states
Nsight samples (`selected` too): the warp's cycles per issued instruction.

--model CASE=RUN: a model run of the rung's record (`gpumemsim run --record ... -o RUN`) beside the profile - per warp
state the cycles a warp spends in it per issued instruction, silicon's and the model's, every state's sum and the issue
port's busy share: where the model's time per instruction sits against silicon's.

--check: exit 1 unless every rung of the ladder is there and Nsight's two views of the issue slots agree -
the summed `selected` share within 2 points of smsp__issue_active on every rung.
"""
import argparse
import json
import sys
from pathlib import Path

from check_result import report
from ncu_launches import raw_launches

RUNGS = 9  # validate/runner/ladder_runner.cu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--alone", type=Path, help="a folder with the same profile, one CTA an SM")
    ap.add_argument("--model", action="append", default=[], metavar="CASE=RUN", help="a model run of a rung's record")
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
    if a.alone:
        failures += per_instruction(names, launches, a.alone)
    if a.model:
        failures += beside_the_model(dict(zip(names, launches)), a.model)
    report(failures, a.check)


def beside_the_model(silicon, runs):
    """Prints silicon's and each model run's cycles per issued instruction by warp state; returns problems."""
    failures = []
    print("\ncycles per issued instruction with the SM shared, silicon / model")
    print("| rung | source | " + " | ".join(MODEL_STATES) + " | every state | issue active (%) |")
    print("|---|---|" + "---|" * (len(MODEL_STATES) + 2))

    def row(name, source, m):
        print(f"| {name} | {source} | " + " | ".join(f"{cycles_per_instruction(m, st):.2f}" for st in MODEL_STATES) +
              f" | {every_state(m):.2f} | {m['smsp__issue_active.avg.pct_of_peak_sustained_active']:.1f} |")
    for spec in runs:
        case, _, run = spec.partition("=")
        stats = Path(run) / "stats.json"
        if case not in silicon or not stats.exists():
            failures.append(f"--model {spec}: no profiled rung '{case}'" if case not in silicon else f"{stats} is missing")
            continue
        row(case, "silicon", silicon[case])
        row(case, f"model {Path(run).name}", json.load(open(stats))["metrics"])
    return failures


STATES = ("wait", "dispatch_stall", "short_scoreboard", "long_scoreboard", "barrier", "not_selected",
          "math_pipe_throttle", "mio_throttle", "no_instruction")
MODEL_STATES = STATES + ("branch_resolving", "lg_throttle", "drain")
STALL, SHARE = "smsp__warp_issue_stalled_", "_per_warp_active.pct"


def cycles_per_instruction(m, state):
    """A warp state's cycles per issued instruction: its share of the warps' time over `selected`'s (0 if unsampled)."""
    return m.get(f"{STALL}{state}{SHARE}", 0.0) / m[f"{STALL}selected{SHARE}"]


def every_state(m):
    """Every state sampled, `selected` too: the warp's cycles per issued instruction."""
    return sum(v for k, v in m.items() if k.startswith(STALL) and k.endswith(SHARE)) / m[f"{STALL}selected{SHARE}"]


def per_instruction(names, shared, folder):
    """Prints each warp state's cycles per issued instruction, alone / shared; returns problems with the folder."""
    path = folder / "ladder_issue_ncu.csv"
    if not path.exists():
        return [f"{path} is missing"]
    alone = raw_launches(path)
    if len(alone) != len(shared):
        return [f"{path}: {len(alone)} profiled launches against {len(shared)}"]

    print("\ncycles per issued instruction, alone / shared (one CTA an SM / the kernel's occupancy)")
    print("| rung | " + " | ".join(STATES) + " | every state | time (us) |")
    print("|---|" + "---|" * (len(STATES) + 2))
    for name, s, a in zip(names, shared, alone):
        cpi = cycles_per_instruction
        print(f"| {name} | " + " | ".join(f"{cpi(a, st):.2f} / {cpi(s, st):.2f}" for st in STATES)
              + f" | {every_state(a):.2f} / {every_state(s):.2f} | {a['gpu__time_duration.sum'] / 1000:.0f} / {s['gpu__time_duration.sum'] / 1000:.0f} |")
    return []


if __name__ == "__main__":
    main()

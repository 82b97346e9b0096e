#!/usr/bin/env python3
"""What a loop larger than the instruction caches costs (validate/scripts/device_icache.sh, gms-icache-ubench): per
loop size (its SASS from the env file's per-kernel counts), warps a sub-partition and how the warps reach the loop's
head (`held` 0: free; 1: at a barrier; 2: a load and a barrier; 3: at a barrier, an SM's second CTA half a pass behind
its first) and chains (8: a warp can issue every cycle; 1: every 4th), a pass's cycles over the
issue-bound pass (one FFMA a cycle a sub-partition), the instructions a sub-partition issued a cycle (with up to two
warps a sub-partition, whose passes run alike), the spread of the SMs' mean passes ((p10-p90) / median) and of a
warp's own passes (coefficient of variation).

    validate/scripts/icache.py validate/results/h200/icache [--check]
    validate/scripts/icache.py validate/results/h200/icache/fine [--check]   (gms-icache-ubench --fine)
    validate/scripts/icache.py validate/results/h200/icache/ages [--check] [--model GPUMEMSIM [--gpu YAML]
                              [--set KEY=VALUE ...] [--passes P]]   (gms-icache-ubench --ages)

--check: exit 1 unless the two regimes the record shows hold - loops of up to 2,200 SASS instructions (~34 KB) within
20 % of the issue bound with the SMs alike (spread <= 5 %), and loops of 3,000 or more with one warp a sub-partition
at least 2x the bound and the SMs apart (spread >= 10 %) while a warp's own passes stay within 5 % of each other.
On a record with loops of fewer chains (--fine), also what sm.fetch_instructions_per_cycle rests on: a lone warp a
sub-partition past the cache (2,600 SASS or more) gets 0.38-0.46 instructions a cycle with 8 chains and with 2, where
the same 2 chains get 0.47 or more from a loop that fits; with 1 chain (0.25 asked) it gets within 3 % of what it
gets from a loop that fits; two warps a sub-partition past the cache issue 0.85 a cycle or more between them.
On a record of two CTAs an SM ranked by age (--ages), what the older CTA takes: with one warp of each CTA a
sub-partition, or one chain a warp, the two end together (within 1 % of the span) whether the loop fits or not; with
two warps of each a sub-partition and 8 chains the older ends by 0.90 of the span both from a loop that fits and from
one of ~2,900 SASS (~45 KB, r3_bk32's), and past ~3,100 SASS (~49 KB) the four warps of a sub-partition issue
less than 0.75 instructions a cycle between them.
--model (an --ages record): each case replayed by GPUMEMSIM on one SM of YAML (default configs/gpus/h200.yaml) as an
Accel-Sim trace of the ubench's loop (its FFMAs over the chains, a counter, compare and back-edge branch a pass; P
passes, default 8), with `--set` (e.g. gpu.sm.instruction_cache_instructions=2304 and
gpu.sm.fetch_instructions_per_cycle=0.42, which a trace's widest backward jump sets against); the model's CTAs' ends by
age (ctas.csv) beside silicon's. Reported, not checked.
"""
import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from check_result import report

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accelsim_trace import ONE_SM_SETS, add_replay_args, run_trace, write_uniform_trace  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path)
    add_replay_args(ap)
    ap.add_argument("--passes", type=int, default=8)
    a = ap.parse_args()
    run, env = a.folder / "icache_run.jsonl", a.folder / "icache_env.txt"
    if not run.exists() or not env.exists():
        sys.exit(f"icache.py: {a.folder} lacks icache_run.jsonl or icache_env.txt")
    # per (FFMA, held, chains) the kernel's SASS instructions (a record from before `held` has one kernel per size,
    # one from before the chains parameter 8 chains)
    sass = {(int(m.group(1)), int(m.group(2) or 0), int(m.group(3) or 8)): int(m.group(4))
            for m in re.finditer(r"icache_loopILi(\d+)E(?:Li(\d+)E)?(?:Li(\d+)E)?\S* (\d+) \d+", env.read_text())}
    rows = [json.loads(l) for l in open(run) if l.startswith("{")]
    failures = []
    if not rows:
        failures.append("no cases")
    print(f"{'FFMA':>6s} {'held':>4s} {'chains':>6s} {'SASS':>6s} {'KB':>5s} {'warps/sub':>9s} {'pass':>8s} {'bound':>7s} "
          f"{'over':>6s} {'issued':>7s} {'SMs':>7s} {'warp':>7s}")
    rate = {}  # (SASS, chains, warps a sub-partition) -> instructions a sub-partition issued a cycle
    for r in rows:
        held, chains = r.get("held", 0), r.get("chains", 8)
        n = sass.get((r["ffma_per_pass"], held, chains), 0)
        per_sub = r["warps_per_cta"] * r["ctas_per_sm"] / 4
        over = r["cycles_per_pass"]["mean"] / r["issue_bound_pass"]
        issued = r["ffma_per_pass"] * per_sub / r["cycles_per_pass"]["mean"]
        sms, warp = r["across_sms_p10_p90_over_median"], r["within_warp_cv"]
        # with four warps a sub-partition one runs ahead of the others: a mean pass is no sub-partition's rate
        shown = f"{issued:7.3f}" if per_sub <= 2 else f"{'-':>7s}"
        print(f"{r['ffma_per_pass']:6d} {held:4d} {chains:6d} {n:6d} {n * 16 / 1024:5.1f} {per_sub:9g} "
              f"{r['cycles_per_pass']['mean']:8.0f} {r['issue_bound_pass']:7d} {over:5.2f}x {shown} {100 * sms:6.1f}% "
              f"{100 * warp:6.1f}%")
        case = f"{r['ffma_per_pass']} FFMA, {per_sub:g} warps a sub-partition"
        if not held and per_sub <= 2 and r["ctas_per_sm"] == 1:
            rate[(n, chains, per_sub)] = issued
        if held or chains != 8:
            continue  # the held loops and those of fewer chains are reported, not held to the two regimes
        if n == 0:
            failures.append(f"{case}: no SASS count in {env.name}")
        elif n <= 2200:
            if over > 1.2 or sms > 0.05:
                failures.append(f"{case}: {over:.2f}x the bound, SMs {100 * sms:.1f} % apart (a loop that fits)")
        elif n >= 3000 and per_sub == 1:
            if over < 2 or sms < 0.10 or warp > 0.05:
                failures.append(f"{case}: {over:.2f}x, SMs {100 * sms:.1f} %, a warp {100 * warp:.1f} % (a loop that does not fit)")
    if any("ranks" in r for r in rows):
        failures += age_failures(rows, sass)
        if a.model:
            failures += model_ages(rows, a)
    elif any(r.get("chains", 8) != 8 for r in rows):
        failures += fetch_rate_failures(rate)
    report(failures, a.check)


def age_failures(rows, sass):
    """The --ages record: two CTAs an SM, each one's end (median over SMs) as a fraction of its SM's span, oldest first."""
    failures = []
    print(f"\ntwo CTAs an SM by age: {'SASS':>6s} {'chains':>6s} {'warps/sub':>9s}   end, oldest / youngest   pass cycles"
          f"   issued a cycle by the sub-partition")
    for r in rows:
        ranks = r.get("ranks", [])
        if len(ranks) != 2:
            failures.append(f"{r['ffma_per_pass']} FFMA: {len(ranks)} ranks, not two")
            continue
        n, chains = sass.get((r["ffma_per_pass"], r.get("held", 0), r.get("chains", 8)), 0), r.get("chains", 8)
        per_sub = r["warps_per_cta"] * r["ctas_per_sm"] / 4
        old, young = ranks[0]["end_fraction"], ranks[1]["end_fraction"]
        # the span is the youngest CTA's: every warp's passes of the sub-partition over its cycles
        issued = r["ffma_per_pass"] * per_sub / max(ranks[0]["pass_cycles"], ranks[1]["pass_cycles"])
        print(f"{'':22s} {n:6d} {chains:6d} {per_sub:9g}   {old:5.3f} / {young:5.3f}   {ranks[0]['pass_cycles']:6.0f} / "
              f"{ranks[1]['pass_cycles']:6.0f}   {issued:5.3f}")
        case = f"{n} SASS, {chains} chains, {per_sub:g} warps a sub-partition: ends {old:.3f} / {young:.3f}"
        if (per_sub == 2 or chains == 1) and min(old, young) < 0.99:
            failures.append(f"{case} (one warp of each CTA a sub-partition, or one chain: together)")
        if per_sub == 4 and chains == 8 and (n <= 2200 or 2800 <= n <= 3000) and old > 0.90:
            failures.append(f"{case} (two warps of each, 8 chains: the older by 0.90)")
        if per_sub == 4 and chains == 8 and n >= 3100 and issued >= 0.75:
            failures.append(f"{case}, {issued:.3f} issued a cycle (four warps past ~49 KB: less than 0.75)")
    return failures


def loop_lines(ffma, chains, passes):
    """One warp of gms-icache-ubench's loop as a trace: per pass its FFMAs over the chains, then the pass's counter,
    compare and back-edge branch (taken but on the last pass), each at its address in the loop's code."""
    body = [f"ffffffff 1 R{10 + i % chains} FFMA 2 R{10 + i % chains} R5 0 0" for i in range(ffma)]
    body += ["ffffffff 1 R8 IADD3 1 R8 0 0", "ffffffff 0 ISETP.GT.AND 1 R8 0 0", "ffffffff 0 BRA 0 0 0"]
    lines = []
    for _ in range(passes):
        lines += [(1 + n, text) for n, text in enumerate(body)]
    lines.append((1 + len(body), "ffffffff 0 EXIT 0 0 0"))
    return "\n".join(f"{16 * n:04x} {text}" for n, text in lines)


def model_ages(rows, a):
    """Each --ages case replayed by the model: its two CTAs' ends by age beside silicon's."""
    print(f"\nthe model ({Path(a.gpu).name}{''.join(' --set ' + kv for kv in a.set)}; {a.passes} passes), ends oldest / "
          f"youngest, silicon's first:")
    with tempfile.TemporaryDirectory() as work:
        for r in rows:
            ffma, chains, warps, ctas_per_sm = r["ffma_per_pass"], r.get("chains", 8), r["warps_per_cta"], r["ctas_per_sm"]
            per_sub = warps * ctas_per_sm / 4
            name = f"icache_{ffma}_{chains}_{warps}"
            kernelslist = write_uniform_trace(Path(work) / name, name, ctas_per_sm, 32 * warps,
                                              loop_lines(ffma, chains, a.passes))
            try:
                out = run_trace(a.model, a.gpu, kernelslist, work, [*ONE_SM_SETS, *a.set], name + "-out")
            except subprocess.CalledProcessError as e:  # a failed replay is the script's failure, with the run's message
                return [f"{name}: {e.stderr.strip()}"]
            with open(Path(out) / "ctas.csv") as f:
                ctas = list(csv.DictReader(f))
            starts = [float(c["start_cycle"]) for c in ctas]
            ends = [float(c["end_cycle"]) for c in ctas]  # launch order: the oldest first
            lo, hi = min(starts), max(ends)
            model = [(e - lo) / (hi - lo) for e in ends]
            silicon = [k["end_fraction"] for k in r["ranks"]]
            issued = ffma * per_sub * a.passes / (hi - lo)
            print(f"  {ffma:5d} FFMA {chains} chains, {per_sub:g} warps a sub-partition: silicon {silicon[0]:.3f} / "
                  f"{silicon[1]:.3f}   model {model[0]:.3f} / {model[1]:.3f}   model issued {issued:.3f} a cycle a sub-partition")
    return []


def fetch_rate_failures(rate):
    """What sm.fetch_instructions_per_cycle rests on (the --fine record), from the issue rates of one CTA an SM."""
    failures = []
    fits = {(c, w): v for (n, c, w), v in rate.items() if 0 < n <= 2200}
    past = {(n, c, w): v for (n, c, w), v in rate.items() if n >= 2600}
    if not fits or not past:
        return ["no loops that fit or none past the cache"]
    for (n, c, w), v in sorted(past.items()):
        case = f"{n} SASS, {c} chains, {w:g} warps a sub-partition: {v:.3f} a cycle"
        if w == 1 and c in (2, 8) and not 0.38 <= v <= 0.46:
            failures.append(f"{case} (a lone warp's fetch: 0.38-0.46)")
        if w == 1 and c == 2 and fits.get((2, 1), 1.0) < 0.47:
            failures.append(f"{case}, {fits.get((2, 1)):.3f} from a loop that fits (0.47 or more: asks above the fetch)")
        if w == 1 and c == 1 and (1, 1) in fits and abs(v / fits[(1, 1)] - 1) > 0.03:
            failures.append(f"{case} against {fits[(1, 1)]:.3f} from a loop that fits (within 3 %: asks below the fetch)")
        if w == 2 and c == 8 and v < 0.85:
            failures.append(f"{case} (two warps, a stream each: 0.85 or more)")
    return failures


if __name__ == "__main__":
    main()

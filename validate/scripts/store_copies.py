#!/usr/bin/env python3
"""How much of a resident L2 set does a stream of fresh stores push out, against a stream of fresh reads of the same
size? (gms-store-copy-ubench; l2.far_stores_copy_near, docs/calibration.md "A far store leaves a near copy".)

  store_copies.py DIR [--model FILE ...] [--check]

DIR: a gms-store-copy-ubench record under ncu (store_copies_ncu.csv, the binary's JSON lines inside it; two launches
a case). FILE: build/store_copies's JSON lines (the same cases, or those of one stream size, on a preset; several
files: several columns, e.g. with and without gpu.l2.far_stores_copy_near).

Per case (one CTA an SM; 16 rounds of its part of the resident set R, then its part of S fresh lines, stored or
read), from an emptied L2: the DRAM reads beyond R's first round (and beyond the stream itself when it reads), per
later round, as a fraction of R - how much of R the stream displaced a round - and the DRAM bytes written.

--check: exit 1 unless the record's two launches of every case agree (R displaced within 0.02), the resident set
alone stays (R displaced <= 0.005), a store stream of at most 16 MiB a round displaces at least as much of R as a
read stream of the same size wherever either displaces more than 5 % (a store's near copy is not kept below a read's
priority: without copies stores would displace less), and each model file's displacement is within 0.15 of
silicon's on every store case it has and within 0.20 on every read case (the model keeps more of R beside a 32 MiB
read stream than silicon: 0.69 against 0.88 displaced at R = 16 MiB)."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_result import report  # noqa: E402
from ncu_launches import json_lines, raw_launches  # noqa: E402

ROUNDS = 16
LAUNCHES_PER_CASE = 2
MIB = 1 << 20


def displaced(mode, resident, stream, dram_read):
    """R's share read again from DRAM per round after the first."""
    extra = dram_read - resident - (stream * ROUNDS if mode == "read" else 0)
    return extra / (resident * (ROUNDS - 1))


def paced(pause):
    return f" pause {pause} ns" if pause else ""


def key(case):
    return (case["mode"], int(case["resident_bytes"]), int(case["stream_bytes_per_round"]), int(case.get("pause_ns", 0)),
            int(case.get("streaming_ctas", 0)))


def silicon_cases(directory, failures):
    names = sorted(f for f in os.listdir(directory) if f.startswith("store_copies") and f.endswith("_ncu.csv"))
    if len(names) != 1:
        sys.exit(f"{directory}: {len(names)} store_copies*_ncu.csv files, not one")
    path = os.path.join(directory, names[0])
    cases, launches = json_lines(path), raw_launches(path)
    if len(launches) != LAUNCHES_PER_CASE * len(cases):
        sys.exit(f"{path}: {len(launches)} launches for {len(cases)} cases of {LAUNCHES_PER_CASE}")
    out = {}
    for i, case in enumerate(cases):
        runs = launches[LAUNCHES_PER_CASE * i:LAUNCHES_PER_CASE * (i + 1)]
        d = [displaced(case["mode"], case["resident_bytes"], case["stream_bytes_per_round"], r["dram__bytes_read.sum"])
             for r in runs]
        if max(d) - min(d) > 0.02:
            failures.append(f"silicon {key(case)}: the launches disagree ({d[0]:.3f} vs {d[1]:.3f})")
        out[key(case)] = (sum(d) / len(d), sum(r["dram__bytes_write.sum"] for r in runs) / len(runs),
                          sum(r["lts__t_sectors_op_read_lookup_hit.sum"] / r["lts__t_sectors_op_read.sum"] for r in runs)
                          / len(runs))
    return out


def model_cases(path):
    return {key(m): (displaced(m["mode"], m["resident_bytes"], m["stream_bytes_per_round"], m["dram_bytes_read"]),
                     m["dram_bytes_write"], m["lts_sectors_op_read_hit"] / m["lts_sectors_op_read"])
            for m in json_lines(path)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("directory")
    ap.add_argument("--model", action="append", default=[])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    failures = []
    silicon = silicon_cases(a.directory, failures)
    models = [model_cases(p) for p in a.model]
    for path, m in zip(a.model, models):
        if not any(k in silicon for k in m if k[0] != "none"):
            failures.append(f"model {path}: no case of the record's")
    head = "| R (MiB) | S a round (MiB) | pause (ns) | SMs streaming | mode | silicon: R displaced a round | DRAM written (MB) | L2 read hit |"
    head += "".join(f" model {i + 1}: displaced | written (MB) | hit |" for i in range(len(models)))
    print(head)
    print("|" + "---|" * (8 + 3 * len(models)))
    for (mode, r, s, pause, streaming), (d, w, hit) in sorted(silicon.items(),
                                                               key=lambda kv: (kv[0][1], kv[0][4], kv[0][2], kv[0][3], kv[0][0])):
        row = f"| {r / MIB:.1f} | {s / MIB:.1f} | {pause} | {streaming or 'all'} | {mode} | {d:.3f} | {w / 1e6:.1f} | {hit:.3f} |"
        for i, m in enumerate(models):
            got = m.get((mode, r, s, pause, streaming))
            if got is None:  # a model file of some cases (build/store_copies stream_mib=N)
                row += " - | - | - |"
                continue
            row += f" {got[0]:.3f} | {got[1] / 1e6:.1f} | {got[2]:.3f} |"
            if abs(got[0] - d) > (0.15 if mode != "read" else 0.20):
                failures.append(f"model {a.model[i]} {mode} R {r / MIB:.1f} S {s / MIB:.1f}{paced(pause)}: displaced {got[0]:.3f}, "
                                f"silicon {d:.3f}")
        print(row)
        if mode == "none" and d > 0.005:
            failures.append(f"silicon: R {r / MIB:.1f} MiB alone is displaced {d:.3f} a round")
        if mode == "store":
            rd = silicon.get(("read", r, s, pause, streaming))
            if rd and s <= 16 * MIB and max(d, rd[0]) > 0.05 and d < rd[0] - 0.01:
                failures.append(f"silicon R {r / MIB:.1f} S {s / MIB:.1f}{paced(pause)}: stores displace {d:.3f}, reads {rd[0]:.3f}")
    # --pace records: the same streams at lower rates push out less of R (silicon; the model's LRU orders by access only).
    pauses = sorted({k[3] for k in silicon})
    if len(pauses) > 1:
        for (mode, r, s, pause, streaming), (d, _, _) in silicon.items():
            slow = silicon.get((mode, r, s, pauses[-1], streaming))
            if pause == 0 and d > 0.05 and slow and slow[0] > 0.8 * d:
                failures.append(f"silicon {mode} R {r / MIB:.1f} S {s / MIB:.1f}: {d:.3f} displaced at full rate, "
                                f"{slow[0]:.3f} at a {pauses[-1]} ns pace")
    report(failures, a.check)


if __name__ == "__main__":
    main()

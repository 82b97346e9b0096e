#!/usr/bin/env python3
"""Turns one device_ladder.sh run into validate records (one JSON per rung) that `gpumemsim compare`
replays: the workload in the simulator's schema (kind tiled_gemm), the event-timed measurement, and
the Nsight counters of the profiled run. Two workload inputs come from the compiler, not from time:
registers per thread (launch__registers_per_thread), the copy loop's batching (LDG x4 then STS x4 in
the SASS: copy.batch 4) and the per-warp, per-K-tile count of
instructions that are neither FFMA nor memory (smsp__inst_executed minus the FFMAs the math needs and
the memory instructions ncu counted).
Usage: merge_ladder.py RUN_DIR OUT_DIR"""
import csv, json, os, sys

def main():
    run, out = sys.argv[1], sys.argv[2]
    measured = [json.loads(l) for l in open(os.path.join(run, "ladder_measure.jsonl")) if l.startswith("{")]
    lines = [l for l in open(os.path.join(run, "ladder_ncu.csv")) if l.startswith('"')]
    rows = list(csv.reader(lines))
    header, data = rows[0], rows[2:]
    if len(data) != len(measured):
        sys.exit(f"merge_ladder: {len(data)} profiled kernels for {len(measured)} measured rungs")
    build = open(os.path.join(run, "ladder_build.txt")).read().splitlines()
    env = [l for l in build if not l.startswith(("ptxas", "    ", "_Z"))]
    os.makedirs(out, exist_ok=True)
    for m, row in zip(measured, data):
        c = {}
        units = dict(zip(header, rows[1]))
        for k, v in zip(header, row):
            if "__" in k:
                try:
                    c[k] = float(v.replace(",", ""))
                except ValueError:
                    pass
        n = m["size"]
        bm, bn, bk = m["tile"]
        tcm, tcn = m["threads"]
        threads = tcm * tcn
        warps_total = (n // bm) * (n // bn) * threads // 32
        k_tiles = n // bk
        ffma = 2.0 * n * n * n / 64
        memory = sum(c.get(k, 0) for k in ("smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
                                            "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_ldgsts.sum"))
        stores = float(n) * n / 32  # the epilogue's scalar C stores, one per element and lane
        other = (c["smsp__inst_executed.sum"] - ffma - memory - stores) / (warps_total * k_tiles)
        workload = {"kind": "tiled_gemm", "name": "seed002_" + m["rung"], "m": n, "n": n, "k": n,
                    "tile": {"m": bm, "n": bn, "k": bk}, "threads": {"m": tcm, "n": tcn},
                    # nvcc emits each synchronous copy loop unrolled by 4 (LDG x4, then STS x4): ladder_sass_order.txt
                    "copy": {"vector": m["copy_vec"], "async": bool(m["async"]), **({} if m["async"] else {"batch": 4})},
                    "smem": {"pad": m["pad"], "swizzle": "none"}, "read_vector": m["read_vec"], "stages": m["stages"],
                    "registers_per_thread": int(c["launch__registers_per_thread"]),
                    "other_instructions_per_k_tile": int(round(other))}
        rec = {"case": "seed002_" + m["rung"], "kind": "tiled_gemm", "workload": workload,
               "measured": {"gpu__time_duration.sum": m["time_us_median"] * 1e3, "time_ns.min": m["time_us_min"] * 1e3,
                            "time_ns.max": m["time_us_max"] * 1e3, "tflops": m["tflops"], "reps": 15},
               "check": {"passed": m["check"] == "ok", "relative_error": m["rel_error"],
                         "method": "every element vs a one-thread-per-output fp32 reference, NaN-poisoned C"},
               "environment": env,
               "ncu": {"command": "ncu --clock-control none --csv --page raw (validate/scripts/device_ladder.sh)",
                       "counters": c, "counter_units": {k: units[k] for k in c}}}
        with open(os.path.join(out, f"seed002_{m['rung']}.json"), "w") as f:
            json.dump(rec, f, indent=1)
            f.write("\n")
        print(f"seed002_{m['rung']}: {m['time_us_median']:.0f} us, other instructions per warp and K tile {other:.1f}")

if __name__ == "__main__":
    main()

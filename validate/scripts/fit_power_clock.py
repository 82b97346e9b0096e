#!/usr/bin/env python3
"""Fits the power model of the SM clock under tensor-core load to measured clocks (ncu
sm__cycles_elapsed.max / gpu__time_duration.sum of each tensor-core GEMM record):
    clock = clock.sm_tensor - drop_at_full_wgmma x wgmma activity - drop_per_dram_tbps x DRAM read TB/s
wgmma activity = sm__pipe_tensor_op_hmma_cycles_active (pct) of the wgmma-class records, 0 for
mma.sync ones (their clock does not follow the pipe: gms-tensor-ubench holds ~1.8-1.87 GHz at a full
mma.sync pipe). Prints the preset lines, the residuals, and the leave-one-implementation-out errors.
  fit_power_clock.py validate/results/h100/gemm validate/results/h100/triton_gemm"""
import glob, json, os, sys


def solve(rows, ys):
    n = len(rows[0])
    m = [[sum(r[i] * r[j] for r in rows) for j in range(n)] + [sum(r[i] * y for r, y in zip(rows, ys))] for i in range(n)]
    for i in range(n):
        p = max(range(i, n), key=lambda k: abs(m[k][i]))
        m[i], m[p] = m[p], m[i]
        for k in range(n):
            if k != i:
                f = m[k][i] / m[i][i]
                m[k] = [a - f * b for a, b in zip(m[k], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def load(dirs):
    out = []
    for d in dirs:
        for f in sorted(glob.glob(os.path.join(d, "*.json"))):
            r = json.load(open(f))
            c = r.get("ncu", {}).get("counters", {})
            if "sm__cycles_elapsed.max" not in c:
                continue
            t = c["gpu__time_duration.sum"]
            wg = r["workload"].get("mma") == "wgmma"
            act = c.get("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", 0) / 100 if wg else 0
            out.append((os.path.basename(d), r["case"], c["sm__cycles_elapsed.max"] / t * 1e3, act,
                        c["dram__bytes_read.sum"] / t / 1e3))  # MHz, activity, TB/s
    return out


def main():
    recs = load(sys.argv[1:])
    feats = lambda r: [1.0, -r[3], -r[4]]
    co = solve([feats(r) for r in recs], [r[2] for r in recs])
    res = [r[2] - sum(a * b for a, b in zip(feats(r), co)) for r in recs]
    print(f"# fitted on {len(recs)} records: rms {(sum(x * x for x in res) / len(res)) ** .5:.0f} MHz, "
          f"max |error| {max(abs(x) for x in res):.0f} MHz ({max(abs(x) / r[2] for x, r in zip(res, recs)) * 100:.1f} %)")
    print(f"clock.sm_tensor: {co[0]:.0f}MHz\nclock.drop_at_full_wgmma: {co[1]:.0f}MHz\nclock.drop_per_dram_tbps: {co[2]:.0f}MHz")
    for fam in sorted({r[0] for r in recs}):
        train = [r for r in recs if r[0] != fam]
        test = [r for r in recs if r[0] == fam]
        if not any(r[3] > 0 for r in train):  # the wgmma term needs wgmma records: fit the other two only
            c2 = solve([[1.0, -r[4]] for r in train], [r[2] for r in train])
            pred = lambda r: c2[0] - c2[1] * r[4] - co[1] * r[3]
            note = " (wgmma drop from the full fit)"
        else:
            c3 = solve([feats(r) for r in train], [r[2] for r in train])
            pred = lambda r: sum(a * b for a, b in zip(feats(r), c3))
            note = ""
        err = [abs(pred(r) - r[2]) / r[2] * 100 for r in test]
        print(f"# held out {fam}: {len(test)} records, clock MAPE {sum(err) / len(err):.1f} %, max {max(err):.1f} %{note}")
    for r, e in zip(recs, res):
        print(f"#   {r[1]:<60} {r[2]:6.0f} MHz  wgmma {r[3]:.2f}  DRAM {r[4]:.2f} TB/s  error {-e:+5.0f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Fits the power model of the SM clock under tensor-core load to measured clocks (ncu
sm__cycles_elapsed.max / gpu__time_duration.sum of each tensor-core GEMM record):
    mma.sync kernels: clock = clock.sm_tensor - drop_per_dram_tbps x DRAM read TB/s
    wgmma kernels:    clock = clock.sm_wgmma - drop_at_full_wgmma x wgmma activity
                              - drop_per_l2_tbps x L2 read TB/s - drop_per_dram_tbps x DRAM read TB/s
(both at most clock.sm_tensor in the model). wgmma activity = sm__pipe_tensor_op_hmma_cycles_active (pct);
L2 reads = lts__t_sectors_op_read x 32 B. mma.sync kernels' clock does not follow their pipe (gms-tensor-ubench
holds ~1.8-1.87 GHz at a full mma.sync pipe) nor their L2 traffic; wgmma kernels sit at the power limit, where
tensor work, L2 and DRAM traffic all cost power: at one activity the Triton tilings' clocks differ by their L2
reads (H200 4096^3: 128x128 1505 MHz at 8.2 TB/s, 128x256 1577 MHz at 5.4 TB/s). One least-squares fit over all
records, the DRAM slope shared. Prints the preset lines, the residuals, and the leave-one-implementation-out
errors (records without the activity counter, the TMA ones, are left out).
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
            act_key = "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active"
            if wg and act_key not in c:
                continue
            act = c[act_key] / 100 if wg else 0
            out.append((os.path.basename(d), r["case"], c["sm__cycles_elapsed.max"] / t * 1e3, wg, act,
                        c["lts__t_sectors_op_read.sum"] * 32 / t / 1e3, c["dram__bytes_read.sum"] / t / 1e3))
    return out  # (family, case, MHz, wgmma?, activity, L2 read TB/s, DRAM read TB/s)


def feats(r):
    _, _, _, wg, act, l2, dram = r
    return [0.0 if wg else 1.0, 1.0 if wg else 0.0, -act, -l2 if wg else 0.0, -dram]


def main():
    recs = load(sys.argv[1:])
    co = solve([feats(r) for r in recs], [r[2] for r in recs])
    res = [r[2] - sum(a * b for a, b in zip(feats(r), co)) for r in recs]
    print(f"# fitted on {len(recs)} records: rms {(sum(x * x for x in res) / len(res)) ** .5:.0f} MHz, "
          f"max |error| {max(abs(x) for x in res):.0f} MHz ({max(abs(x) / r[2] for x, r in zip(res, recs)) * 100:.1f} %)")
    print(f"clock.sm_tensor: {co[0]:.0f}MHz\nclock.sm_wgmma: {co[1]:.0f}MHz\nclock.drop_at_full_wgmma: {co[2]:.0f}MHz\n"
          f"clock.drop_per_l2_tbps: {co[3]:.0f}MHz\nclock.drop_per_dram_tbps: {co[4]:.0f}MHz")
    for fam in sorted({r[0] for r in recs}):
        train = [r for r in recs if r[0] != fam]
        test = [r for r in recs if r[0] == fam]
        if not any(r[3] for r in train) or all(r[3] for r in train):
            # One class left to fit on: the other class's own terms come from the full fit.
            known = [i for i in range(5) if all(feats(r)[i] == 0 for r in train)]
            y = [r[2] - sum(feats(r)[i] * co[i] for i in known) for r in train]
            free = [i for i in range(5) if i not in known]
            c2 = solve([[feats(r)[i] for i in free] for r in train], y)
            full = list(co)
            for i, v in zip(free, c2):
                full[i] = v
            pred = lambda r, full=full: sum(a * b for a, b in zip(feats(r), full))
            note = " (the other class's terms from the full fit)"
        else:
            c3 = solve([feats(r) for r in train], [r[2] for r in train])
            pred = lambda r, c3=c3: sum(a * b for a, b in zip(feats(r), c3))
            note = ""
        err = [abs(pred(r) - r[2]) / r[2] * 100 for r in test]
        print(f"# held out {fam}: {len(test)} records, clock MAPE {sum(err) / len(err):.1f} %, max {max(err):.1f} %{note}")
    for r, e in zip(recs, res):
        print(f"#   {r[1]:<60} {r[2]:6.0f} MHz  wgmma {r[4]:.2f}  L2 {r[5]:.2f}  DRAM {r[6]:.2f} TB/s  error {-e:+5.0f}")


if __name__ == "__main__":
    main()

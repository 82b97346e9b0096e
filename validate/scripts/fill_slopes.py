#!/usr/bin/env python3
"""What one cp.async (LDGSTS.128) costs the shared-memory data path, from gms-fill-ubench's sweep.

Per pattern (reader pitch, copy flavour, destination rows and pitch): the readers' cycles grow with
the copies that share the path with them; the least-squares slope of reader cycles over LDGSTS per
SM is the path cycles one copy takes (4 if its 512 bytes were written at the path's 128 bytes per
cycle). Also the copiers' own cycles per LDGSTS without readers (their L2 / L1 rate), their pace beside
the readers at the sweep's largest point, and one copy's latency (the probe) with and without them.

  fill_slopes.py validate/results/h100/fill/fill_run.jsonl
  fill_slopes.py FILE --check configs/gpus/h100.yaml   # the preset's sm.copy_fill_bytes_per_cycle is
                                                       # 512 / the median .cg slope, within 10 %
"""
import argparse
import json
import re
import statistics
import sys


def slope(points):
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx


def patterns(path):
    groups = {}
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("measure") != "fill_mix":
            continue
        key = (r["pitch"], r["copy"], r.get("copy_rows", 512), r.get("copy_pitch", 512))
        g = groups.setdefault(key, {"mixed": [], "alone": []})
        if r["ldmatrix_per_sm"] > 0:
            g["mixed"].append((r["ldgsts_per_sm"], r["reader_cycles"], r["copier_cycles"]))
        else:
            g["alone"].append((r["ldgsts_per_sm"], r["copier_cycles"]))
    rows = []
    for (pitch, copy, rows_b, pitch_b), g in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2], kv[0][3])):
        base = next((rc for n, rc, _ in g["mixed"] if n == 0), None)
        # Only points where the copiers finished before the readers: the path was shared throughout.
        pts = [(n, rc) for n, rc, cc in g["mixed"] if n == 0 or cc < rc]
        if base is None or len(pts) < 2:
            continue
        alone = slope([(0, 0)] + g["alone"]) if g["alone"] else float("nan")
        rows.append(dict(pitch=pitch, copy=copy, rows=rows_b, dst_pitch=pitch_b, cost=slope(pts), points=len(pts),
                         alone=alone))
    return rows


def pace(path):
    """Per pattern at its largest copy count: the copiers' cycles per LDGSTS beside the readers and alone."""
    mixed, alone = {}, {}
    for line in open(path):
        line = line.strip()
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if r.get("measure") != "fill_mix" or r["ldgsts_per_sm"] == 0:
            continue
        key = (r["pitch"], r["copy"], r.get("copy_rows", 512), r.get("copy_pitch", 512))
        target = mixed if r["ldmatrix_per_sm"] > 0 else alone
        if r["ldgsts_per_sm"] >= target.get(key, (0, 0))[0]:
            target[key] = (r["ldgsts_per_sm"], r["copier_cycles"] / r["ldgsts_per_sm"])
    out = []
    for key in sorted(mixed, key=lambda k: (k[1], k[0], k[2], k[3])):
        if key in alone and alone[key][0] == mixed[key][0]:
            out.append(dict(pitch=key[0], copy=key[1], rows=key[2], dst_pitch=key[3], copies=mixed[key][0],
                            mixed=mixed[key][1], alone=alone[key][1]))
    return out


def preset_rate(path, key="copy_fill_bytes_per_cycle"):
    """The preset's `sm.KEY` in bytes a cycle (its YAML line, unit or not); None when it sets none."""
    for line in open(path):
        m = re.match(r"\s*" + re.escape(key) + r":\s*([0-9.]+)", line)
        if m:
            return float(m.group(1))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="fill_run.jsonl of validate/scripts/device_fill.sh")
    ap.add_argument("--check", metavar="PRESET", help="require the preset's sm.copy_fill_bytes_per_cycle to match")
    a = ap.parse_args()
    rows = patterns(a.run)
    if not rows:
        print(f"fill_slopes.py: no usable fill_mix sweep in {a.run}", file=sys.stderr)
        return 2
    print("| ldmatrix rows (B apart) | copy | copy rows / pitch (B) | path cycles per LDGSTS | copies alone: cycles per LDGSTS |")
    print("|---|---|---|---|---|")
    for r in rows:
        dst = f"{r['rows']} / {r['dst_pitch']}" + (" (contiguous)" if r["rows"] == r["dst_pitch"] else "")
        print(f"| {r['pitch']} | .{r['copy']} | {dst} | {r['cost']:.2f} | {r['alone']:.1f} |")
    cg = [r["cost"] for r in rows if r["copy"] == "cg"]
    med = statistics.median(cg)
    print(f"median over the .cg patterns: {med:.2f} cycles per 512-byte LDGSTS = {512 / med:.0f} bytes per cycle")
    print()
    print("| ldmatrix rows (B apart) | copy | copy rows / pitch (B) | LDGSTS per SM | copies beside the readers: cycles per LDGSTS | alone |")
    print("|---|---|---|---|---|---|")
    for r in pace(a.run):
        print(f"| {r['pitch']} | .{r['copy']} | {r['rows']} / {r['dst_pitch']} | {r['copies']} | {r['mixed']:.1f} | {r['alone']:.1f} |")
    probes = [json.loads(l) for l in open(a.run) if l.strip().startswith("{") and '"fill_probe"' in l]
    if probes:
        print()
        print("| ldmatrix rows (B apart) | reader warps | one copy's latency (cycles) |")
        print("|---|---|---|")
        for r in probes:
            print(f"| {r['pitch']} | {r['readers']} | {r['copy_latency_cycles']:.0f} |")
    if a.check:
        rate = preset_rate(a.check)
        if rate is None or rate <= 0:
            print(f"CHECK FAILED: {a.check} sets no sm.copy_fill_bytes_per_cycle", file=sys.stderr)
            return 1
        if abs(512 / rate - med) > 0.1 * med:
            print(f"CHECK FAILED: {a.check}: copy_fill_bytes_per_cycle {rate:g} = {512 / rate:.2f} cycles per LDGSTS; "
                  f"measured {med:.2f}", file=sys.stderr)
            return 1
        print(f"check passed: {a.check}: {rate:g} bytes per cycle = {512 / rate:.2f} cycles per LDGSTS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

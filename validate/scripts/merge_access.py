#!/usr/bin/env python3
"""Joins one device_access.sh run (ncu raw CSV + env) with the access manifest into a record file:
validate/results/<gpu>/access/access_records.json, one entry per pattern with every counter ncu gave.
Usage: merge_access.py RUN_DIR OUT_JSON   (RUN_DIR holds access_ncu.csv, env.txt, access_check.log)"""
import csv, json, os, sys

def main():
    run, out = sys.argv[1], sys.argv[2]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "access")
    # The manifest of the run itself (device_access.sh saves it): the ncu rows follow its order.
    saved = os.path.join(run, "access_manifest.csv")
    manifest = list(csv.DictReader(open(saved if os.path.exists(saved) else os.path.join(here, "manifest.csv"))))
    args = {}
    for line in open(os.path.join(here, "patterns.txt")):
        if line.strip() and not line.startswith("#"):
            name, a = line.split("|", 1)
            args[name.strip()] = a.strip()
    lines = [l for l in open(os.path.join(run, "access_ncu.csv")) if l.startswith('"')]
    rows = list(csv.reader(lines))
    header, data = rows[0], rows[2:]  # row 1 holds the units
    if len(data) != len(manifest):
        sys.exit(f"merge_access: {len(data)} profiled launches for {len(manifest)} patterns")
    # The runner prints one check line per pattern, in manifest order.
    checks = [l.rstrip().endswith("check ok") for l in open(os.path.join(run, "access_check.log")) if " check " in l]
    if len(checks) != len(manifest):
        sys.exit(f"merge_access: {len(checks)} check lines for {len(manifest)} patterns")
    records = []
    for m, r, ok in zip(manifest, data, checks):
        row = dict(zip(header, r))
        measured = {}
        for k, v in row.items():
            try:
                if "__" in k and k.endswith(".sum"):
                    measured[k] = float(v.replace(",", ""))
            except ValueError:
                pass
        records.append({"name": m["name"], "arguments": args[m["name"]], "space": m["space"], "op": m["op"],
                        "width_bytes": int(m["width_bytes"]), "threads": int(m["threads"]),
                        "ldsm_matrices": int(m["ldsm_matrices"]), "lanes": "validate/access/" + m["lanes_csv"],
                        "kernel": row.get("Kernel Name", ""), "check": "ok" if ok else "FAILED",
                        "measured": measured})
    env = open(os.path.join(run, "env.txt")).read().splitlines()
    doc = {"what": "gpumemsim access patterns replayed by validate/runner/access_replay.cu, counted by Nsight Compute",
           "environment": env, "records": records}
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{len(records)} records -> {out}")

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A special-register read's latency from gms-sreg-ubench's bracketed steps (validate/scripts/device_sreg.sh).

Per step a warp reads the clock, reads a special register (S2R), adds the two and reads the clock
again. The control step's sum waits on the first clock read, the second control's on nothing; the
S2R issues a cycle after the first clock read. So the S2R's data is there
(s2r - control) + (control - second control + 1) - 1 = s2r - second control cycles after its issue.

  sreg_latency.py validate/results/h100/sreg/sreg_run.jsonl
  sreg_latency.py FILE --check configs/gpus/h100.yaml   # the preset's sm.special_register_latency
                                                        # is the measured one, within 1 cycle
"""
import argparse
import json
import re
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--check", metavar="PRESET")
    a = ap.parse_args()
    steps = {}
    for line in open(a.run):
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            if r.get("measure") == "sreg_bracket":
                steps[r["read"]] = r
    need = ("control", "s2r_smid", "control_no_clock_wait")
    if any(k not in steps for k in need):
        print(f"sreg_latency.py: {a.run} lacks one of {need}", file=sys.stderr)
        return 2
    for key, label in (("cycles_per_step", "idle"), ("loaded_cycles_per_step", "beside a busy shared path")):
        control, s2r, none = (steps[k][key] for k in need)
        print(f"{label}: clock read {control - none + 1:.1f} cycles, S2R {s2r - none:.1f} cycles")
    latency = steps["s2r_smid"]["cycles_per_step"] - steps["control_no_clock_wait"]["cycles_per_step"]
    if a.check:
        text = open(a.check).read()
        m = re.search(r"^\s*special_register_latency:\s*([0-9.]+)cycles", text, re.M)
        if not m:
            print(f"CHECK FAILED: {a.check} sets no sm.special_register_latency", file=sys.stderr)
            return 1
        if abs(float(m.group(1)) - latency) > 1:
            print(f"CHECK FAILED: {a.check}: special_register_latency {m.group(1)} cycles, measured {latency:.1f}",
                  file=sys.stderr)
            return 1
        print(f"check passed: {a.check}: {m.group(1)} cycles, measured {latency:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

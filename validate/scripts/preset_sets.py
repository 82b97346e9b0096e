#!/usr/bin/env python3
"""The runner's measured preset values (gms-validate --set ubench writes preset_lines.yaml) as `gpumemsim
--set gpu.KEY=V` arguments, one per line - what validate/scripts/calibrate_gpu.sh writes into a GPU's preset.

  preset_sets.py PRESET_LINES.yaml --dram-bandwidth 1.555TB/s [--kernel-overhead CYCLES]

Flow lines `section: {key: value, ...}  # source` give gpu.section.key=value. The DRAM read rate in the
comment `# dram read N GB/s` becomes dram.efficiency = N / the preset's dram.bandwidth (at most 1). The
file's launch.kernel_overhead (an empty kernel between events) is dropped: the profiler's fixed cost is
device_launch.sh's, given as --kernel-overhead (launch_model_check.py's median). Exit 2 on a malformed line."""
import argparse
import re
import sys

UNITS = {"B/s": 1e0, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12}
FLOW = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*):\s*\{([^{}]*)\}\s*(#.*)?$")
PAIR = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*):\s*([^,\s]+)\s*$")
READ = re.compile(r"#\s*dram read ([0-9.]+) GB/s")


def bytes_per_second(text):
    m = re.fullmatch(r"([0-9.]+(?:e[+-]?[0-9]+)?)\s*([KMGT]?B/s)", text.strip())
    if not m:
        raise ValueError(f"'{text}' is not a bandwidth (e.g. 1.555TB/s)")
    return float(m.group(1)) * UNITS[m.group(2)]


def sets(lines, dram_bandwidth, kernel_overhead=None):
    """gpu.KEY=V strings for the lines of a preset_lines.yaml; ValueError names a malformed line."""
    out = []
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = READ.search(line)
            if m:
                eff = min(1.0, float(m.group(1)) * 1e9 / bytes_per_second(dram_bandwidth))
                out.append(f"gpu.dram.efficiency={eff:.3f}")
            continue
        m = FLOW.match(line)
        if not m:
            raise ValueError(f"line {n}: '{line}' is not 'section: {{key: value, ...}}'")
        section = m.group(1)
        for item in m.group(2).split(","):
            p = PAIR.match(item)
            if not p:
                raise ValueError(f"line {n}: '{item.strip()}' is not 'key: value'")
            if (section, p.group(1)) == ("launch", "kernel_overhead"):
                continue  # events' gap, not the profiler's fixed cost
            out.append(f"gpu.{section}.{p.group(1)}={p.group(2)}")
    if kernel_overhead is not None:
        out.append(f"gpu.launch.kernel_overhead={kernel_overhead}cycles")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("preset_lines")
    ap.add_argument("--dram-bandwidth", required=True, help="the preset's dram.bandwidth, e.g. 1.555TB/s")
    ap.add_argument("--kernel-overhead", type=int, help="cycles (launch_model_check.py's median)")
    a = ap.parse_args()
    try:
        with open(a.preset_lines) as f:
            for s in sets(f, a.dram_bandwidth, a.kernel_overhead):
                print(s)
    except (OSError, ValueError) as e:
        print(f"preset_sets.py: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()

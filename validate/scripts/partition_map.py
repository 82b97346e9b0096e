#!/usr/bin/env python3
"""The partition each SM is near, from gms-partition-ubench's output (validate/scripts/device_partition.sh):
an SM whose median latency to lines homed in the probe SM's partition is a near hit (under the midpoint
of the near and far medians) shares that partition (0), else it is in the other (1). Both repetitions
must agree.

  partition_map.py RESULTS/partition/partition_ubench.jsonl            # print the map (l2.sm_partitions)
  partition_map.py RESULTS/partition/partition_ubench.jsonl --check configs/gpus/GPU.yaml
      # exit 1 unless the preset's l2.sm_partitions is that map
"""
import json
import re
import sys


def partition_map(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    maps = []
    for rep in sorted({r["rep"] for r in rows}):
        sms = sorted((r["sm"], r["median_cycles"]) for r in rows if r["rep"] == rep and "median_cycles" in r)
        lat = sorted(c for _, c in sms)
        cut = (lat[len(lat) // 4] + lat[3 * len(lat) // 4]) / 2
        if [s for s, _ in sms] != list(range(len(sms))):
            sys.exit(f"{path}: repetition {rep} did not place one CTA on every SM")
        maps.append("".join("0" if c < cut else "1" for _, c in sms))
    if len(set(maps)) != 1:
        sys.exit(f"{path}: the repetitions disagree: {maps}")
    return maps[0]


def main():
    if len(sys.argv) not in (2, 4) or (len(sys.argv) == 4 and sys.argv[2] != "--check"):
        sys.exit(__doc__)
    measured = partition_map(sys.argv[1])
    if len(sys.argv) == 2:
        print(measured)
        return
    text = open(sys.argv[3]).read()
    m = re.search(r'^\s+sm_partitions:\s*"([0-9]+)"', text, re.M)
    if not m or m.group(1) != measured:
        print(f"{sys.argv[3]}: l2.sm_partitions {m.group(1) if m else '(none)'}, measured {measured}")
        sys.exit(1)
    print(f"{sys.argv[3]}: l2.sm_partitions is the measured map ({measured.count('0')} + {measured.count('1')} SMs)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Counts memory, MMA and FFMA opcodes per kernel in `cuobjdump -sass` output (stdin), one line per
kernel: `NAME OP=count ...` (static counts). Usage: cuobjdump -sass BIN | sass_mix.py [NAME_SUBSTRING]"""
import collections, re, sys

OPS = re.compile(r"\b(LDSM\S*|LDS(?:\.\d+)?|STS(?:\.\d+)?|LDGSTS\S*|LDG\S*|STG\S*|HMMA\S*|HGMMA\S*|FFMA|BAR\.SYNC\S*)")

def main():
    want = sys.argv[1] if len(sys.argv) > 1 else ""
    fn, counts = None, collections.Counter()
    def flush():
        if fn and want in fn:
            print(fn, " ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    for line in sys.stdin:
        m = re.search(r"Function : (\S+)", line)
        if m:
            flush()
            fn, counts = m.group(1), collections.Counter()
            continue
        op = OPS.search(line)
        if op:
            counts[op.group(1)] += 1
    flush()

if __name__ == "__main__":
    main()

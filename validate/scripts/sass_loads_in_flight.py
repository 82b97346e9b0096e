#!/usr/bin/env python3
"""Global loads a warp keeps in flight, read from a kernel's SASS control codes (issue 11).

  validate/scripts/sass_loads_in_flight.py LISTING.sass[.xz] [--kernel SUBSTRING] [--opcode LDG.E.128]

For every function of a `cuobjdump -sass` listing (or those whose mangled name contains SUBSTRING)
it walks the straight-line code in listing order: a load of OPCODE sets its write scoreboard
(control bits 46-48 of the instruction's second word), an instruction whose wait mask (bits 52-57)
names that scoreboard retires every load pending on it. It prints the loads, the most pending at
once (the warp's loads in flight as the compiler scheduled them) and how many waits retire them.
Branches are not followed: meant for unrolled kernels such as seed 001's GEMV.
"""
import argparse
import lzma
import re
import sys

INSTR = re.compile(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)[^;]*;\s*/\* (0x[0-9a-f]+) \*/")
WORD = re.compile(r"/\* (0x[0-9a-f]+) \*/")


def functions(text):
    for chunk in re.split(r"\n\s+Function : ", text)[1:]:
        name, body = chunk.split("\n", 1)
        yield name.strip(), body.split("\n")


def loads_in_flight(lines, opcode):
    pending = [0] * 6
    in_flight = most = loads = waits = 0
    for i, line in enumerate(lines):
        m = INSTR.match(line)
        if not m or i + 1 >= len(lines):
            continue
        second = WORD.search(lines[i + 1])
        if not second:
            continue
        ctrl = int(second.group(1), 16) >> 41  # bits 0-3 stall, 4 yield, 5-7 write sb, 8-10 read sb, 11-16 wait mask
        wait = (ctrl >> 11) & 0x3F
        for sb in range(6):
            if wait >> sb & 1 and pending[sb]:
                in_flight -= pending[sb]
                pending[sb] = 0
                waits += 1
        write_sb = (ctrl >> 5) & 7
        if m.group(1).startswith(opcode) and write_sb != 7:
            pending[write_sb] += 1
            in_flight += 1
            loads += 1
            most = max(most, in_flight)
    return loads, most, waits


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("listing")
    ap.add_argument("--kernel", default="", help="only functions whose mangled name contains this")
    ap.add_argument("--opcode", default="LDG.E.128", help="loads counted (an opcode prefix)")
    args = ap.parse_args()
    opener = lzma.open if args.listing.endswith(".xz") else open
    with opener(args.listing, "rt") as f:
        text = f.read()
    found = False
    for name, lines in functions(text):
        if args.kernel not in name:
            continue
        loads, most, waits = loads_in_flight(lines, args.opcode)
        if loads:
            found = True
            print(f"{name}: {loads} {args.opcode}, at most {most} in flight, {waits} waits retire them")
    if not found:
        sys.exit(f"sass_loads_in_flight.py: no function with {args.opcode} matches '{args.kernel}'")


if __name__ == "__main__":
    main()

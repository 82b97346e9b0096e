#!/usr/bin/env python3
"""Global loads a warp keeps in flight, read from a kernel's SASS control codes (issue 11).

  validate/scripts/sass_loads_in_flight.py LISTING.sass[.xz] [--kernel SUBSTRING] [--opcode LDG.E.128]

For every function of a `cuobjdump -sass` listing (or those whose mangled name contains SUBSTRING)
it walks the straight-line code in listing order: a load of OPCODE sets its write scoreboard
(control bits 46-48 of the instruction's second word), an instruction whose wait mask (bits 52-57)
names that scoreboard retires every load pending on it. It prints the loads, the most pending at
once (the warp's loads in flight as the compiler scheduled them) and how many waits retire them.
--schedule also prints the sequence (L a load, W<n> a wait retiring n of them) and the loads in flight
at each wait: the most in flight is not what a warp keeps while it waits (Triton's 8192x28672 BLOCK_N
256 GEMV: at most 8, a mean of 3.3 at its 24 waits, 1-2 for most of them).
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


def schedule(lines, opcode):
    """The loads of `opcode` and the waits that retire them, in listing order: ("L", 1) a load, ("W", n) a wait on
    one scoreboard retiring the n loads pending on it."""
    pending = [0] * 6
    events = []
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
                events.append(("W", pending[sb]))
                pending[sb] = 0
        write_sb = (ctrl >> 5) & 7
        if m.group(1).startswith(opcode) and write_sb != 7:
            pending[write_sb] += 1
            events.append(("L", 1))
    return events


def in_flight_at_waits(events):
    """The loads pending just before each wait."""
    in_flight, at = 0, []
    for kind, n in events:
        if kind == "L":
            in_flight += 1
        else:
            at.append(in_flight)
            in_flight -= n
    return at


def loads_in_flight(lines, opcode):
    events = schedule(lines, opcode)
    in_flight = most = loads = waits = 0
    for kind, n in events:
        if kind == "L":
            in_flight += 1
            loads += 1
            most = max(most, in_flight)
        else:
            in_flight -= n
            waits += 1
    return loads, most, waits


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("listing")
    ap.add_argument("--kernel", default="", help="only functions whose mangled name contains this")
    ap.add_argument("--opcode", default="LDG.E.128", help="loads counted (an opcode prefix)")
    ap.add_argument("--schedule", action="store_true", help="also the sequence and the loads in flight at each wait")
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
            if args.schedule:
                events = schedule(lines, args.opcode)
                at = in_flight_at_waits(events)
                print("  sequence: " + " ".join(k if k == "L" else f"W{n}" for k, n in events))
                print(f"  in flight at each wait: {' '.join(map(str, at))}; mean {sum(at) / len(at):.2f}")
    if not found:
        sys.exit(f"sass_loads_in_flight.py: no function with {args.opcode} matches '{args.kernel}'")


if __name__ == "__main__":
    main()

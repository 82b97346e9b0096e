#!/usr/bin/env python3
"""Warp shuffles of a straight-line kernel and how many of them lie on one dependency chain (issue 10).

  validate/scripts/sass_shuffle_levels.py LISTING.sass[.xz] [--kernel SUBSTRING]

A shuffle (SHFL) is an MIO instruction: it waits in the MIO queue, passes the shared-memory data path
once (Nsight counts one wavefront of l1tex__data_pipe_lsu_wavefronts_mem_shared) and its result comes
back at shared-memory latency. A tree reduction issues the shuffles of one level back to back and
waits for them before the next level adds and shuffles the sums, so what its time pays is the
shuffles (the queue, the path) and the levels (one latency each). For every function of a
`cuobjdump -sass` listing (or those whose mangled name contains SUBSTRING) this walks the code up to
its last EXIT in listing order and prints the shuffles and the levels: the most shuffles on one
chain of register dependencies, where a shared load (LDS, LDSM) depends on every shared store (STS)
before the latest barrier (BAR) - the other warps' partial sums, which the barrier makes visible.
Branches are not followed: meant for unrolled kernels such as seed 001's GEMV.
"""
import argparse
import lzma
import re

from sass_loads_in_flight import functions

# guard predicate, opcode, operands
LINE = re.compile(r"\s+/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)\s*([^;]*);")
REG = re.compile(r"\b(U?R)(\d+)\b")
# Opcodes whose first operand is read, not written (stores, reductions, barriers, control).
NO_DEST = {"ST", "STS", "STG", "STL", "RED", "REDG", "REDUX_NONE", "BAR", "EXIT", "BRA", "MEMBAR", "NOP", "WARPSYNC",
           "DEPBAR", "ERRBAR", "CCTL", "RET", "CALL", "BSSY", "BSYNC", "YIELD"}


def _registers(operand, width):
    """The general registers an operand names, a vector operand's `width` consecutive ones."""
    out = []
    for kind, n in REG.findall(operand):
        out += [f"{kind}{int(n) + i}" for i in range(width)]
    return out


def _width(opcode):
    return 4 if ".128" in opcode else 2 if ".64" in opcode else 1


def shuffle_levels(lines):
    """(shuffles, levels) of the code up to the last EXIT (all of it if none)."""
    ops = [(m.group(1), m.group(2)) for m in map(LINE.match, lines) if m]
    exits = [i for i, (op, _) in enumerate(ops) if op.split(".")[0] == "EXIT"]
    if exits:
        ops = ops[:exits[-1] + 1]
    depth = {}           # register -> shuffles on the longest chain that produced its value
    stored = visible = 0  # deepest value stored since the latest barrier / before it
    shuffles = levels = 0
    for opcode, args in ops:
        base = opcode.split(".")[0]
        operands = [a.strip() for a in args.split(",")] if args.strip() else []
        width = _width(opcode)
        if base in NO_DEST or base.endswith("SETP"):  # SETPs write predicates only
            dest, sources = [], operands
        elif base == "SHFL":  # SHFL.BFLY PT, Rd, Ra, b, c: a predicate, then the register written
            dest, sources = operands[1:2], operands[2:]
        else:
            dest, sources = operands[:1], operands[1:]
        d = max((depth.get(r, 0) for s in sources for r in _registers(s, 1)), default=0)
        if base == "STS" and operands:
            stored = max([stored] + [depth.get(r, 0) for r in _registers(operands[-1], width)])
        elif base == "BAR":
            visible = max(visible, stored)
        elif base in ("LDS", "LDSM"):
            d = max(d, visible)
        if base == "SHFL":
            d += 1
            shuffles += 1
        for s in dest:
            for r in _registers(s, 1 if base == "SHFL" else width):
                depth[r] = d
        levels = max(levels, d)
    return shuffles, levels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("listing")
    ap.add_argument("--kernel", default="", help="only functions whose mangled name contains this")
    args = ap.parse_args()
    opener = lzma.open if args.listing.endswith(".xz") else open
    with opener(args.listing, "rt") as f:
        text = f.read()
    for name, lines in functions(text):
        if args.kernel in name:
            shuffles, levels = shuffle_levels(lines)
            print(f"{name}: {shuffles} shuffles, {levels} levels")


if __name__ == "__main__":
    main()

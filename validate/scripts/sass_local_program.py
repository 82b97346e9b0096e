#!/usr/bin/env python3
"""A GEMV's spill traffic in program order, read from its SASS (issue 11): the simulator's workload
`local_program` (grammar in sim/workload/local_program.h).

  validate/scripts/sass_local_program.py LISTING.sass[.xz] [--kernel SUBSTRING] [--stats]

Walks the straight-line code up to its last EXIT in listing order and writes, per instruction:
  LDG      X<s> (x: not 64/128-bit) or W1.<s> (a 16-byte-a-lane W load), s its write scoreboard
           (control bits 46-48 of the second word; _ for none);
  STL/LDL  S<lo>+<n>/1 or L<lo>+<n>/1.<s>: frame lines [R1+offset] / 4 .. (+ width / 4) - a line is
           one 4-byte slot of the 32 lanes (an 8-byte access two lines, a 16-byte one four);
  a wait   D<mask>: the scoreboards in its wait mask (bits 52-57) that loads are pending on;
  FMA-pipe arithmetic F<n>, any other instruction C<n>; the in-CTA reduction's instructions (LDS,
           LDSM, STS, BAR, SHFL, RED, ATOM, EXIT), which the workload's reduction keys model, are left out.
Then it merges what can travel together: a run of W loads on one scoreboard; consecutive stores (or
loads on one scoreboard) whose lines join into one contiguous range without overlap, across the other
(C) instructions between them, which the merged access counts (~c). Nothing crosses a wait or math.
--stats prints the counts the program holds instead of the program.
"""
import argparse
import lzma
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sass_loads_in_flight import INSTR, WORD, functions  # noqa: E402

FMA_PIPE = ("FFMA", "FMUL", "FADD", "HFMA2", "HMUL2", "HADD2", "FMNMX", "HMNMX2")
REDUCTION = ("LDS", "LDSM", "STS", "BAR", "SHFL", "RED", "REDG", "ATOM", "ATOMG", "EXIT")
WIDTH = {"64": 8, "128": 16, "U8": 1, "S8": 1, "U16": 2, "S16": 2}  # bytes per thread; none of these: 32-bit


def access_width(opcode):
    """Bytes per thread of a load or store opcode (LDL.64: 8; no width modifier: 4)."""
    return next((WIDTH[x] for x in opcode.split(".")[1:] if x in WIDTH), 4)
OFFSET = re.compile(r"\[R1(?:\+(0x[0-9a-f]+))?\]")


def instructions(lines):
    """(opcode, listing line, control bits) of each instruction up to the last EXIT."""
    out = []
    for i, line in enumerate(lines):
        m = INSTR.match(line)
        if not m or i + 1 >= len(lines):
            continue
        second = WORD.search(lines[i + 1])
        if second:
            out.append((m.group(1), line, int(second.group(1), 16) >> 41))
    exits = [k for k, (op, _, _) in enumerate(out) if op.split(".")[0] == "EXIT"]
    if not exits:
        sys.exit("sass_local_program.py: the function has no EXIT")
    return out[:exits[-1] + 1]


def steps(lines):
    """The program as a list of [kind, ...] steps (see the module doc), merged."""
    prog, pending = [], [False] * 6
    for op, line, ctrl in instructions(lines):
        base = op.split(".")[0]
        wait, write_sb = (ctrl >> 11) & 0x3F, (ctrl >> 5) & 7
        mask = 0
        for sb in range(6):
            if wait >> sb & 1 and pending[sb]:
                mask |= 1 << sb
                pending[sb] = False
        if mask:
            prog.append(["D", mask])
        sb = write_sb if write_sb < 6 else None
        if base in ("LDG", "LDL") and sb is not None:
            pending[sb] = True
        if base == "LDG":
            if ".128" in op or ".64" in op:
                if prog and prog[-1][0] == "W" and prog[-1][2] == sb:
                    prog[-1][1] += 1
                else:
                    prog.append(["W", 1, sb])
            else:
                prog.append(["X", sb])
        elif base in ("STL", "LDL"):
            m = OFFSET.search(line)
            if not m:
                sys.exit(f"sass_local_program.py: a local access not at [R1+offset]: {line.strip()}")
            offset = int(m.group(1), 16) if m.group(1) else 0
            lo, hi = offset // 4, (offset + access_width(op) + 3) // 4  # the 4-byte slots it touches
            kind = "S" if base == "STL" else "L"
            j = len(prog) - 1
            while j >= 0 and prog[j][0] == "C":
                j -= 1
            prev = prog[j] if j >= 0 else None
            if prev and prev[0] == kind and prev[4] == (sb if kind == "L" else None) and (hi == prev[1] or lo == prev[2]):
                prev[1], prev[2] = min(prev[1], lo), max(prev[2], hi)
                prev[3] += 1
                prev[5] += sum(p[1] for p in prog[j + 1:])
                del prog[j + 1:]
            else:
                prog.append([kind, lo, hi, 1, sb if kind == "L" else None, 0])
        elif base in REDUCTION:
            continue
        else:
            kind = "F" if base in FMA_PIPE else "C"
            if prog and prog[-1][0] == kind:
                prog[-1][1] += 1
            else:
                prog.append([kind, 1])
    return prog


def text(prog):
    def sb(s):
        return "_" if s is None else str(s)
    out = []
    for p in prog:
        k = p[0]
        if k == "X":
            out.append(f"X{sb(p[1])}")
        elif k == "W":
            out.append(f"W{p[1]}.{sb(p[2])}")
        elif k in ("S", "L"):
            t = f"{k}{p[1]}+{p[2] - p[1]}/{p[3]}" + (f".{sb(p[4])}" if k == "L" else "")
            out.append(t + (f"~{p[5]}" if p[5] else ""))
        elif k == "D":
            out.append(f"D{p[1]}")
        else:
            out.append(f"{k}{p[1]}")
    return " ".join(out)


def local_program(lines):
    return text(steps(lines))


def stats(prog):
    lines = {k: sum(p[2] - p[1] for p in prog if p[0] == k) for k in "SL"}
    return {"steps": len(prog), "x_loads": sum(p[0] == "X" for p in prog), "w_loads": sum(p[1] for p in prog if p[0] == "W"),
            "stored_bytes": 4 * lines["S"], "loaded_bytes": 4 * lines["L"],
            "local_instructions": sum(p[3] for p in prog if p[0] in "SL"), "waits": sum(p[0] == "D" for p in prog)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("listing")
    ap.add_argument("--kernel", default="", help="the function whose mangled name contains this (default: the only one)")
    ap.add_argument("--stats", action="store_true", help="print the program's counts, not the program")
    a = ap.parse_args()
    try:
        with (lzma.open(a.listing, "rt") if a.listing.endswith(".xz") else open(a.listing)) as f:
            found = [(n, lines) for n, lines in functions(f.read()) if a.kernel in n]
    except (OSError, lzma.LZMAError) as e:
        sys.exit(f"sass_local_program.py: cannot read {a.listing}: {e}")
    if len(found) != 1:
        sys.exit(f"sass_local_program.py: {len(found)} functions match '{a.kernel}'; expected exactly one")
    prog = steps(found[0][1])
    print(stats(prog) if a.stats else text(prog))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes a synthetic Accel-Sim v5 kernel trace of a given size, for measuring trace replay speed and
memory (docs/performance.md): a streaming kernel (each warp: LDG x2, FFMA, STG per step, 4-byte lanes
of consecutive addresses, like vectorAdd) over as many CTAs as it takes to reach the size.

  bench/make_trace.py OUT_DIR SIZE_MB [--steps N]

OUT_DIR gets kernel-1.traceg and kernelslist.g. Generated here, not captured: no public file is copied.
"""
import argparse
import os

HEADER = """-kernel name = _Z6streamPKfS0_Pf
-kernel id = 1
-grid dim = ({grid},1,1)
-block dim = (256,1,1)
-shmem = 0
-nregs = 16
-binary version = 90
-cuda stream id = 0
-shmem base_addr = 0x00007f0000000000
-local mem base_addr = 0x00007e0000000000
-nvbit version = 1.7.4
-accelsim tracer version = 5
-enable lineinfo = 0

"""


def warp_text(cta, warp, steps, grid):
    lines = []
    for s in range(steps):
        i = ((s * grid + cta) * 8 + warp) * 32 * 4  # byte offset of lane 0's element
        a, b, c = 0x7F0100000000 + i, 0x7F4100000000 + i, 0x7F8100000000 + i
        lines.append(f"0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x{a:x} 4 0")
        lines.append(f"0010 ffffffff 1 R5 LDG.E 1 R6 4 1 0x{b:x} 4 0")
        lines.append("0020 ffffffff 1 R7 FFMA 2 R4 R5 0 0")
        lines.append(f"0030 ffffffff 0 STG.E 2 R8 R7 4 1 0x{c:x} 4 0")
    lines.append("0040 ffffffff 0 EXIT 0 0 0")
    return f"warp = {warp}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("size_mb", type=float)
    ap.add_argument("--steps", type=int, default=64, help="loop steps per warp (instructions = 4 x steps + 1)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    per_cta = sum(len(warp_text(0, w, args.steps, 1)) for w in range(8)) + 40
    grid = max(1, int(args.size_mb * 1e6 / per_cta))
    path = os.path.join(args.out, "kernel-1.traceg")
    with open(path, "w") as f:
        f.write(HEADER.format(grid=grid))
        for cta in range(grid):
            f.write(f"#BEGIN_TB\n\nthread block = {cta},0,0\n\n")
            for w in range(8):
                f.write(warp_text(cta, w, args.steps, grid))
            f.write("#END_TB\n\n")
    with open(os.path.join(args.out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    print(f"{path}: {os.path.getsize(path) / 1e6:.1f} MB, {grid} CTAs x 8 warps x {4 * args.steps + 1} instructions")


if __name__ == "__main__":
    main()

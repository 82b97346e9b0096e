#!/usr/bin/env python3
"""An Accel-Sim trace of gms-lrc-ubench (validate/runner/lrc_capacity_ubench.cu), for the model's side
of its curve: 264 CTAs x 8 warps in G groups, each group reading its own 64 lines 16 times, 4 whole
lines per 16-byte-per-lane load, as the compiled loop has it: unrolled by 4, four LDG.E.128.STRONG.GPU
back to back and then their values used (four LOP3s) - four loads, 16 lines, in flight per warp (the SASS
in validate/results/*/lrc/lrc_env.txt; traced here as LDG.E.CG, which configs/isa/sm_90.yaml maps to an
L1-bypassing load). Until 2026-11-30 this trace used each load before the next issued (one in flight),
which the SASS never had. The list's MemcpyHtoD puts the lines in L2 first, as the ubench's warm-up
launch does.

  lrc_trace.py GROUPS STAGGER DIR      # writes DIR/kernelslist.g and DIR/kernel-1.traceg (~54 MB)
  gpumemsim run -g configs/gpus/h100.yaml -w W.yaml -o RUN   # W.yaml: kind: trace, path: DIR/kernelslist.g
then lts__t_sectors_srcunit_tex_op_read / l1tex__m_xbar2l1tex_read_sectors against
validate/results/h100/lrc (lrc_capacity.py's table)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import kernel_header  # noqa: E402

GRID, WARPS_PER_CTA, LINES, REPS = 264, 8, 64, 16
UNROLL = 4  # loads in flight per warp: the compiled loop's unroll (#pragma unroll 4)
BASE = 0x7F0000000000


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    groups, stagger, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    warps = GRID * WARPS_PER_CTA
    if not 1 <= groups <= warps or stagger < 0:
        sys.exit(f"lrc_trace: groups must be 1..{warps}, stagger 0 or more")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write(f"MemcpyHtoD,0x{BASE:016x},{warps * LINES * 128}\nkernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header("lrc_grouped_reads", GRID, WARPS_PER_CTA * 32, 32))
        for cta in range(GRID):
            f.write(f"\n#BEGIN_TB\n\nthread block = {cta},0,0\n")
            for w in range(WARPS_PER_CTA):
                gwarp = cta * WARPS_PER_CTA + w
                group, start = gwarp % groups, ((gwarp // groups) * stagger % LINES) & ~3
                first = BASE + group * LINES * 128
                body = []
                for _ in range(REPS):
                    for i in range(0, LINES, 4 * UNROLL):
                        for j in range(UNROLL):  # the unrolled body's loads, then the uses of their values
                            line = (start + i + 4 * j) % LINES  # multiples of 4: an instruction's 4 lines never wrap
                            body.append(f"{0x100 + 0x10 * j:04x} ffffffff 1 R{4 + 4 * j} LDG.E.CG 1 R2 16 1 "
                                        f"0x{first + line * 128:x} 16 0 ")
                        for j in range(UNROLL):
                            body.append(f"{0x140 + 0x10 * j:04x} ffffffff 1 R24 LOP3.LUT 2 R24 R{4 + 4 * j} 0 0 ")
                body.append("0180 ffffffff 0 EXIT 0 0 0 ")
                f.write(f"\nwarp = {w}\ninsts = {len(body)}\n" + "\n".join(body) + "\n")
            f.write("\n#END_TB\n")


if __name__ == "__main__":
    main()

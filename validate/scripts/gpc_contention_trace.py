#!/usr/bin/env python3
"""An Accel-Sim trace of `gms-gpc-ubench contention`'s DRAM stream (validate/runner/gpc_ubench.cu), for the
model's side of its split: one CTA per SM, THREADS threads, each SM reading its own WINDOW bytes with
16-byte loads, IN_FLIGHT independent loads per thread before their data is used (the compiled loop:
N LDG.E.128, then the XORs that read them), one pass. A smaller window than the benchmark's 16 MB keeps
the trace small; 132 SMs x 2 MB still stream from DRAM (the L2 holds 50-60 MB).

  gpc_contention_trace.py SMS THREADS IN_FLIGHT WINDOW_KB DIR   # DIR/kernelslist.g, DIR/kernel-1.traceg
  gpumemsim run -g configs/gpus/h100.yaml -w W.yaml -o RUN       # W.yaml: kind: trace, path: DIR/kernelslist.g
then each SM's window over its CTA's duration (RUN/ctas.csv) against validate/results/<gpu>/gpc
(validate/scripts/gpc_split_model_check.py does both)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accelsim_trace import kernel_header  # noqa: E402

BASE = 0x7F0000000000


def write_trace(out, sms, threads, in_flight, window_kb):
    """DIR/kernelslist.g and DIR/kernel-1.traceg; returns the list's path."""
    warps, window = threads // 32, window_kb * 1024
    step = in_flight * threads * 16  # bytes a CTA reads per round of loads
    if threads % 32 or not 1 <= in_flight <= 8 or window % step:
        sys.exit("gpc_contention_trace: threads a multiple of 32, 1-8 loads in flight, the window a multiple of "
                 "in_flight x threads x 16 bytes")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    with open(os.path.join(out, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header("window_stream", sms, threads, 32))
        for cta in range(sms):
            f.write(f"\n#BEGIN_TB\n\nthread block = {cta},0,0\n")
            first = BASE + cta * window
            for w in range(warps):
                body = []
                for r in range(window // step):
                    for u in range(in_flight):  # thread t's u-th load: element i + u x threads
                        addr = first + r * step + u * threads * 16 + w * 32 * 16
                        body.append(f"0100 ffffffff 1 R{4 + 4 * u} LDG.E.CG 1 R2 16 1 0x{addr:x} 16 0 ")
                    for u in range(in_flight):
                        body.append(f"0110 ffffffff 1 R40 LOP3.LUT 2 R40 R{4 + 4 * u} 0 0 ")
                body.append("0120 ffffffff 0 EXIT 0 0 0 ")
                f.write(f"\nwarp = {w}\ninsts = {len(body)}\n" + "\n".join(body) + "\n")
            f.write("\n#END_TB\n")
    return os.path.join(out, "kernelslist.g")


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    write_trace(sys.argv[5], int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))


if __name__ == "__main__":
    main()

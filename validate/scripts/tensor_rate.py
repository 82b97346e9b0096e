#!/usr/bin/env python3
"""Sustained tensor-core rate of a wgmma-class GEMM: torch.matmul (cuBLAS) fp16 -> fp16 at 8192^3 on
random data, checked against fp32, median of 20 event-timed runs after warm-up. Run it once more
under ncu for the SM cycles of one launch (validate/scripts/device_tensor_rate.sh).
Prints one JSON line."""
import json, sys
import torch

def main():
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    c = a @ b
    ref = a.float() @ b.float()
    err = ((c.float() - ref).norm() / ref.norm()).item()
    if "--once" in sys.argv:
        torch.cuda.synchronize()
        return
    for _ in range(5):
        a @ b
    times = []
    for _ in range(20):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        a @ b
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    ms = times[len(times) // 2]
    print(json.dumps({"measure": "cublas_fp16_gemm", "n": n, "rel_error": err, "time_ms_median": ms,
                      "time_ms_min": times[0], "tflops": 2 * n ** 3 / ms / 1e9,
                      "gpu": torch.cuda.get_device_name(), "sms": torch.cuda.get_device_properties(0).multi_processor_count,
                      "torch": torch.__version__}))

if __name__ == "__main__":
    main()

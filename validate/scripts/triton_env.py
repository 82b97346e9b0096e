"""The environment block every Triton record carries (GPU, SMs, L2, Triton/PyTorch versions, the
command that wrote it). Imported by the record scripts on the GPU machine."""
import sys


def record_environment(script):
    import torch, triton

    props = torch.cuda.get_device_properties(0)
    return {"gpu": props.name, "platform": "cuda+triton", "sms": props.multi_processor_count,
            "l2_bytes": getattr(props, "L2_cache_size", 0), "triton": triton.__version__, "torch": torch.__version__,
            "command": f"validate/scripts/{script} " + " ".join(sys.argv[1:])}


def time_launches(launch, runs=5, launches=10):
    """Sorted ns per launch of `runs` event pairs, each around `launches` back-to-back launches (one
    launch per pair would time the host's Python launch path, not the kernel); a warm-up launch first."""
    import torch

    times = []
    for _ in range(runs):
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        launch()
        e0.record()
        for _ in range(launches):
            launch()
        e1.record()
        e1.synchronize()
        times.append(e0.elapsed_time(e1) * 1e6 / launches)
    return sorted(times)

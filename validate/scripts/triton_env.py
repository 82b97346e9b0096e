"""The environment block every Triton record carries (GPU, SMs, L2, Triton/PyTorch versions, the
command that wrote it). Imported by the record scripts on the GPU machine."""
import sys


def record_environment(script):
    import torch, triton

    props = torch.cuda.get_device_properties(0)
    return {"gpu": props.name, "platform": "cuda+triton", "sms": props.multi_processor_count,
            "l2_bytes": getattr(props, "L2_cache_size", 0), "triton": triton.__version__, "torch": torch.__version__,
            "command": f"validate/scripts/{script} " + " ".join(sys.argv[1:])}

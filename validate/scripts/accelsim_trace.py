"""The Accel-Sim (v5) kernel-trace header the validate scripts write for the model's side of a
microbenchmark (lrc_trace.py, launch_model_check.py): one kernel, 1-D grid and block."""


def kernel_header(name, grid, threads, nregs):
    return (f"-kernel name = {name}\n-kernel id = 1\n-grid dim = ({grid},1,1)\n-block dim = ({threads},1,1)\n"
            f"-shmem = 0\n-nregs = {nregs}\n-binary version = 90\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x00007fb139000000\n-local mem base_addr = 0x00007fb137000000\n"
            "-nvbit version = 1.7\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses] immediate\n\n")

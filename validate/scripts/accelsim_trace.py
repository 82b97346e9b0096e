"""The Accel-Sim (v5) kernel-trace header the validate scripts write for the model's side of a
microbenchmark (lrc_trace.py, launch_model_check.py, issue_wake.py, mio_order.py): one kernel, 1-D grid and block; a
whole trace whose every warp runs one body (issue_wake.py, icache.py, issue_trace.py) or each warp its own
(mio_order.py, ldg_backlog.py); and the replay of such a trace (lrc_model_check.py, launch_model_check.py,
issue_wake.py, icache.py, issue_trace.py, ldg_backlog.py)."""
import csv
import json
import os
import subprocess


# The header's shared-memory window (its `-shmem base_addr`): a trace's shared loads and stores address it.
SHARED_BASE = 0x7FB139000000
# A microbenchmark's trace replayed on one SM of a preset (no SM-to-partition or GPC layout to fit).
ONE_SM_SETS = ["gpu.sm.count=1", "gpu.l2.sm_partitions=0", "gpu.icnt.gpc_sms=", "gpu.launch.sm_order="]


def kernel_header(name, grid, threads, nregs):
    return (f"-kernel name = {name}\n-kernel id = 1\n-grid dim = ({grid},1,1)\n-block dim = ({threads},1,1)\n"
            f"-shmem = 0\n-nregs = {nregs}\n-binary version = 90\n-cuda stream id = 0\n"
            f"-shmem base_addr = 0x{SHARED_BASE:016x}\n-local mem base_addr = 0x00007fb137000000\n"
            "-nvbit version = 1.7\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
            "[adrrescompress?] [mem_addresses] immediate\n\n")


def write_uniform_trace(directory, name, ctas, threads, body):
    """A one-kernel trace in `directory` (created if missing) of `ctas` CTAs of `threads` threads whose every warp runs
    `body` (its trace lines, addresses included, joined by newlines); returns the kernelslist.g's path."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header(name, ctas, threads, 32))
        for c in range(ctas):
            f.write(f"#BEGIN_TB\n\nthread block = {c},0,0\n\n")
            for w in range(threads // 32):
                f.write(f"warp = {w}\ninsts = {body.count(chr(10)) + 1}\n{body}\n\n")
            f.write("#END_TB\n\n")
    with open(os.path.join(directory, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    return os.path.join(directory, "kernelslist.g")


def write_warps_trace(directory, name, warps_of_cta, ctas, warps_per_cta):
    """A one-kernel trace in `directory` (created if missing) of `ctas` CTAs of `warps_per_cta` warps whose bodies differ:
    warps_of_cta(c) gives CTA c's warps' instruction lists (trace lines without their PCs, which are numbered here);
    returns the kernelslist.g's path."""
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "kernel-1.traceg"), "w") as f:
        f.write(kernel_header(name, ctas, 32 * warps_per_cta, 32))
        for c in range(ctas):
            f.write(f"#BEGIN_TB\n\nthread block = {c},0,0\n\n")
            for w, body in enumerate(warps_of_cta(c)):
                lines = [f"{16 * n:04x} {s}" for n, s in enumerate(body)]
                f.write(f"warp = {w}\ninsts = {len(lines)}\n" + "\n".join(lines) + "\n\n")
            f.write("#END_TB\n\n")
    with open(os.path.join(directory, "kernelslist.g"), "w") as f:
        f.write("kernel-1.traceg\n")
    return os.path.join(directory, "kernelslist.g")


def add_replay_args(ap, gpu="configs/gpus/h200.yaml"):
    """A microbenchmark script's options for the model's side: --model, --gpu, --set (repeatable), --check."""
    ap.add_argument("--model", metavar="GPUMEMSIM")
    ap.add_argument("--gpu", default=gpu)
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--check", action="store_true")


def run_trace(gpumemsim, preset, kernelslist, work_dir, sets=(), name="run", options=()):
    """Replays the trace list `kernelslist` (a `kind: trace` workload written into `work_dir`) on `preset`
    with `--set` overrides `sets` and further `gpumemsim run` options (e.g. --warp-timeline 0); returns the run's
    output folder, `work_dir`/`name` (stats.json, ctas.csv, warps.csv). A failed run raises
    subprocess.CalledProcessError with the run's stderr."""
    workload = os.path.join(work_dir, name + "_workload.yaml")
    with open(workload, "w") as f:
        f.write(f"kind: trace\npath: {os.path.abspath(kernelslist)}\n")
    out = os.path.join(work_dir, name)
    cmd = [gpumemsim, "run", "-g", preset, "-w", workload, "-q", "-o", out, *options]
    for kv in sets:
        cmd += ["--set", kv]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return out


def issue_times(run_dir, warp_slots):
    """Per warp slot of SM 0 in `warp_slots`, the cycles at which it issued, in order (the `selected` rows of the run's
    warps.csv, written by `--warp-timeline 0`)."""
    issues = {w: [] for w in warp_slots}
    with open(os.path.join(run_dir, "warps.csv")) as f:
        for r in csv.DictReader(f):
            w = int(r["warp_slot"])
            if w in issues and r["state"] == "selected":
                issues[w].append(float(r["start_cycle"]))
    return issues


def trace_metrics(gpumemsim, preset, kernelslist, work_dir, sets=()):
    """run_trace's stats.json metrics."""
    with open(os.path.join(run_trace(gpumemsim, preset, kernelslist, work_dir, sets), "stats.json")) as f:
        return json.load(f)["metrics"]

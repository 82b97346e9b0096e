"""gpumemsim from Python: simulate GEMM/GEMV/tiled/trace workloads on a GPU preset.

    import gpumemsim
    r = gpumemsim.run(gpu="h100", workload={"kind": "gemm", "m": 4096, "n": 4096, "k": 4096,
                                            "dtype": "fp16", "tile": {"m": 128, "n": 128, "k": 64}})
    r["gpu__time_duration.sum"]      # ns, Nsight Compute names (r["metric_info"] has units)
    r["ctas"]["end_cycle"]            # the per-CTA table, as columns

Configurations are the YAML files' keys as dicts (or paths to the files; GPU presets by name);
`set` overrides keys like the CLI's --set. Mistakes raise gpumemsim.ConfigError (a ValueError)
with the same message the CLI prints, naming <gpu>/<workload>:line:col for dicts. The simulation
runs without the GIL, so threads of a Python autotuner simulate in parallel.
"""
import json
import os
import re

from . import _core
from ._core import ConfigError

__version__ = _core.__version__
__commit__ = _core.__commit__

__all__ = ["run", "sweep", "presets", "configs_dir", "to_yaml", "ConfigError", "__version__", "__commit__"]

_PLAIN = re.compile(r"^[A-Za-z0-9_.+/-][A-Za-z0-9_.+/ %-]*$")


def _scalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    s = str(v)
    # Units stay plain ("40MiB", "1.5TB/s"); anything YAML could read otherwise is quoted.
    if _PLAIN.match(s) and not s.endswith(" ") and s.lower() not in ("true", "false", "null", "yes", "no", "on", "off", "~"):
        return s
    return json.dumps(s)


def to_yaml(value, indent=0):
    """A dict as block YAML, one key per line, so errors point at a line of this text."""
    if not isinstance(value, dict):
        raise TypeError("a configuration is a dict of keys (or a path), not %s" % type(value).__name__)
    lines = []
    pad = "  " * indent
    for key, v in value.items():
        if not isinstance(key, str):
            raise TypeError("configuration keys are strings, not %r" % (key,))
        if isinstance(v, dict):
            lines.append("%s%s:" % (pad, key))
            lines.append(to_yaml(v, indent + 1))
        elif isinstance(v, (list, tuple)):
            lines.append("%s%s: [%s]" % (pad, key, ", ".join(_scalar(x) for x in v)))
        else:
            lines.append("%s%s: %s" % (pad, key, _scalar(v)))
    return "\n".join(l for l in lines if l)


def _source(what, value):
    """(path, yaml_text) of a GPU or workload given as a path, a preset name or a dict."""
    if isinstance(value, dict):
        return "", to_yaml(value) + "\n"
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value), ""
    raise TypeError("%s: a path, a preset name or a dict, not %s" % (what, type(value).__name__))


def _overrides(set):
    if set is None:
        return []
    if isinstance(set, dict):
        return ["%s=%s" % (k, _scalar(v) if not isinstance(v, str) else v) for k, v in set.items()]
    return [str(s) for s in set]


def run(gpu, workload, set=None, ctas=True):
    """Simulates one workload on one GPU.

    gpu: a preset name ("h100", see presets()), a GPU YAML path, or a dict of its keys.
    workload: a workload YAML path or a dict of its keys ({"kind": "gemm", ...}).
    set: overrides, {"gpu.l2.size": "40MiB", "workload.warps": 8} or ["workload.warps=8", ...].
    ctas: include the per-CTA table ("ctas": columns of launch_index, tile_m, tile_n, sm,
          start_cycle, end_cycle, l2_hit_sectors, l2_miss_sectors).

    Returns a dict: every metric by its Nsight Compute name (floats), plus "metric_info",
    "occupancy", "config", "tool" and, for traces, "kernels" and "notes".
    """
    gp, gt = _source("gpu", gpu)
    wp, wt = _source("workload", workload)
    return json.loads(_core.run_json(gp, gt, wp, wt, _overrides(set), bool(ctas)))


def sweep(gpu, workload, grid, set=None, jobs=0):
    """Simulates the cartesian product of `grid` ({"workload.warps": [4, 8], ...}; the first key
    slowest, a "gpu" key sweeps presets/files) on `jobs` threads (0 = all cores).

    Returns one dict per point in grid order: the axis values (as given, strings), every metric
    and "error" (None, or the message of a point that cannot run, e.g. a tile that does not fit).
    The same inputs give the same list for any `jobs`.
    """
    gp, gt = _source("gpu", gpu)
    wp, wt = _source("workload", workload)
    axes = []
    for key, values in grid.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
            raise TypeError("grid[%r]: a list of values" % key)
        axes.append((key, [v if isinstance(v, str) else _scalar(v) for v in values]))
    return json.loads(_core.sweep_json(gp, gt, wp, wt, _overrides(set), axes, int(jobs)))


def presets():
    """The GPU preset names (configs/gpus/*.yaml)."""
    return list(_core.presets())


def configs_dir():
    """The configs folder presets and ISA tables are read from ($GPUMEMSIM_CONFIGS overrides)."""
    return _core.configs_dir()

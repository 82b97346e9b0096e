"""Tests of the Python module (issue 14). Run by CTest with PYTHONPATH=build/python and
GPUMEMSIM_BINARY / GPUMEMSIM_SOURCE_DIR set; `python3 -m unittest discover -s tests/python`."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import gpumemsim

SRC = os.environ.get("GPUMEMSIM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("GPUMEMSIM_BINARY", os.path.join(SRC, "build", "gpumemsim"))
GEMM_FILE = os.path.join(SRC, "configs", "workloads", "gemm-8192-grouped8.yaml")
SMALL = {"workload.m": 2048, "workload.n": 2048, "workload.k": 1024}
GEMM = {"kind": "gemm", "name": "gemm 8192^3 fp16 grouped-8", "m": 2048, "n": 2048, "k": 1024, "dtype": "fp16",
        "tile": {"m": 128, "n": 128, "k": 64}, "warps": 4, "stages": 3, "bypass_l1": True,
        "cta_order": {"kind": "grouped", "group_m": 8}}


class RunTest(unittest.TestCase):
    def test_metrics_equal_the_cli_bit_for_bit(self):
        r = gpumemsim.run(gpu="h100", workload=GEMM_FILE, set=SMALL)
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([BIN, "run", "--gpu", os.path.join(SRC, "configs/gpus/h100.yaml"), "--workload", GEMM_FILE,
                            "--out", out] + ["--set=%s=%s" % kv for kv in SMALL.items()],
                           check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(out, "stats.json")) as f:
                cli = json.load(f)
        self.assertGreater(len(cli["metrics"]), 20)
        for name, value in cli["metrics"].items():
            self.assertEqual(r[name], value, name)
        self.assertEqual(r["metrics"], cli["metrics"])
        self.assertEqual(r["config"], cli["config"])

    def test_workload_dict_equals_the_file(self):
        from_file = gpumemsim.run("h100", GEMM_FILE, set=SMALL, ctas=False)
        from_dict = gpumemsim.run("h100", GEMM, ctas=False)
        self.assertEqual(from_file["gpu__time_duration.sum"], from_dict["gpu__time_duration.sum"])
        self.assertEqual(from_file["metrics"], from_dict["metrics"])

    def test_per_cta_table(self):
        r = gpumemsim.run("h100", GEMM)
        ctas = r["ctas"]
        self.assertEqual(len(ctas["sm"]), 16 * 16)
        self.assertEqual(sorted(ctas["launch_index"]), list(range(256)))
        self.assertTrue(all(e > s for s, e in zip(ctas["start_cycle"], ctas["end_cycle"])))
        # The kernel's duration is its last CTA's end plus the fixed cost of a kernel (launch, drain).
        overhead = r["config"]["gpu"]["launch"]["kernel_overhead"]
        self.assertEqual(max(ctas["end_cycle"]) + overhead, r["sm__cycles_elapsed.max"])

    def test_overrides_as_dict_or_list_change_the_run(self):
        g1 = gpumemsim.run("h100", GEMM, set={"workload.cta_order.group_m": 1}, ctas=False)
        g1_list = gpumemsim.run("h100", GEMM, set=["workload.cta_order.group_m=1"], ctas=False)
        g8 = gpumemsim.run("h100", GEMM, ctas=False)
        self.assertEqual(g1["metrics"], g1_list["metrics"])
        self.assertNotEqual(g1["lts__t_sector_hit_rate.pct"], g8["lts__t_sector_hit_rate.pct"])
        small_l2 = gpumemsim.run("h100", GEMM, set={"gpu.l2.size": "2080KiB"}, ctas=False)
        self.assertLess(small_l2["lts__t_sector_hit_rate.pct"], g8["lts__t_sector_hit_rate.pct"])
        self.assertGreater(small_l2["dram__bytes_read.sum"], g8["dram__bytes_read.sum"])

    def test_gpu_as_path_name_or_dict(self):
        by_name = gpumemsim.run("h200", GEMM, ctas=False)
        by_path = gpumemsim.run(os.path.join(SRC, "configs/gpus/h200.yaml"), GEMM, ctas=False)
        self.assertEqual(by_name["metrics"], by_path["metrics"])
        self.assertIn("h100", gpumemsim.presets())
        self.assertTrue(os.path.isdir(os.path.join(gpumemsim.configs_dir(), "gpus")))


class ErrorTest(unittest.TestCase):
    def test_unknown_key_names_line_col_and_did_you_mean(self):
        bad = dict(GEMM)
        bad["tiel"] = bad.pop("tile")
        with self.assertRaises(gpumemsim.ConfigError) as e:
            gpumemsim.run("h100", bad)
        self.assertRegex(str(e.exception), r"^<workload>:\d+:\d+: unknown workload\(gemm\) key 'tiel' \(did you mean 'tile'\?\)")

    def test_bad_value_in_set_and_unknown_preset(self):
        with self.assertRaises(ValueError) as e:
            gpumemsim.run("h100", GEMM, set={"gpu.l2.size": "lots"})
        self.assertIn("--set l2.size=lots", str(e.exception).replace("gpu.l2", "l2"))
        with self.assertRaises(gpumemsim.ConfigError) as e:
            gpumemsim.run("h10", GEMM)
        self.assertIn("did you mean 'h100'", str(e.exception))
        with self.assertRaises(gpumemsim.ConfigError):
            gpumemsim.run("h100", "/nonexistent/workload.yaml")
        with self.assertRaises(TypeError):
            gpumemsim.run("h100", 42)


class ThreadsTest(unittest.TestCase):
    def test_the_gil_is_released_while_simulating(self):
        # While a simulation runs in another thread, this thread keeps running Python: the longest
        # pause between its steps stays far below the simulation's duration.
        big = dict(GEMM, m=4096, n=4096, k=2048)
        t0 = time.perf_counter()
        gpumemsim.run("h100", big, ctas=False)
        alone = time.perf_counter() - t0
        done = threading.Event()
        th = threading.Thread(target=lambda: (gpumemsim.run("h100", big, ctas=False), done.set()))
        last, longest = time.perf_counter(), 0.0
        th.start()
        while not done.is_set():
            now = time.perf_counter()
            longest = max(longest, now - last)
            last = now
            time.sleep(0.001)
        th.join()
        self.assertGreater(alone, 0.2)
        self.assertLess(longest, 0.5 * alone, "the main thread was blocked %.3f s of %.3f s" % (longest, alone))


class SweepTest(unittest.TestCase):
    GRID = {"workload.cta_order.group_m": [1, 4], "workload.warps": [4, 8]}

    def test_sweep_is_deterministic_for_any_jobs_and_equals_run(self):
        one = gpumemsim.sweep("h100", GEMM, self.GRID, jobs=1)
        two = gpumemsim.sweep("h100", GEMM, self.GRID, jobs=2)
        self.assertEqual(one, two)
        self.assertEqual([(p["workload.cta_order.group_m"], p["workload.warps"]) for p in one],
                         [("1", "4"), ("1", "8"), ("4", "4"), ("4", "8")])
        single = gpumemsim.run("h100", GEMM, set={"workload.cta_order.group_m": 4, "workload.warps": 8}, ctas=False)
        self.assertEqual(one[3]["gpu__time_duration.sum"], single["gpu__time_duration.sum"])
        self.assertIsNone(one[3]["error"])

    def test_points_that_cannot_run_carry_their_error(self):
        rows = gpumemsim.sweep("h100", GEMM, {"workload.stages": [3, 12]})
        self.assertIsNone(rows[0]["error"])
        self.assertIsInstance(rows[1]["error"], str)
        self.assertNotIn("gpu__time_duration.sum", rows[1])

    def test_sweep_equals_the_cli_sweep(self):
        rows = gpumemsim.sweep("h100", GEMM_FILE, {"workload.warps": [4, 8]}, set=SMALL)
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([BIN, "sweep", "-g", "h100", "-w", GEMM_FILE, "--grid", "workload.warps=4,8", "-o", out,
                            "--metrics", "gpu__time_duration.sum"] + ["--set=%s=%s" % kv for kv in SMALL.items()],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with open(os.path.join(out, "sweep.csv")) as f:
                lines = f.read().splitlines()[1:]
        for row, line in zip(rows, lines):
            warps, t, err = line.split(",")
            self.assertEqual(row["workload.warps"], warps)
            self.assertEqual("%.8g" % row["gpu__time_duration.sum"], t)


class ExampleTest(unittest.TestCase):
    def test_rank_gemm_configs_example(self):
        ex = os.path.join(SRC, "python", "examples", "rank_gemm_configs.py")
        out = subprocess.run([sys.executable, ex, "--gpu", "h100", "--shape", "1024,1024,512", "--tiles",
                              "64x128x64,128x128x64", "--warps", "4", "--stages", "3,12", "--group-m", "8", "--top", "3"],
                             check=True, capture_output=True, text=True, env=os.environ).stdout
        self.assertIn("4 configurations, 2 run, 2 do not fit", out)
        self.assertEqual(len(out.strip().splitlines()), 4)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""Merge `ncu --csv --page raw` output into the runner's JSONL records and write one JSON record per
case: RESULTS/<kind>/<case>.json. Counters keep Nsight Compute's names (the simulator writes the
same names), values as numbers, units beside them.

usage: merge_ncu.py --records gemm.jsonl gemv.jsonl --ncu ncu_raw.csv --out validate/results/h100
The ncu file holds the profiled program's own output too: its 'profiled <case>' lines give, in order,
the case of each profiled kernel (ID 0, 1, ...)."""
import argparse, csv, io, json, lzma, os, sys

WANTED = ["gpu__time_duration.sum", "sm__cycles_elapsed.max", "dram__bytes_read.sum", "dram__bytes_write.sum",
          "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct",
          "lts__t_sector_op_read_hit_rate.pct", "lts__t_sectors_op_read.sum", "lts__t_sectors_op_read_lookup_hit.sum",
          "lts__t_sectors_op_read_lookup_miss.sum", "lts__t_sectors_op_write.sum", "lts__t_sectors_op_atom.sum",
          "lts__t_sectors_op_red.sum", "lts__t_sectors_srcunit_ltcfabric.sum", "l1tex__t_sector_hit_rate.pct",
          "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
          "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem", "launch__waves_per_multiprocessor",
          "launch__shared_mem_config_size",  # the carve-out the launch ran with (records_add_carveout.py)
          "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", "launch__grid_size", "launch__block_size",
          # the SM data path and the L2 request path (device_tensor_gemm.sh)
          "launch__shared_mem_per_block_dynamic", "smsp__inst_executed.sum", "smsp__sass_inst_executed_op_ldgsts.sum",
          "smsp__sass_inst_executed_op_ldsm.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "smsp__inst_executed_pipe_tensor_op_hmma.sum",
          "smsp__inst_executed_pipe_tensor_op_gmma.sum", "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
          "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_requests_srcunit_tex_op_read.sum",
          "l1tex__m_xbar2l1tex_read_sectors.sum", "lrc__xbar2lrc_requests_op_read.sum", "lrc__lrc2xbar_sectors_op_read.sum",
          "lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum", "lrc__xbar2gpc_sectors_op_read.sum",
          "smsp__warp_issue_stalled_barrier_per_warp_active.pct", "smsp__warp_issue_stalled_wait_per_warp_active.pct",
          "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct",
          # reductions, spills, per-CTA costs (device_gemv_sweep.sh)
          "lts__t_requests_op_red.sum", "lts__t_requests_op_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
          "smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "sm__ctas_launched.sum", "launch__occupancy_limit_warps",
          "launch__occupancy_limit_blocks", "smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct",
          "smsp__warp_issue_stalled_membar_per_warp_active.pct", "smsp__warp_issue_stalled_drain_per_warp_active.pct",
          "smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct",
          "smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct", "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
          "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
          "sm__cycles_elapsed.avg.per_second",
          # shared-memory bank conflicts (device_gemm_pad.sh)
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
          # the TMA's bulk tensor copies (device_tma.sh)
          "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", "l1tex__m_xbar2l1tex_read_sectors_pipe_tma.sum",
          "l1tex__tmain_requests.sum", "smsp__warp_issue_stalled_sleeping_per_warp_active.pct",
          "smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct"]


def number(text):
    t = text.replace(",", "").strip()
    try:
        return float(t)
    except ValueError:
        return None


def parse_ncu(path):
    opener = lzma.open if path.endswith(".xz") else open  # committed raw files are kept xz-compressed
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read().splitlines()
    cases = [l.split(" ", 1)[1].strip() for l in text if l.startswith("profiled ")]
    rows = [l for l in text if l.startswith('"')]
    if len(rows) < 2:
        sys.exit(f"{path}: no ncu CSV rows found")
    table = list(csv.reader(io.StringIO("\n".join(rows))))
    header, units, data = table[0], table[1], table[2:]
    if len(data) != len(cases):
        sys.exit(f"{path}: {len(data)} profiled kernels but {len(cases)} 'profiled' lines")
    out = {}
    for case, row in zip(cases, data):
        counters, unit_of = {}, {}
        for name in WANTED:
            if name in header:
                i = header.index(name)
                v = number(row[i])
                if v is not None:
                    counters[name] = v
                    unit_of[name] = units[i]
        counters_kernel = row[header.index("Kernel Name")]
        out[case] = {"counters": counters, "counter_units": unit_of, "kernel": counters_kernel}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", nargs="+", required=True)
    ap.add_argument("--ncu")
    ap.add_argument("--out", required=True)
    ap.add_argument("--dir", help="directory under --out for the records (default: the record's kind)")
    ap.add_argument("--command", default="validate/scripts/device_run.sh profile",
                    help="the device script that produced the ncu file (written into each record)")
    a = ap.parse_args()
    prof = parse_ncu(a.ncu) if a.ncu else {}
    written = 0
    for path in a.records:
        for lineno, line in enumerate(open(path), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{lineno}: {e}")
            if rec["case"] in prof:
                rec.update({"ncu": {"command": f"ncu --clock-control none --csv --page raw ({a.command})",
                                    **prof[rec["case"]]}})
            d = os.path.join(a.out, a.dir or rec["kind"])
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, rec["case"] + ".json"), "w") as f:
                json.dump(rec, f, indent=1, sort_keys=False)
                f.write("\n")
            written += 1
    print(f"wrote {written} records under {a.out} ({len(prof)} with ncu counters)")


if __name__ == "__main__":
    main()

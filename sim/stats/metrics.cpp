#include "stats/metrics.h"

#include "model/stall_accounting.h"

namespace gms {
namespace {

double pct(double num, double den) { return den > 0 ? 100.0 * num / den : 0.0; }

// Mean cycles of the line reads of one class (MemCounters::l2_line_reads; 0 when there were none).
double mean_cycles(const MemCounters& m, int read_class) {
  const auto n = m.l2_line_reads[read_class];
  return n > 0 ? ticks_to_cycles(m.l2_line_read_ticks[read_class]) / static_cast<double>(n) : 0.0;
}

}  // namespace

double math_peak_flops(const GpuConfig& gpu, const LaunchShape& shape) {
  const auto& sm = gpu.sm;
  const double rate = shape.simt_math ? sm.fma_flops_per_cycle : tensor_flops_per_cycle(sm, shape.math_dtype);
  return rate * sm.count * gpu.sm_clock;
}

std::vector<Metric> compute_metrics(const SimResult& r, const GpuConfig& gpu, const Kernel& kernel) {
  const double sector = gpu.l2.sector;
  const MemCounters& m = r.mem;
  const double cycles = static_cast<double>(ticks_to_whole_cycles(r.end) + gpu.launch.kernel_overhead * r.launches);
  const double clock = r.sm_clock > 0 ? r.sm_clock : gpu.sm_clock;  // the power model's, if it ran
  const double seconds = cycles / clock;
  const double dram_rd = static_cast<double>(r.dram_read_bytes), dram_wr = static_cast<double>(r.dram_write_bytes);
  const double l2_rd = static_cast<double>(m.l2_read_sectors), l2_rd_hit = static_cast<double>(m.l2_read_hit_sectors);
  const double l2_wr = static_cast<double>(m.l2_write_sectors);
  const double l2_red = static_cast<double>(m.l2_red_sectors), l2_red_hit = static_cast<double>(m.l2_red_hit_sectors);
  // Nsight counts a write that allocates in L2 as a hit (write-allocate without fetch); so do we.
  const double l2_lookup_hit = l2_rd_hit + l2_wr + l2_red_hit;
  const double l2_all = l2_rd + l2_wr + l2_red;
  const double l1_ld = static_cast<double>(m.l1_ld_sectors), l1_hit = static_cast<double>(m.l1_ld_hit_sectors);
  const double local_ld = static_cast<double>(m.l1_local_ld_sectors), local_hit = static_cast<double>(m.l1_local_ld_hit_sectors);
  const double slice_ticks = static_cast<double>(r.end) * gpu.l2.slices;  // the slices' elapsed time, summed
  const LaunchShape& s = r.shape;
  const Occupancy& o = r.occupancy;
  std::vector<Metric> v = {
      {"gpu__time_duration.sum", seconds * 1e9, "ns", "kernel duration (launch.kernel_overhead included)"},
      {"sm__cycles_elapsed.max", cycles, "cycle", "SM cycles from launch to the last CTA retiring"},
      {"gpc__cycles_elapsed.max", cycles, "cycle", "same clock domain as the SMs in this model"},
      {"sm__cycles_elapsed.avg.per_second", clock, "hertz",
       "SM clock: clock.sm, clock.sm_tensor for tensor-core GEMMs, lowered by the power model under load"},
      {"gpumemsim__sm_clock_simulated", r.simulated_clock > 0 ? r.simulated_clock : gpu.sm_clock, "hertz",
       "SM clock the cycles were simulated at (DRAM and L2 bandwidth per cycle); a run whose power-model clock "
       "differs by more than 2 % is simulated again at that clock"},
      {"dram__bytes_read.sum", dram_rd, "byte", "bytes read from DRAM"},
      {"dram__bytes_write.sum", dram_wr, "byte", "bytes written to DRAM (L2 write-backs during the kernel)"},
      {"dram__sectors_read.sum", dram_rd / sector, "sector", "32 B sectors read from DRAM"},
      {"dram__sectors_write.sum", dram_wr / sector, "sector", "32 B sectors written to DRAM"},
      {"dram__bytes.sum.per_second", seconds > 0 ? (dram_rd + dram_wr) / seconds : 0, "byte/second",
       "achieved DRAM bandwidth, read + write"},
      {"dram__throughput.avg.pct_of_peak_sustained_elapsed", pct((dram_rd + dram_wr) / seconds, gpu.dram.bandwidth),
       "%", "achieved DRAM bandwidth over the theoretical peak"},
      {"lts__t_sectors.sum", l2_all, "sector", "L2 sector lookups, all operations"},
      {"lts__t_sectors_op_read.sum", l2_rd, "sector", "L2 sector lookups by reads"},
      {"lts__t_sectors_op_write.sum", l2_wr, "sector", "L2 sector lookups by writes"},
      {"lts__t_sectors_op_red.sum", l2_red, "sector", "L2 sector lookups by reductions (atomics without return)"},
      {"lts__t_sectors_op_atom.sum", 0.0, "sector", "L2 sector lookups by atomics that return a value (none yet)"},
      {"lts__t_sectors_op_read_lookup_hit.sum", l2_rd_hit, "sector", "read sectors that hit"},
      {"lts__t_sectors_op_read_lookup_miss.sum", l2_rd - l2_rd_hit, "sector", "read sectors that missed"},
      {"lts__t_sectors_lookup_hit.sum", l2_lookup_hit, "sector", "all sectors that hit (writes count as hits)"},
      {"lts__t_sectors_lookup_miss.sum", l2_all - l2_lookup_hit, "sector", "all sectors that missed"},
      {"lts__t_sector_hit_rate.pct", pct(l2_lookup_hit, l2_all), "%", "L2 sector hit rate, all operations"},
      {"lts__t_sector_op_read_hit_rate.pct", pct(l2_rd_hit, l2_rd), "%", "L2 sector hit rate of reads"},
      {"lts__t_sectors_srcunit_tex_op_read.sum", static_cast<double>(m.l2_first_lookup_sectors), "sector",
       "L2 read lookups for SM requests, after the request coalescer (forwarded far lookups not included)"},
      {"l1tex__m_xbar2l1tex_read_sectors.sum", static_cast<double>(m.l2_requested_sectors), "sector",
       "sectors L2 delivered to the SMs for reads (every requester of a coalesced read counts)"},
      {"lrc__xbar2lrc_requests_op_read.sum", static_cast<double>(m.l2_read_requests), "request",
       "line read requests from the SMs into the L2 request coalescer"},
      {"lts__t_requests_srcunit_tex_op_read.sum", static_cast<double>(m.l2_first_lookup_requests), "request",
       "L2 read requests from the SMs that reached the tag stage (after the coalescer; forwarded far lookups not "
       "included)"},
      // Silicon's tag stage takes one lookup an L2 cycle (l2.tag_requests_per_cycle measures it at that peak).
      {"lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed", pct(static_cast<double>(m.l2_tag_busy_ticks), slice_ticks),
       "%", "L2 tag stage busy over the kernel, mean of the slices (0: l2.tag_requests_per_cycle 0, no tag-stage limit)"},
      // The model's one data stage a slice stands for silicon's L2 -> crossbar stage, which every read reply takes,
      // hit or fill, and which caps at 89-93 % of its peak (lts__lts2xbar_cycles_active, validate/results/h200/l2_mix).
      {"gpumemsim__l2_slice_data_busy.pct", pct(static_cast<double>(m.l2_slice_data_busy_ticks), slice_ticks), "%",
       "L2 slices' data stage (l2.slice_bytes_per_cycle: read replies, fills, store data) busy over the kernel, mean "
       "of the slices; silicon's nearest: lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed, ~0.9 of this "
       "where the stage caps"},
      {"lts__t_sectors_srcunit_ltcfabric.sum", static_cast<double>(m.l2_far_sectors), "sector",
       "sectors that crossed between L2 partitions"},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", static_cast<double>(m.ld_requests), "request",
       "global load instructions (groups of warp instructions in generated workloads)"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", l1_ld, "sector", "global load sectors looked up in L1"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", l1_hit, "sector", "L1 load sectors that hit"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", l1_ld - l1_hit, "sector",
       "L1 load sectors that missed"},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", local_ld, "sector", "local (spill) load sectors looked up in L1"},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", static_cast<double>(m.l1_local_st_sectors), "sector",
       "local (spill) store sectors through L1"},
      {"l1tex__t_sector_hit_rate.pct", pct(l1_hit + local_hit, l1_ld + local_ld), "%",
       "L1 sector hit rate of global and local loads (0: no L1 loads)"},
      {"sm__warps_active.avg.pct_of_peak_sustained_active",
       pct(r.warp_ticks_resident, r.sm_active_ticks * gpu.sm.max_warps), "%", "achieved occupancy"},
      {"smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct", r.stalls.pct(WarpState::kLongScoreboard), "%",
       "warp time waiting for loaded data (L1TEX: global, local)"},
      {"smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct", r.stalls.pct(WarpState::kShortScoreboard), "%",
       "warp time waiting for shared-memory data (MIO)"},
      {"smsp__warp_issue_stalled_wait_per_warp_active.pct", r.stalls.pct(WarpState::kWait), "%",
       "warp time waiting on a fixed-latency dependency (traced ALU results)"},
      {"smsp__warp_issue_stalled_barrier_per_warp_active.pct", r.stalls.pct(WarpState::kBarrier), "%",
       "warp time waiting at CTA barriers"},
      {"smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct", r.stalls.pct(WarpState::kMathPipeThrottle),
       "%", "warp time waiting for a busy math pipe"},
      {"smsp__warp_issue_stalled_not_selected_per_warp_active.pct", r.stalls.pct(WarpState::kNotSelected), "%",
       "warp time eligible but another warp issued"},
      {"smsp__warp_issue_stalled_selected_per_warp_active.pct", r.stalls.pct(WarpState::kSelected), "%",
       "warp time issuing"},
      // Silicon's two views of the slots agree: the warps' selected shares summed over a sub-partition are
      // its issue_active (validate/results/h200/ladder_issue).
      {"smsp__issue_active.avg.pct_of_peak_sustained_active",
       pct(static_cast<double>(r.stalls.total(WarpState::kSelected)), r.sm_active_ticks * gpu.sm.subpartitions), "%",
       "cycles a sub-partition issued: its warps' selected time over its active time (a port held for "
       "register-bank conflicts or an MMA does not issue)"},
      {"smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct", r.stalls.pct(WarpState::kDispatchStall), "%",
       "warp time the issue stage could not dispatch (an input: the loop's measured issue.measured.dispatch_stall)"},
      {"smsp__warp_issue_stalled_branch_resolving_per_warp_active.pct", r.stalls.pct(WarpState::kBranchResolving), "%",
       "warp time waiting for branch targets (an input: the loop's measured issue.measured.branch_resolving)"},
      {"smsp__warp_issue_stalled_drain_per_warp_active.pct", r.stalls.pct(WarpState::kDrain), "%",
       "warp time after EXIT until the L2 has taken its stores and reductions (the CTA's slot stays taken)"},
      {"smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct", r.stalls.pct(WarpState::kMioThrottle), "%",
       "warp time its next shared-memory instruction waited for room in the MIO queue (sm.mio_queue_*)"},
      {"smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct", r.stalls.pct(WarpState::kLgThrottle), "%",
       "warp time after a store until its data left the SM (icnt.stores_wait_for_way_out)"},
      {"smsp__warp_issue_stalled_no_instruction_per_warp_active.pct", r.stalls.pct(WarpState::kNoInstruction), "%",
       "warp time waiting for its next instructions to be fetched (a loop larger than sm.instruction_cache_instructions)"},
      {"smsp__inst_executed.sum", static_cast<double>(r.warp_instructions), "inst",
       "instructions issued (a load group or MMA block counts once)"},
      {"smsp__sass_inst_executed_op_shared_ld.sum", static_cast<double>(r.shared.ld_instructions), "inst",
       "shared-memory load warp instructions (LDS)"},
      {"smsp__sass_inst_executed_op_shared_st.sum", static_cast<double>(r.shared.st_instructions), "inst",
       "shared-memory store warp instructions (STS)"},
      {"smsp__sass_inst_executed_op_ldgsts.sum", static_cast<double>(r.shared.ldgsts_instructions), "inst",
       "cp.async global -> shared warp instructions (LDGSTS)"},
      {"l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", static_cast<double>(r.mem.tma_sectors), "sector",
       "sectors bulk tensor copies (TMA, UTMALDG) read from L2 into shared memory"},
      {"smsp__sass_inst_executed_op_ldsm.sum", static_cast<double>(r.shared.ldsm_instructions), "inst",
       "ldmatrix warp instructions (LDSM; their wavefronts count as shared loads)"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
       static_cast<double>(r.shared.ld_wavefronts + r.shared.st_wavefronts + r.shared.ldgsts_wavefronts +
                           r.shared.shfl_wavefronts),
       "wavefront", "all shared-memory data-path wavefronts (loads, stores, the shared side of LDGSTS, warp shuffles)"},
      {"smsp__inst_executed_pipe_tensor_op_hmma.sum", static_cast<double>(r.mma_instructions), "inst",
       "tensor-pipe warp instructions (HMMA, and on Hopper HGMMA too, counted per warp)"},
      {"smsp__inst_executed_pipe_tensor_op_gmma.sum", s.mma_class == "wgmma" ? static_cast<double>(r.mma_instructions) : 0.0,
       "inst", "warpgroup MMA instructions (HGMMA), counted per warp"},
      {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
       pct(r.tensor_busy_ticks, r.sm_active_ticks * gpu.sm.subpartitions), "%",
       "tensor pipe busy time over SM active time, at the rate of the kernel's MMA class"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", static_cast<double>(r.shared.ld_wavefronts), "wavefront",
       "shared-memory load wavefronts (bank conflicts add wavefronts)"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", static_cast<double>(r.shared.st_wavefronts), "wavefront",
       "shared-memory store wavefronts"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", static_cast<double>(r.shared.ld_conflicts), "conflict",
       "shared-memory load wavefronts beyond one per lane group"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", static_cast<double>(r.shared.st_conflicts), "conflict",
       "shared-memory store wavefronts beyond one per lane group"},
      {"launch__grid_size", static_cast<double>(s.grid_ctas), "block", "CTAs in the grid"},
      {"launch__block_size", static_cast<double>(s.warps_per_cta * gpu.sm.warp_size), "thread", "threads per CTA"},
      {"launch__registers_per_thread", static_cast<double>(s.registers_per_thread), "register/thread",
       "registers per thread (estimated unless the workload sets it)"},
      {"launch__shared_mem_per_block", static_cast<double>(s.shared_mem_per_cta), "byte", "shared memory per CTA"},
      {"launch__occupancy_limit_blocks", static_cast<double>(o.by_ctas), "block", "CTAs per SM allowed by the CTA limit"},
      {"launch__occupancy_limit_registers", static_cast<double>(o.by_registers), "block", "by registers"},
      {"launch__occupancy_limit_shared_mem", static_cast<double>(o.by_shared_mem), "block", "by shared memory"},
      {"launch__occupancy_limit_warps", static_cast<double>(o.by_warps), "block", "by warps"},
      {"launch__waves_per_multiprocessor",
       static_cast<double>(s.grid_ctas) / (static_cast<double>(o.ctas_per_sm) * gpu.sm.count), "wave",
       "grid size over CTAs the GPU holds at once"},
      {"gpumemsim__ctas_simulated", static_cast<double>(s.ctas), "block", "CTAs simulated (cta_limit applied)"},
      {"gpumemsim__bytes_served_l1.sum", static_cast<double>(m.l1_hit_bytes), "byte", "load bytes served by L1 hits"},
      {"gpumemsim__bytes_served_l2.sum", static_cast<double>(m.l2_hit_bytes), "byte", "load bytes served by L2 hits"},
      {"gpumemsim__bytes_served_dram.sum", static_cast<double>(m.dram_served_bytes), "byte",
       "load bytes that came from DRAM"},
      {"gpumemsim__l2_home_check_sectors.sum", static_cast<double>(m.l2_home_check_sectors), "sector",
       "replica hits also looked up at their home slice (l2.far_read_hits_at_home)"},
      {"gpumemsim__l2_coalesced_sectors.sum", static_cast<double>(m.l2_coalesced_sectors), "sector",
       "read sectors merged into an open request by the L2 request coalescer (no lookup)"},
      {"gpumemsim__l2_line_reads_merged.sum", static_cast<double>(m.l2_line_reads[0]), "request",
       "line reads merged into another SM's open request at the L2 (the request coalescer)"},
      {"gpumemsim__l2_line_reads_hit.sum", static_cast<double>(m.l2_line_reads[1]), "request",
       "line reads whose sectors were all in L2 and arrived"},
      {"gpumemsim__l2_line_reads_in_flight.sum", static_cast<double>(m.l2_line_reads[2]), "request",
       "line reads that met a sector still arriving: another request's fill in flight (a tag hit to Nsight)"},
      {"gpumemsim__l2_line_reads_miss.sum", static_cast<double>(m.l2_line_reads[3]), "request",
       "line reads with a sector missing in L2 (fetched from DRAM, or from the far partition's home)"},
      {"gpumemsim__l2_line_read_cycles_merged.avg", mean_cycles(m, 0), "cycle",
       "mean cycles from a merged line read's send to its data back at the SM"},
      {"gpumemsim__l2_line_read_cycles_hit.avg", mean_cycles(m, 1), "cycle", "the same for hits"},
      {"gpumemsim__l2_line_read_cycles_in_flight.avg", mean_cycles(m, 2), "cycle",
       "the same for reads that met a fill in flight"},
      {"gpumemsim__l2_line_read_cycles_miss.avg", mean_cycles(m, 3), "cycle", "the same for misses"},
      {"gpumemsim__l2_replica_hit_sectors.sum", static_cast<double>(m.l2_replica_hit_sectors), "sector",
       "far lines found as copies in the near partition"},
      {"gpumemsim__l2_dirty_sectors_at_end.sum", static_cast<double>(r.l2_dirty_sectors_at_end), "sector",
       "dirty sectors left in L2 when the kernel ends (written back later, not in dram__bytes_write)"},
      {"gpumemsim__compulsory_bytes.sum", kernel.compulsory_bytes(), "byte",
       "bytes with perfect reuse: every input read once, every output written once"},
      {"gpumemsim__flop.sum", r.flops, "flop", "floating-point operations simulated"},
      {"gpumemsim__flop_rate.pct_of_peak", pct(r.flops / seconds, math_peak_flops(gpu, s)), "%",
       "achieved FLOP/s over the math pipe's peak at clock.sm"},
  };
  return v;
}

const Metric* find_metric(const std::vector<Metric>& metrics, const std::string& name) {
  for (const auto& m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace gms

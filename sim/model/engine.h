#pragma once
// The event loop: SM sub-partitions wake when one of their warps can issue, CTAs are dispatched as
// others retire, and memory instructions are timed by the MemorySystem at issue. Idle hardware costs
// nothing: time jumps from one issue to the next.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/types.h"
#include "config/gpu_config.h"
#include "model/mem_counters.h"
#include "model/memory_system.h"
#include "model/occupancy.h"
#include "model/stall_accounting.h"
#include "model/timeline.h"
#include "workload/program.h"

namespace gms {

// The SM data path's shared-memory side, summed over SMs (Nsight: smsp__sass_inst_executed_op_shared_*,
// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*, l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*).
struct SharedCounters {
  std::uint64_t ld_instructions = 0, st_instructions = 0, ldgsts_instructions = 0, ldsm_instructions = 0;
  std::uint64_t ld_wavefronts = 0, st_wavefronts = 0, ldgsts_wavefronts = 0;
  std::uint64_t ld_conflicts = 0, st_conflicts = 0;
  std::uint64_t shfl_instructions = 0, shfl_wavefronts = 0;  // warp shuffles: MIO, one data-path pass each
  template <class Self, class Other, class F>
  static void each(Self& a, Other& b, F&& f) {
    f(a.ld_instructions, b.ld_instructions), f(a.st_instructions, b.st_instructions);
    f(a.ldgsts_instructions, b.ldgsts_instructions), f(a.ldsm_instructions, b.ldsm_instructions);
    f(a.ld_wavefronts, b.ld_wavefronts), f(a.st_wavefronts, b.st_wavefronts), f(a.ldgsts_wavefronts, b.ldgsts_wavefronts);
    f(a.ld_conflicts, b.ld_conflicts), f(a.st_conflicts, b.st_conflicts);
    f(a.shfl_instructions, b.shfl_instructions), f(a.shfl_wavefronts, b.shfl_wavefronts);
  }
  SharedCounters& operator+=(const SharedCounters& o) {
    each(*this, o, [](std::uint64_t& x, const std::uint64_t& y) { x += y; });
    return *this;
  }
};
static_assert(sizeof(SharedCounters) == 11 * sizeof(std::uint64_t), "a new counter must be listed in SharedCounters::each");

struct CtaRecord {
  std::int64_t launch_index = 0;
  TileCoord tile;
  int sm = 0;
  Tick start = 0, end = 0;
  // Phase marks, for comparing with a kernel's own stamps (validate/scripts/cta_phases.py): when its
  // first barrier released (a GEMM: the first K tile is in shared memory) and when it issued its
  // first global store (a GEMM: the epilogue begins), and when its first warp issued its first special-register
  // read (S2R; the Triton GEMV's start stamp, validate/scripts/triton_gemv_start_wait.py). kNever: it had none.
  Tick first_barrier = kNever, first_store = kNever, first_special_read = kNever;
  CtaMemCounts mem;
};

struct SimResult {
  Tick end = 0;  // last CTA retired (a sequence of kernels: the sum of their durations)
  int launches = 1;  // kernels run (each adds launch.kernel_overhead to the time)
  LaunchShape shape;
  Occupancy occupancy;
  MemCounters mem;
  std::uint64_t dram_read_bytes = 0;
  std::uint64_t dram_write_bytes = 0;
  std::uint64_t l2_dirty_sectors_at_end = 0;
  std::uint64_t warp_instructions = 0;
  SharedCounters shared;
  double warp_ticks_resident = 0;  // sum over warps of resident time
  double sm_active_ticks = 0;      // sum over SMs of first-CTA-start .. last-CTA-end
  double flops = 0;
  double tensor_busy_ticks = 0;        // sum over sub-partitions of tensor-pipe busy time (at the class rate)
  std::uint64_t mma_instructions = 0;  // tensor-pipe warp instructions (HMMA / HGMMA, per warp)
  // SM clock the kernel ran at, when the power model set it after the run (0: the GPU's clock).
  double sm_clock = 0;
  // SM clock the run was simulated at: DRAM and L2 bandwidths were converted to bytes per cycle of it.
  double simulated_clock = 0;
  StallAccounting stalls;
  std::vector<CtaRecord> ctas;
  // Sampled runs (Engine::set_sample_waves): the CTAs simulated in detail and the retirement the
  // extrapolation starts from; 0 = every CTA was simulated (the default, exact mode).
  std::int64_t sampled_ctas = 0, sampled_from = 0;
  int sample_waves = 0;
};

// Appends the next kernel of a sequence: durations and counters add up; the CTA records follow on
// the sequence's time line (`offset`: where the kernel started, relative to the first).
void append_kernel_result(SimResult& total, SimResult&& next, Tick offset);

using ProgressFn = std::function<void(std::int64_t retired, std::int64_t total, Tick now)>;

// How the memory side times requests (issue 13, item 3). kOff: at issue, inside the issuing event (the
// default). Pipelined - every request through one FIFO in issue order, timed by the same calls in the same
// order, so the result is the same bit for bit -: on this thread (kInline: for tests of the pipeline) or on a
// worker thread of its own (kWorker: run --threads 2+). Where an l2.*_in_arrival_order switch is on, requests
// go by departure instead and every choice runs as kOff.
enum class Pipeline { kOff, kInline, kWorker };

class Engine {
 public:
  // With `shared_memory`, the kernel runs on a memory system that outlives it (a sequence of kernels:
  // L2 contents and the servers' time carry over); otherwise on its own.
  Engine(const GpuConfig& gpu, const Kernel& kernel, MemorySystem* shared_memory = nullptr);
  ~Engine();
  void set_timeline(Timeline* t);
  void set_progress(ProgressFn fn) { progress_ = std::move(fn); }
  void trace_warps_of_sm(int sm);
  // The tick the kernel starts at on a shared memory system (its result's times are relative to it).
  void set_start(Tick t);
  void set_pipeline(Pipeline p);
  // Approximate mode (never the default): simulate the first `waves` x (CTAs resident at once) CTAs
  // and extrapolate time and every counter linearly in retired CTAs from the second half of them
  // (the steady state) to the whole grid. 0, or a grid of no more CTAs, simulates everything.
  void set_sample_waves(int waves);
  SimResult run();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ProgressFn progress_;
};

}  // namespace gms

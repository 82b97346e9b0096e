#pragma once
// A kernel replayed from an Accel-Sim trace (kind: trace). The engine asks for thread blocks in
// launch order; each is read from the trace file when the engine places it and dropped when its
// last warp exits, so a trace of any size replays with only the resident CTAs in memory.
//
// Each traced instruction becomes one engine instruction, classified by the architecture's ISA
// table (configs/isa/sm_<cc>.yaml): ALU results land in a scoreboard slot after the class's latency,
// loads after the memory model's time; an instruction whose source or destination registers are
// pending first waits for their slots. Global/local accesses carry the lanes' addresses (coalesced
// by the memory system), shared accesses their bank-conflict wavefronts (the access analyser),
// cp.async copies join commit groups that DEPBAR waits for.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/gpu_config.h"
#include "trace/accelsim_trace.h"
#include "trace/isa_table.h"
#include "workload/cta_read_ahead.h"
#include "workload/program.h"
#include "workload/resident_ctas.h"

namespace gms {

class TraceKernel final : public Kernel {
 public:
  // How far a read-ahead runs (`read_ahead` below, run --threads 2+): the blocks and bytes decoded but not
  // yet placed. A wave's block starts come at once (1,056 CTAs on an H100): 16 blocks ahead gained nothing,
  // 256 (~130 MB of a 245 MB vectorAdd trace's blocks) ~9 %; the bytes bound traces with larger blocks.
  static constexpr int kReadAheadBlocks = 256;
  static constexpr std::size_t kReadAheadBytes = 128u << 20;
  // `cta_limit` > 0 replays only the first CTAs of the file. `read_ahead` > 0: a second thread reads and
  // decodes up to that many blocks ahead of the replay, and up to kReadAheadBytes of them (CtaReadAhead;
  // the same simulation either way).
  // From a reader that has read the header only (a file, or any stream for tests and fuzzing).
  TraceKernel(std::unique_ptr<CtaSource> reader, const IsaTable& isa, const GpuConfig& gpu,
              std::int64_t cta_limit = 0, int read_ahead = 0);
  ~TraceKernel() override;

  std::string name() const override { return header_.name; }
  LaunchShape shape() const override { return shape_; }
  TileCoord tile_of(std::int64_t launch_index) const override;
  void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const override;
  void next(WarpCursor& c, Instr& out) const override;
  double compulsory_bytes() const override { return 0; }  // unknown before the replay
  double flops() const override { return 0; }              // counted as the replay runs
  const TraceKernelHeader& header() const { return header_; }

 private:
  CtaProgram& resident(std::int64_t launch_index) const;
  // The next block of the file (block `launch_index`: the file is read in launch order), decoded.
  std::unique_ptr<CtaProgram> read_block(std::int64_t launch_index) const;
  std::unique_ptr<CtaProgram> decode(const TraceCta& cta, std::int64_t launch_index) const;

  const IsaTable& isa_;
  const GpuConfig& gpu_;
  TraceKernelHeader header_;
  LaunchShape shape_;
  double mma_flops_per_cycle_ = 0, wgmma_flops_per_cycle_ = 0;  // per SM
  // Replay state: the engine runs one kernel on one thread and asks in launch order.
  mutable std::unique_ptr<CtaSource> reader_;
  mutable ResidentCtas ctas_;
  // With read-ahead, only its worker reads `reader_` and decodes; declared last, so it stops first.
  std::unique_ptr<CtaReadAhead> read_ahead_;
};

// Where a per-thread local-memory offset of lane `lane` lives: local memory is interleaved so that
// the same offset of a warp's 32 threads is contiguous (one coalesced access per warp instruction).
Addr local_memory_address(std::int64_t global_warp, int lane, Addr offset, std::uint32_t width);

}  // namespace gms

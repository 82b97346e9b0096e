#pragma once
// Engine-level traces: a generated workload (GEMM, GEMV, tiled GEMM) written out instruction by
// instruction (`gpumemsim trace export`) and replayed exactly (`kind: trace` on a .gmstrace). The
// instructions are the engine's own (regions, FLOP blocks, wavefronts, scoreboard slots), so the
// replay reproduces the generated run's statistics bit for bit; a SASS trace could not.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trace/gms_trace.h"
#include "trace/trace_summary.h"
#include "workload/program.h"
#include "workload/resident_ctas.h"

namespace gms {

struct EngineKernelHeader {
  std::string name;
  LaunchShape shape;
  double compulsory_bytes = 0, flops = 0;
  bool tensor_clock = false;  // ran at clock.sm_tensor and under the power model's clock
};

std::string encode_engine_header(const EngineKernelHeader& h);
EngineKernelHeader decode_engine_header(ByteReader& r);

struct ExportStats {
  std::int64_t ctas = 0, warp_instructions = 0;
};
// Writes every CTA of `kernel` (launch order, each warp's instructions to its exit) as one kernel.
ExportStats export_kernel(const Kernel& kernel, bool tensor_clock, GmsTraceWriter& out);

// `trace info` of an engine-level kernel: instructions by engine operation (load, compute, ...), the
// global bytes its regions and lanes request and the distinct 32-byte sectors they touch (counted up
// to 2^26 sectors; beyond that the count is a lower bound, and `sectors_capped` says so).
TraceKernelSummary summarize_engine_kernel(const std::string& path, const GmsCommand& kernel, bool* sectors_capped);

class RecordedKernel final : public Kernel {
 public:
  RecordedKernel(const std::string& path, const GmsCommand& kernel, std::int64_t cta_limit = 0);
  ~RecordedKernel() override;

  std::string name() const override { return header_.name; }
  LaunchShape shape() const override { return shape_; }
  TileCoord tile_of(std::int64_t launch_index) const override;
  void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const override;
  void next(WarpCursor& c, Instr& out) const override;
  double compulsory_bytes() const override { return header_.compulsory_bytes; }
  double flops() const override { return header_.flops; }
  const EngineKernelHeader& header() const { return header_; }

 private:
  CtaProgram& resident(std::int64_t launch_index) const;
  std::unique_ptr<CtaProgram> read_cta() const;  // the next 'C' block, decoded

  EngineKernelHeader header_;
  LaunchShape shape_;
  mutable GmsTraceReader reader_;
  mutable ResidentCtas ctas_;
};

}  // namespace gms

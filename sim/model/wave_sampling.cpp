#include "model/wave_sampling.h"

#include <algorithm>

namespace gms {

CountSnapshot snapshot_counts(const SimResult& r, const MemorySystem& mem, double sm_active, Tick t) {
  CountSnapshot s;
  s.t = t;
  s.warp_instructions = r.warp_instructions;
  s.mma_instructions = r.mma_instructions;
  s.dram_read = mem.dram().bytes_read();
  s.dram_write = mem.dram().bytes_written();
  s.warp_ticks_resident = r.warp_ticks_resident;
  s.flops = r.flops;
  s.tensor_busy_ticks = r.tensor_busy_ticks;
  s.sm_active = sm_active;
  s.shared = r.shared;
  s.mem = mem.counters();
  s.stalls = r.stalls;
  return s;
}

void extrapolate_counts(SimResult& r, const CountSnapshot& a, const CountSnapshot& b, double f) {
  auto grow = [f](std::uint64_t now, std::uint64_t before) {
    return now + static_cast<std::uint64_t>(static_cast<double>(now - before) * f + 0.5);
  };
  auto grow_d = [f](double now, double before) { return now + (now - before) * f; };
  r.end = b.t + static_cast<Tick>(static_cast<double>(b.t - a.t) * f + 0.5);
  r.warp_instructions = grow(b.warp_instructions, a.warp_instructions);
  r.mma_instructions = grow(b.mma_instructions, a.mma_instructions);
  r.dram_read_bytes = grow(b.dram_read, a.dram_read);
  r.dram_write_bytes = grow(b.dram_write, a.dram_write);
  r.warp_ticks_resident = grow_d(b.warp_ticks_resident, a.warp_ticks_resident);
  r.flops = grow_d(b.flops, a.flops);
  r.tensor_busy_ticks = grow_d(b.tensor_busy_ticks, a.tensor_busy_ticks);
  r.sm_active_ticks = grow_d(b.sm_active, a.sm_active);
  r.shared = b.shared;
  SharedCounters::each(r.shared, a.shared, [&](std::uint64_t& x, const std::uint64_t& y) { x = grow(x, y); });
  r.mem = b.mem;
  MemCounters::each(r.mem, a.mem, [&](std::uint64_t& x, const std::uint64_t& y) { x = grow(x, y); });
  r.stalls = b.stalls;
  r.stalls.extrapolate(a.stalls, f);
  std::erase_if(r.ctas, [](const CtaRecord& c) { return c.end == 0; });
}

}  // namespace gms

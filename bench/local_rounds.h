#pragma once
// gms-local-ubench's rounds on the memory system alone (validate/results/h200/local_writeback): each of `ctas` SMs
// (`warps` warps) stores and/or loads its threads' 720-byte frames - a warp's 90 slots of 256 bytes one block, as
// local memory lays them out - `rounds` times over, as local (spill) or global accesses, the frames missing a 28 KiB
// L1 as silicon's did beside 200 KiB of shared memory. Shared by bench/local_writeback.cpp (the model's side of the
// microbenchmark) and the unit tests of l2.dirty_ways_per_set.
#include <algorithm>
#include <cstdint>

#include "model/memory_system.h"

namespace gms::bench {

struct LocalRounds {
  std::uint64_t first_written = 0, first_read = 0;  // DRAM bytes after the first round
  std::uint64_t written = 0, read = 0;              // after all of them
  // After the first two rounds (ncu's warm-up launch, on an emptied L2): the L2's read lookups
  // (lts__t_sectors_op_read.sum) and the sectors the SMs asked it for (L1 misses, l1tex__m_xbar2l1tex_read_sectors.sum).
  std::uint64_t early_l2_reads = 0, early_l2_requested = 0;
};

inline LocalRounds replay_local_rounds(const GpuConfig& gpu, int ctas, int warps, int rounds, bool local, bool store,
                                       bool load) {
  constexpr int kSlots = 90;
  MemorySystem mem(gpu);
  mem.set_l1_bytes(28 * 1024);
  const Addr base = 0x7f0000000000ull;
  Tick t = 0;
  auto each_slot = [&](auto&& fn) {
    for (int i = 0; i < kSlots; ++i)
      for (int w = 0; w < warps; ++w, t += cycles_to_ticks(8.0))
        for (int c = 0; c < ctas; ++c)
          fn(AccessCtx{c, t, nullptr, local},
             Region{base + (static_cast<Addr>(c) * warps + w) * (kSlots * 256) + static_cast<Addr>(i) * 256, 1, 256, 0});
  };
  LocalRounds out;
  for (int r = 0; r < rounds; ++r) {
    if (store) each_slot([&](const AccessCtx& ctx, const Region& reg) { local ? mem.store_local(ctx, reg) : mem.store(ctx, reg); });
    if (load) each_slot([&](const AccessCtx& ctx, const Region& reg) { mem.load(ctx, reg, !local); });
    if (r == 0) {
      out.first_written = mem.dram().bytes_written();
      out.first_read = mem.dram().bytes_read();
    }
    if (r == std::min(rounds, 2) - 1) {
      out.early_l2_reads = mem.counters().l2_read_sectors;
      out.early_l2_requested = mem.counters().l2_requested_sectors;
    }
  }
  out.written = mem.dram().bytes_written();
  out.read = mem.dram().bytes_read();
  return out;
}

}  // namespace gms::bench

#pragma once
// gms-store-copy-ubench's rounds on the memory system alone (validate/results/h200/store_copies): one CTA an SM reads
// its part of a resident set (whole lines, L2 only) then streams its part of fresh lines (stores or reads), 4 KiB -
// its 256 lanes' 16 bytes - a step, the SMs in step, from an emptied L2. Shared by bench/store_copies.cpp (the
// model's side of the microbenchmark) and the unit tests of l2.far_read_home_evict_first.
#include <algorithm>
#include <cstdint>

#include "model/memory_system.h"

namespace gms::bench {

enum class Stream { kNone, kStore, kRead };  // the ubench's template argument 0, 1, 2

struct StoreRounds {
  std::uint64_t resident = 0, stream = 0;  // bytes, all SMs (each CTA's part in whole 4 KiB steps)
  std::uint64_t read = 0, written = 0;     // DRAM bytes
  std::uint64_t l2_reads = 0, l2_read_hits = 0;  // read lookups (lts__t_sectors_op_read.sum) and their hits
};

// `rounds` rounds of `resident_bytes` read and `stream_bytes` streamed (all SMs), `pause_cycles` more between a CTA's
// stream steps (gms-store-copy-ubench --pace).
inline StoreRounds replay_store_rounds(const GpuConfig& gpu, std::uint64_t resident_bytes, std::uint64_t stream_bytes,
                                       Stream mode, int rounds, double pause_cycles = 0) {
  constexpr std::uint64_t kStep = 4096;
  const int ctas = gpu.sm.count;
  const std::uint64_t resident_cta = resident_bytes / ctas / kStep * kStep;
  const std::uint64_t stream_cta = mode == Stream::kNone ? 0 : std::max<std::uint64_t>(kStep, stream_bytes / ctas / kStep * kStep);
  MemorySystem mem(gpu);
  mem.set_l1_bytes(28 * 1024);
  const Addr resident_base = 0x7f0000000000ull, stream_base = 0x7f1000000000ull;
  Tick t = 0;
  for (int r = 0; r < rounds; ++r) {
    for (std::uint64_t off = 0; off < resident_cta; off += kStep, t += cycles_to_ticks(8.0))
      for (int c = 0; c < ctas; ++c)
        mem.load(AccessCtx{c, t, nullptr, false}, Region{resident_base + c * resident_cta + off, 1, kStep, 0}, true);
    for (std::uint64_t off = 0; off < stream_cta; off += kStep, t += cycles_to_ticks(8.0 + pause_cycles))
      for (int c = 0; c < ctas; ++c) {
        const Region at{stream_base + (static_cast<Addr>(r) * ctas + c) * stream_cta + off, 1, kStep, 0};
        const AccessCtx ctx{c, t, nullptr, false};
        if (mode == Stream::kStore)
          mem.store(ctx, at);
        else
          mem.load(ctx, at, true);
      }
  }
  return {resident_cta * ctas, stream_cta * ctas, mem.dram().bytes_read(), mem.dram().bytes_written(),
          mem.counters().l2_read_sectors, mem.counters().l2_read_hit_sectors};
}

}  // namespace gms::bench

#pragma once
// L1 per SM, the SM->L2 interconnect, the sliced and partitioned L2, and DRAM. Requests are
// timed by reserving each resource they pass (FCFS servers with bandwidth and latency), so the cost
// of a simulation follows the number of line requests, not cycles x SMs.
#include <cstdint>
#include <memory>
#include <vector>

#include "common/types.h"
#include "config/gpu_config.h"
#include "model/address_map.h"
#include "model/bandwidth_server.h"
#include "model/dram.h"
#include "model/mem_counters.h"
#include "model/tag_array.h"
#include "model/timeline.h"

namespace gms {

// `rows` runs of `row_bytes` contiguous bytes, `stride` bytes apart: a warp's share of a tile.
struct Region {
  Addr base = 0;
  std::uint32_t rows = 0;
  std::uint32_t row_bytes = 0;
  std::uint64_t stride = 0;
};

// Calls fn(line_address, sector_mask) for every line the region touches, in address order per row.
template <class Fn>
void for_each_line(const Region& r, int line_bytes, int sector_bytes, Fn&& fn) {
  const Addr line_mask = ~static_cast<Addr>(line_bytes - 1);
  for (std::uint32_t row = 0; row < r.rows; ++row) {
    Addr begin = r.base + row * r.stride;
    Addr end = begin + r.row_bytes;
    for (Addr line = begin & line_mask; line < end; line += line_bytes) {
      Addr lo = begin > line ? begin : line;
      Addr hi = end < line + line_bytes ? end : line + line_bytes;
      std::uint32_t first = static_cast<std::uint32_t>((lo - line) / sector_bytes);
      std::uint32_t last = static_cast<std::uint32_t>((hi - 1 - line) / sector_bytes);
      std::uint32_t mask = ((last - first + 1) >= 32 ? ~0u : ((1u << (last - first + 1)) - 1)) << first;
      fn(line, mask);
    }
  }
}

enum class EvictHint : std::uint8_t { kNormal, kFirst, kLast };

struct AccessCtx {
  int sm = 0;
  Tick now = 0;
  CtaMemCounts* cta = nullptr;
};

class MemorySystem {
 public:
  explicit MemorySystem(const GpuConfig& gpu);
  ~MemorySystem();

  // Returns the tick at which all data of the region is in the SM's registers/shared memory.
  Tick load(const AccessCtx& ctx, const Region& region, bool bypass_l1, EvictHint hint = EvictHint::kNormal);
  // Stores are posted: write-through L1, write-back L2 with sector write masks.
  void store(const AccessCtx& ctx, const Region& region);
  // Reductions (RED: atomics whose old value nobody reads) are posted too; each sector is a
  // read-modify-write at its home slice: a miss fetches the sector from DRAM first.
  void reduce(const AccessCtx& ctx, const Region& region);

  const MemCounters& counters() const { return counters_; }
  const Dram& dram() const { return *dram_; }
  std::uint64_t l2_dirty_sectors() const;
  int sm_partition(int sm) const { return sm_partition_[sm]; }
  void attach_timeline(Timeline* t) { timeline_ = t; }

 private:
  Tick l2_read_line(int sm, Addr line, std::uint32_t mask, Tick t, CtaMemCounts* cta, EvictHint hint);
  Tick home_slice_read(std::uint32_t slice, Addr line, std::uint32_t mask, Tick arrive, int sm,
                       CtaMemCounts* cta, EvictHint hint);
  // Counts one L2 read lookup. `final_misses`: the misses go to DRAM (home slice); a replica's
  // misses are forwarded to the home slice and counted there.
  void count_read_lookup(int sm, Tick at, std::uint32_t hits, std::uint32_t misses, CtaMemCounts* cta,
                         bool final_misses);
  // The SM's LSU/port, FCFS: when `bytes` leave the SM.
  Tick sm_port(int sm, Tick now, std::uint32_t bytes);
  void l2_write_line(int sm, Addr line, std::uint32_t mask, Tick t);
  // Routes a write or reduction from an SM to the line's home slice (interconnect, fabric when far,
  // the slice's bandwidth); returns where and when the slice starts on it.
  struct AtHome {
    std::uint32_t slice, set;
    Tick start;
    bool far;
  };
  AtHome to_home_slice(int sm, Addr line, std::uint32_t mask, Tick t);
  Tick reserve(Tick& free_at, Tick arrive, double ticks) const;
  // Start of service of `bytes` at `server` for a request arriving at `arrive`.
  static Tick serve_start(BandwidthServer& server, Tick arrive, std::uint32_t bytes);
  void dram_fill(TagArray& tags, const TagArray::Access& a, Addr line, Tick at, Tick* ready, int sm);

  const GpuConfig& gpu_;
  int l2_line_shift_;
  std::uint32_t slices_per_partition_;
  std::vector<int> sm_partition_;  // L2 partition each SM is near
  bool replicate_;
  bool far_latency_;
  std::uint32_t fill_mask_unit_;  // sectors fetched together from DRAM
  Tick l1_hit_ticks_, l2_return_ticks_, icnt_ticks_, far_ticks_;
  double sm_port_ticks_per_byte_;

  std::vector<TagArray> l1_;
  std::vector<TagArray> l2_;
  std::unique_ptr<SliceHash> slice_hash_;
  std::unique_ptr<Dram> dram_;
  std::vector<BandwidthServer> slices_bw_;
  std::vector<BandwidthServer> slice_atomic_;  // per slice: its atomic ALU
  // Per SM, the narrower of the LSU data path and the SM<->L2 port, as one FCFS server: one SM's
  // requests are handed over in issue order, which is time order, so a plain counter is exact.
  std::vector<Tick> sm_port_free_;
  std::unique_ptr<BandwidthServer> fabric_;
  // Per SM, a ring of the completion ticks of the last `mshrs` line requests: a new miss waits for
  // the oldest one, bounding the requests one SM keeps in flight.
  std::vector<std::vector<Tick>> mshr_ring_;
  std::vector<std::uint32_t> mshr_next_;
  MemCounters counters_;
  std::vector<std::pair<Addr, std::uint32_t>> red_scratch_;  // reused by reduce()
  Timeline* timeline_ = nullptr;
};

}  // namespace gms

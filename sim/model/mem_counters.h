#pragma once
// Raw event counts of the memory hierarchy, in sectors or bytes. Reports turn them into metrics.
#include <cstdint>

namespace gms {

// What an L2 line read found (MemCounters::l2_line_reads): how far the CTAs that read one line are apart shows as the
// share of reads that meet another's fill in flight or merge into its request.
enum class ReadClass : int { kMerged = 0, kHit = 1, kInFlight = 2, kMiss = 3 };

struct MemCounters {
  std::uint64_t ld_requests = 0;  // warp-level global load instructions
  std::uint64_t st_requests = 0;
  std::uint64_t l1_ld_sectors = 0;
  std::uint64_t l1_ld_hit_sectors = 0;
  std::uint64_t l2_read_sectors = 0;  // every read lookup, replica lookups included
  std::uint64_t l2_read_requests = 0;     // line read requests the SMs sent to L2 (into the coalescer)
  std::uint64_t l2_requested_sectors = 0;  // their sectors: what the crossbar delivers to the SMs
  std::uint64_t l2_coalesced_sectors = 0;  // of those, merged into an open request (no lookup)
  std::uint64_t l2_first_lookup_sectors = 0;  // lookups made for SM requests (not forwarded ones)
  std::uint64_t l2_first_lookup_requests = 0;  // the requests those lookups belong to (tag-stage requests)
  std::uint64_t l2_read_hit_sectors = 0;
  std::uint64_t l2_write_sectors = 0;
  std::uint64_t l2_write_hit_sectors = 0;
  std::uint64_t l2_red_sectors = 0;          // reductions (atomics whose result is not returned)
  std::uint64_t l2_red_hit_sectors = 0;
  std::uint64_t red_requests = 0;
  std::uint64_t l2_far_sectors = 0;          // sectors served across partitions
  std::uint64_t l2_replica_hit_sectors = 0;  // far lines found in the near copy
  std::uint64_t l2_home_check_sectors = 0;    // of those, also looked up at home (coherence check)
  std::uint64_t l1_hit_bytes = 0;            // bytes delivered to SMs, by level that served them
  std::uint64_t l2_hit_bytes = 0;
  std::uint64_t dram_served_bytes = 0;
  std::uint64_t tma_sectors = 0;             // sectors bulk tensor copies (TMA) brought into shared memory
  // Per-thread local memory (spills) through L1: its loads are not in the global counters above.
  std::uint64_t l1_local_ld_sectors = 0;
  std::uint64_t l1_local_ld_hit_sectors = 0;
  std::uint64_t l1_local_st_sectors = 0;
  // Line read requests the SMs sent to L2 by what they found - merged into an open request, every sector there and
  // arrived, a sector still arriving (another request's fill in flight), a sector missing - and the ticks from each
  // one's send to its data back at the SM (MSHR wait included), summed per class (ReadClass).
  std::uint64_t l2_line_reads[4] = {};
  std::uint64_t l2_line_read_ticks[4] = {};
  // Ticks the L2 slices' data stages (l2.slice_bytes_per_cycle: read replies, fills' replies, store data) and
  // tag stages (l2.tag_requests_per_cycle) were busy, summed over the slices.
  std::uint64_t l2_slice_data_busy_ticks = 0;
  std::uint64_t l2_tag_busy_ticks = 0;

  // Calls f(this field, the other's field) for every counter: sums and extrapolations visit them all.
  template <class Self, class Other, class F>
  static void each(Self& a, Other& b, F&& f) {
    f(a.ld_requests, b.ld_requests), f(a.st_requests, b.st_requests);
    f(a.l1_ld_sectors, b.l1_ld_sectors), f(a.l1_ld_hit_sectors, b.l1_ld_hit_sectors);
    f(a.l2_read_sectors, b.l2_read_sectors), f(a.l2_read_hit_sectors, b.l2_read_hit_sectors);
    f(a.l2_read_requests, b.l2_read_requests), f(a.l2_requested_sectors, b.l2_requested_sectors);
    f(a.l2_coalesced_sectors, b.l2_coalesced_sectors), f(a.l2_first_lookup_sectors, b.l2_first_lookup_sectors);
    f(a.l2_first_lookup_requests, b.l2_first_lookup_requests);
    f(a.l2_write_sectors, b.l2_write_sectors), f(a.l2_write_hit_sectors, b.l2_write_hit_sectors);
    f(a.l2_red_sectors, b.l2_red_sectors), f(a.l2_red_hit_sectors, b.l2_red_hit_sectors), f(a.red_requests, b.red_requests);
    f(a.l2_far_sectors, b.l2_far_sectors), f(a.l2_replica_hit_sectors, b.l2_replica_hit_sectors);
    f(a.l2_home_check_sectors, b.l2_home_check_sectors);
    f(a.l1_hit_bytes, b.l1_hit_bytes), f(a.l2_hit_bytes, b.l2_hit_bytes), f(a.dram_served_bytes, b.dram_served_bytes);
    f(a.tma_sectors, b.tma_sectors);
    f(a.l1_local_ld_sectors, b.l1_local_ld_sectors), f(a.l1_local_ld_hit_sectors, b.l1_local_ld_hit_sectors);
    f(a.l1_local_st_sectors, b.l1_local_st_sectors);
    f(a.l2_slice_data_busy_ticks, b.l2_slice_data_busy_ticks), f(a.l2_tag_busy_ticks, b.l2_tag_busy_ticks);
    for (int k = 0; k < 4; ++k) f(a.l2_line_reads[k], b.l2_line_reads[k]), f(a.l2_line_read_ticks[k], b.l2_line_read_ticks[k]);
  }
  MemCounters& operator+=(const MemCounters& o) {
    each(*this, o, [](std::uint64_t& x, const std::uint64_t& y) { x += y; });
    return *this;
  }
};

static_assert(sizeof(MemCounters) == 36 * sizeof(std::uint64_t), "a new counter must be listed in MemCounters::each");

// Per-CTA view used by the per-CTA CSV and heatmaps.
struct CtaMemCounts {
  std::uint64_t l2_hit_sectors = 0;
  std::uint64_t l2_miss_sectors = 0;
};

}  // namespace gms

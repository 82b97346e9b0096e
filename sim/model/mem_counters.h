#pragma once
// Raw event counts of the memory hierarchy, in sectors or bytes. Reports turn them into metrics.
#include <cstdint>

namespace gms {

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

  MemCounters& operator+=(const MemCounters& o) {
    ld_requests += o.ld_requests, st_requests += o.st_requests;
    l1_ld_sectors += o.l1_ld_sectors, l1_ld_hit_sectors += o.l1_ld_hit_sectors;
    l2_read_sectors += o.l2_read_sectors, l2_read_hit_sectors += o.l2_read_hit_sectors;
    l2_read_requests += o.l2_read_requests, l2_requested_sectors += o.l2_requested_sectors;
    l2_coalesced_sectors += o.l2_coalesced_sectors, l2_first_lookup_sectors += o.l2_first_lookup_sectors;
    l2_write_sectors += o.l2_write_sectors, l2_write_hit_sectors += o.l2_write_hit_sectors;
    l2_red_sectors += o.l2_red_sectors, l2_red_hit_sectors += o.l2_red_hit_sectors, red_requests += o.red_requests;
    l2_far_sectors += o.l2_far_sectors, l2_replica_hit_sectors += o.l2_replica_hit_sectors;
    l2_home_check_sectors += o.l2_home_check_sectors;
    l1_hit_bytes += o.l1_hit_bytes, l2_hit_bytes += o.l2_hit_bytes, dram_served_bytes += o.dram_served_bytes;
    return *this;
  }
};

// Per-CTA view used by the per-CTA CSV and heatmaps.
struct CtaMemCounts {
  std::uint64_t l2_hit_sectors = 0;
  std::uint64_t l2_miss_sectors = 0;
};

}  // namespace gms

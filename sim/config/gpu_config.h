#pragma once
// Plain, stateless description of a GPU. Filled from YAML by gpu_schema(); read by the model builder.
// Units: bytes, bytes/second, hertz, cycles of the SM clock.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gms {

struct SmConfig {
  int count = 0;
  int compute_capability = 0;           // x 10: 90 = sm_90 (0: not NVIDIA)
  int warp_size = 32;
  int max_warps = 64;
  int max_ctas = 32;
  std::int64_t registers = 65536;       // 32-bit registers per SM
  int max_registers_per_thread = 255;
  int register_alloc_unit = 256;        // registers are allocated per warp in this granularity
  std::int64_t shared_mem = 0;          // bytes of shared memory usable by CTAs per SM
  std::int64_t shared_mem_per_cta = 0;  // largest opt-in allocation of one CTA
  std::int64_t shared_mem_reserved_per_cta = 0;
  int subpartitions = 4;                // warp schedulers per SM, one issue per cycle each
  std::string warp_scheduler = "gto";
  double younger_cta_share = 0.5;       // cta_share: a younger CTA's warp weighs this much of the next older's
  double fma_flops_per_cycle = 0;       // fp32 FMA FLOP/cycle/SM (2 per FMA lane)
  double tensor_fp16_flops_per_cycle = 0;
  double tensor_bf16_flops_per_cycle = 0;
  double tensor_fp8_flops_per_cycle = 0;
  double tensor_tf32_flops_per_cycle = 0;
  double mma_sync_fp16_flops_per_cycle = 0;  // warp-level mma.sync; 0 = the tensor rate
  bool mma_sync_holds_dispatch = false;      // an mma.sync keeps its sub-partition's other warps from issuing
                                             // while it is in the tensor pipe
  bool dispatch_stall_follows_residents = false;  // a profile's dispatch_stall scales with the warps resident beside a warp
  bool loads_wait_in_mio_queue = false;      // a global/local load (LDG/LDL) takes an MIO entry, enters the LSU behind the shared path
  bool copies_wait_for_shared_queue = false;  // an LDGSTS enters the LSU behind the shared instructions
                                              // booked on the path
  std::uint32_t copy_waits_per_warp = 0;      // ... behind at most this many of each warp's; 0 = all of them
  bool shared_path_in_turns = false;         // the shared path takes the warps' next instructions in turn, not first come
  std::uint32_t shared_path_depth = 0;        // ... behind this many instructions already past the turn
  std::uint64_t shared_replay_cycles = 1;    // ... and a warp's own wavefronts pass this many cycles apart for it
  double shared_warp_bytes_per_cycle = 0;    // ... and a warp's shared-load data reaches it at most this fast; 0 = no limit
  bool ldmatrix_one_at_a_time_beside_mma = false;  // another warp's mma.sync in the tensor pipe: a warp's ldmatrix
                                                   // pass one at a time, each at its latency
  bool wgmma_operands_use_shared_path = false;  // a wgmma's shared-memory operands take the shared-memory data path
  double wgmma_fraction = 0;                 // sustained share of the tensor rate wgmma reaches; 0 = no wgmma
  std::uint64_t tma_box_cycles = 0;          // TMA unit cycles per bulk tensor copy; 0 = no TMA
  double lsu_bytes_per_cycle = 128;     // L1/LSU data path per SM
  double shared_bytes_per_cycle = 128;  // shared-memory data path per SM: one 128-byte wavefront a cycle
  std::uint64_t shared_latency = 30;    // cycles from a shared load's issue (empty pipe) to its data
  std::uint64_t shared_latency_per_wavefront = 0;  // latency each wavefront adds beyond its data-path cycle
  std::uint64_t shuffle_latency = 0;    // cycles from a shuffle's data-path pass to its result; 0 = as a shared load
  std::uint64_t mio_starvation_period = 0;  // a warp waiting for an MIO entry at two ticks of this period goes first; 0 = never
  std::int64_t mio_start_backlog = -1;  // a new warp's first MIO instruction waits for the SM's queue to hold this many; -1 = no wait
  std::string shared_fills = "arrival"; // when a cp.async's data takes the shared data path: issue | arrival | idle | between
  std::uint64_t special_register_latency = 0;  // cycles from an S2R's issue to its data; 0 = not modelled
  std::uint32_t mio_queue_per_sm = 0;            // shared instructions issued, not yet through the path; 0 = unbounded
  std::uint32_t mio_queue_per_subpartition = 0;  // the same per sub-partition
  std::uint64_t mio_release_latency = 0;         // cycles: a shared instruction's entry frees this long after the path
  bool mio_entries_oldest_first = false;  // the SM's full queue gives each freed entry to its oldest waiting warp
  bool mio_entries_by_cta_age = false;    // ... oldest by its CTA's age, a CTA's warps alike
  bool mio_bursts_enter_one_at_a_time = false;   // a burst of shared instructions issues once one MIO entry is free
  std::uint64_t barrier_latency = 0;  // cycles from a CTA barrier's last arrival to its warps going on
  double copy_fill_bytes_per_cycle = 0; // cp.async bytes written into shared memory per data-path cycle; 0 = as
                                        // shared stores (the copy's destination wavefronts)
  double load_data_bytes_per_cycle = 0;  // LDG/LDL data through the shared-memory data path per cycle; 0 = none
  std::uint64_t instruction_cache_instructions = 0;  // a loop of up to this many instructions runs from the cache; 0 = any
  double fetch_instructions_per_cycle = 0;  // past it, the instructions a warp's fetch delivers a cycle; 0 = unlimited
  double issue_share_beside_one = 0;   // the port's share a warp takes while one other of its sub-partition is eligible
  double issue_share_beside_more = 0;  // ... while two or more are; 0 (both) = a block takes the port as it can
};

// A one-wavefront shared load's latency beyond its cycle in the data path (LDS.32): what the issue
// profile's exposed shared reads wait (workload issue.shared_reads).
inline double one_wavefront_shared_latency(const SmConfig& sm) {
  return static_cast<double>(sm.shared_latency + sm.shared_latency_per_wavefront);
}

// Cycles a warp waits for each instruction of a loop of `loop_instructions` to arrive: 0 where the loop fits the
// instruction cache (or the fetch is not modelled), else one over sm.fetch_instructions_per_cycle. A warp that asks
// for fewer a cycle than that is not slowed (gms-icache-ubench --fine: a lone warp past the cache gets 0.42 a cycle
// whether it asks for 0.5 or 1, and its 0.25 whatever the loop's size).
inline double fetch_cycles_per_instruction(const SmConfig& sm, double loop_instructions) {
  if (sm.fetch_instructions_per_cycle <= 0 || sm.instruction_cache_instructions == 0 ||
      loop_instructions <= static_cast<double>(sm.instruction_cache_instructions))
    return 0;
  return 1.0 / sm.fetch_instructions_per_cycle;
}

// Tensor-core FLOP/cycle/SM for a math dtype: the dtype's own rate where the GPU declares one, the
// fp16 rate otherwise; fp32 runs at the TF32 rate, or on the FMA pipes where there is none.
inline double tensor_flops_per_cycle(const SmConfig& sm, const std::string& dtype) {
  if (dtype == "bf16" && sm.tensor_bf16_flops_per_cycle > 0) return sm.tensor_bf16_flops_per_cycle;
  if (dtype == "fp8" && sm.tensor_fp8_flops_per_cycle > 0) return sm.tensor_fp8_flops_per_cycle;
  if (dtype == "fp32") return sm.tensor_tf32_flops_per_cycle > 0 ? sm.tensor_tf32_flops_per_cycle : sm.fma_flops_per_cycle;
  return sm.tensor_fp16_flops_per_cycle;
}

struct L1Config {
  std::int64_t size = 0;
  int line = 128;
  int sector = 32;
  int assoc = 4;
  std::uint64_t hit_latency = 33;
  int mshrs = 256;  // outstanding sector misses per SM
  std::string replacement = "lru";
  std::string local_stores = "write_through";  // write_through (keeps the sectors) | write_back
  // One array for L1 and shared memory (0 = none: L1 is `size` whatever the kernel): L1 is what the
  // carve-out for the kernel's shared memory leaves of it.
  std::int64_t unified_bytes = 0;
  std::string carveouts;  // the shared-memory carve-outs the driver picks from, e.g. "0KiB,8KiB,..."
  // The carve-out holds the shared memory of this many times the CTAs the SM's other limits let run
  // (capped at sm.max_ctas): the driver's room for a kernel launched beside it.
  int carveout_headroom = 1;
  // A copy into shared memory past L1 asks L2 for a global line's sectors in one request per
  // 128-byte shared line they are written to (a line whose destination crosses one: two requests).
  bool copy_request_per_shared_line = false;
};

struct IcntConfig {
  std::uint64_t latency = 100;        // SM -> L2 slice, one way, unloaded
  double sm_bytes_per_cycle = 64;     // reply data into one SM
  double sm_requests_per_cycle = 0;   // line requests one SM's L1/TEX sends per cycle (0 = unlimited)
  // What one SM sends towards L2, in order: store data, and a slot per line request of an L1 miss
  // (0 = unlimited: only the port above).
  double sm_write_bytes_per_cycle = 0;
  // Sector slots a store's partly written sector takes on the way out and at its slice's input (a
  // whole sector: 1).
  double partial_sector_write_slots = 1;
  // A warp's global store holds it until the data has left the SM (lg_throttle): the LSU keeps no
  // backlog of stores ahead of other warps' requests.
  bool stores_wait_for_way_out = false;
  // GPCs: SMs per GPC ("12,12,18,..."; empty = no GPC level) and the read data one GPC's port takes
  // from L2 per cycle (clock.l2; 0 = unlimited).
  std::string gpc_sms;
  double gpc_bytes_per_cycle = 0;
};

struct L2Config {
  std::int64_t size = 0;
  int line = 128;
  int sector = 32;
  int assoc = 16;
  int slices = 0;
  std::uint64_t hit_latency = 0;  // end to end, as one SM's pointer chase sees it
  double slice_bytes_per_cycle = 64;
  double atomic_sectors_per_cycle = 1;  // reduction sectors one slice's pipeline takes per cycle
  std::uint64_t atomic_line_interval = 0;  // L2 cycles between two reductions' read-modify-writes of one line (0: none)
  double input_bytes_per_cycle = 0;     // write/reduction data one slice's crossbar input takes per cycle (0: unlimited)
  double partial_sector_input_slots = 1;  // a partly written sector's slots of that input (a whole one: 1)
  double tag_requests_per_cycle = 0;    // read lookups (of up to a line) one slice's tag stage takes per cycle (0: unlimited)
  // Request coalescer: open read requests per slice that later reads of the same line merge into
  // (0 = none), and how long after its data left the slice a request stays open (SM cycles).
  int coalescer_entries = 0;
  std::uint64_t coalescer_hold = 0;
  // Read replies one slice sends back per cycle (clock.l2), merged ones included; 0 = unlimited. With a
  // limit a coalescer entry stays open until every reply queued on it has left.
  double reply_bytes_per_cycle = 0;
  std::string hash = "xor";
  std::int64_t slice_interleave = 0;  // bytes of consecutive addresses on one slice; 0 = one line
  std::string replacement = "lru";
  int partitions = 1;
  std::string partition_mode = "none";  // none | far_latency | replicate
  std::uint64_t far_extra_latency = 0;
  // A request for a far line is looked up in the near partition and at the home slice (both
  // counted; the home lookup of a read that hits the near copy moves no data), as H100's counters show.
  bool far_read_hits_at_home = false;
  bool far_reductions_in_both_partitions = false;
  bool far_writes_in_both_partitions = false;  // a store to a far line passes (and is counted at) a near slice's input
  bool far_stores_copy_near = false;  // ... and leaves a clean copy of its sectors there
  // A far read's line, filled at its home slice for the near partition's copy, is kept there evicted first.
  bool far_read_home_evict_first = false;
  // The home slice's lookup for a far line the near partition missed takes the slice's bandwidth
  // (false: it arrives over the fabric, not the crossbar port that l2.slice_bytes_per_cycle limits).
  bool far_fills_take_slice_bandwidth = true;
  // A read's tags decide before its data is read: a miss leaves for DRAM at its lookup, and each reply takes the
  // slice's data path when its data is there (false: every read takes its data-path turn first, then looks up).
  bool miss_data_forwarded = false;
  // Read requests reach the slices in the order they arrive there, across SMs (false: booked when the warp
  // issues the load, ahead of other SMs' lines that arrive sooner but are issued later).
  bool reads_in_arrival_order = false;
  bool writes_in_arrival_order = false;  // stores and reductions likewise
  double fabric_bytes_per_cycle = 0;    // between partitions, per direction (per clock.l2 cycle); 0 = unlimited
  // Bytes of other data the L2 holds dirty when a kernel starts on a cleared L2 (what the profiler's
  // replay and the harness leave); the kernel writes them to DRAM as it evicts them.
  std::int64_t dirty_at_launch = 0;
  // Dirty ways a set keeps: a store that leaves more dirty is written through to DRAM, its line staying valid
  // and clean (0 = no limit); local (spill) stores have their own limit (0 = dirty_ways_per_set's).
  int dirty_ways_per_set = 0;
  int local_dirty_ways_per_set = 0;
  std::string sm_partition_map = "halves";
  std::string sm_partitions;  // one digit per SM (measured); empty = sm_partition_map
};

// The share of an SM's lines that live in a far partition (lines spread evenly over the partitions):
// the part of a chase's mean latency over random lines that pays l2.far_extra_latency.
inline double far_line_share(const L2Config& l2) {
  return l2.partition_mode != "none" && l2.partitions > 1 ? static_cast<double>(l2.partitions - 1) / l2.partitions : 0.0;
}

// l1.carveouts as bytes ("0KiB,8KiB,..."): ascending, none negative; nullopt and *why when malformed.
std::optional<std::vector<std::int64_t>> parse_carveouts(const std::string& text, std::string* why);

// icnt.gpc_sms as SMs per GPC ("12,12,18,18"): each a whole number of 1 or more; nullopt and *why when
// malformed. Empty text: no GPCs.
std::optional<std::vector<int>> parse_gpc_sms(const std::string& text, std::string* why);

// launch.sm_order as SM ids in visiting order ("124-131,0,1,16,17"; a range a-b ascends or descends):
// every SM id below sm_count exactly once; nullopt and *why when malformed. Empty text: SM-id order (an
// empty vector).
std::optional<std::vector<int>> parse_sm_order(const std::string& text, int sm_count, std::string* why);

// dram.latency_spread as cycles ("-114cycles, -92cycles, ..., 552cycles"): a read's DRAM latency about its
// mean at evenly spaced probabilities from 0 to 1 (a quantile function, linear between the points), at least
// two, none falling; nullopt and *why when malformed. Empty text: no spread (an empty vector).
std::optional<std::vector<double>> parse_latency_spread(const std::string& text, std::string* why);

struct DramConfig {
  double bandwidth = 0;        // theoretical peak, bytes/s
  double efficiency = 0.9;     // sustained fraction of the peak
  double copy_efficiency = 0;  // the same for an even mix of reads and writes (0 = as efficiency)
  int channels = 0;
  std::uint64_t latency = 0;   // end to end, unloaded
  // The DRAM's own spread of one read's latency about that mean (quantiles, parsed by parse_latency_spread);
  // empty = every read after the same latency.
  std::string latency_spread;
  // Which reads share one draw from that spread: read (each its own) | block | channel | device (every read of one
  // latency_spread_block, of the channel, or of any channel, within one latency_spread_window).
  std::string latency_spread_scope = "read";
  std::uint64_t latency_spread_window = 600;  // cycles one shared draw holds
  std::int64_t latency_spread_block = 4096;   // bytes of one block (scope block)
  std::int64_t interleave = 256;
  int access_granularity = 32;  // bytes fetched per missing sector group
  // Beyond this backlog (bytes queued at the channels) the DRAM path serves by GPC: an SM of the
  // smallest GPC gets gpc_share_ratio x the share of an SM of the largest (gms-gpc-ubench contention).
  std::int64_t gpc_share_backlog = 0;  // 0 = first come, first served at any backlog
  double gpc_share_ratio = 1;
};

struct LaunchConfig {
  std::uint64_t kernel_overhead = 0;  // cycles added to the kernel's duration
  std::uint64_t cta_launch_latency = 0;
  // Each CTA's warps start 0..cta_start_jitter cycles after its slot is granted (a deterministic
  // hash of the launch index): silicon's CTAs do not stay in the lockstep waves equal durations give.
  std::uint64_t cta_start_jitter = 0;
  // An SM starts CTAs no faster than one per max(cta_dispatch_interval, warps x warp_dispatch_interval)
  // cycles (gms-cta-ubench: empty CTAs cost a fixed time each, whatever their size up to 8 warps).
  std::uint64_t cta_dispatch_interval = 0;
  std::uint64_t warp_dispatch_interval = 0;
  std::string dispatch = "round_robin";
  // The order in which the dispatcher visits the SMs (SM ids, ranges allowed: "124-131,0,1,16,17,..."),
  // as silicon's work distributor walks them; empty = SM-id order. Parsed by parse_sm_order.
  std::string sm_order;
};

struct GpuConfig {
  std::string name;
  double sm_clock = 0;  // Hz
  // Clock while tensor-core kernels run (the power limit pulls the boost down); 0 = sm_clock.
  // load_configs() puts it into sm_clock for such workloads.
  double sm_clock_tensor = 0;
  // Clock of the L2 slices (l2.slice_bytes_per_cycle and l2.atomic_sectors_per_cycle count its
  // cycles); 0 = the SM clock. The SM clock falls under tensor load, the L2's does not.
  double l2_clock = 0;
  // The power limit's response to load (tensor-core kernels only): sm_clock_tensor
  //   - clock_drop_full_wgmma x (wgmma-class tensor pipe activity) - clock_drop_per_dram_tbps x (DRAM read TB/s).
  // wgmma-class kernels, when clock_sm_wgmma > 0: clock_sm_wgmma - clock_drop_full_wgmma x activity
  //   - clock_drop_per_l2_tbps x (L2 read TB/s) - clock_drop_per_dram_tbps x (DRAM read TB/s); both at most
  //   sm_clock_tensor.
  double clock_drop_full_wgmma = 0;     // Hz
  double clock_drop_per_dram_tbps = 0;  // Hz per TB/s
  double clock_sm_wgmma = 0;            // Hz; 0: sm_clock_tensor and no L2 term
  double clock_drop_per_l2_tbps = 0;    // Hz per TB/s
  SmConfig sm;
  L1Config l1;
  IcntConfig icnt;
  L2Config l2;
  DramConfig dram;
  LaunchConfig launch;
};



}  // namespace gms

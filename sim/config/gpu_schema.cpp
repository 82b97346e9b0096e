// Declaration of every GPU parameter, and the cross-field checks that one parameter alone cannot make.
#include "config/gpu_schema.h"

#include "config/gpu_schema_parts.h"

#include "common/error.h"
#include "common/units.h"
#include "model/policy_registry.h"

namespace gms {

namespace {

using namespace gpu_schema_parts;

Schema<GpuConfig> make_schema() {
  Schema<GpuConfig> s;
  s.name = "gpu";
  auto& p = s.params;
  p.push_back(text_param<G>("name", "", true, "name printed in reports", [](G& c) -> auto& { return c.name; }));
  p.push_back(quantity_param<G>("clock.sm", Q::kFrequency, "", 1e6, 1e10, "SM clock the model counts cycles in",
                                [](G& c) -> auto& { return c.sm_clock; }));
  p.push_back(quantity_param<G>("clock.sm_tensor", Q::kFrequency, "0MHz", 0, 1e10,
                                "SM clock while tensor-core kernels run (power-limited boost); replaces clock.sm "
                                "for such workloads; 0 = clock.sm",
                                [](G& c) -> auto& { return c.sm_clock_tensor; }));
  p.push_back(quantity_param<G>("clock.l2", Q::kFrequency, "0MHz", 0, 1e10,
                                "clock of the L2 slices: l2.slice_bytes_per_cycle and l2.atomic_sectors_per_cycle "
                                "are per cycle of it, independent of the SM clock; 0 = counted in SM cycles",
                                [](G& c) -> auto& { return c.l2_clock; }));
  p.push_back(quantity_param<G>("clock.drop_at_full_wgmma", Q::kFrequency, "0MHz", 0, 1e10,
                                "clock.sm_tensor falls by this much when the wgmma-class tensor pipe is busy every "
                                "cycle (linear in its activity; the power limit at work)",
                                [](G& c) -> auto& { return c.clock_drop_full_wgmma; }));
  p.push_back(quantity_param<G>("clock.drop_per_dram_tbps", Q::kFrequency, "0MHz", 0, 1e10,
                                "clock.sm_tensor falls by this much per TB/s of DRAM reads (tensor-core kernels)",
                                [](G& c) -> auto& { return c.clock_drop_per_dram_tbps; }));
  p.push_back(quantity_param<G>("clock.sm_wgmma", Q::kFrequency, "0MHz", 0, 1e10,
                                "wgmma-class kernels run at the power limit: their clock is this, less the drops at "
                                "their tensor activity, L2 and DRAM read traffic, at most clock.sm_tensor (the "
                                "intercept of that line, above any real clock); 0 = clock.sm_tensor with no L2 term",
                                [](G& c) -> auto& { return c.clock_sm_wgmma; }));
  p.push_back(quantity_param<G>("clock.drop_per_l2_tbps", Q::kFrequency, "0MHz", 0, 1e10,
                                "a wgmma-class kernel's clock falls by this much per TB/s of L2 read lookups "
                                "(lts__t_sectors_op_read); needs clock.sm_wgmma",
                                [](G& c) -> auto& { return c.clock_drop_per_l2_tbps; }));
  // --- SM (gpu_schema_sm.cpp)
  add_sm_params(p);
  // --- L1
  p.push_back(quantity_param<G>("l1.size", Q::kBytes, "", 0, kBig, "L1 data cache capacity per SM (0 = none)",
                                [](G& c) -> auto& { return c.l1.size; }));
  p.push_back(quantity_param<G>("l1.line", Q::kBytes, "128B", 32, 1024, "L1 line size",
                                [](G& c) -> auto& { return c.l1.line; }));
  p.push_back(quantity_param<G>("l1.sector", Q::kBytes, "32B", 4, 1024, "L1 sector (fill and hit unit)",
                                [](G& c) -> auto& { return c.l1.sector; }));
  p.push_back(quantity_param<G>("l1.assoc", Q::kInteger, "4", 1, 1024, "L1 ways per set",
                                [](G& c) -> auto& { return c.l1.assoc; }));
  p.push_back(quantity_param<G>("l1.hit_latency", Q::kCycles, "", 1, 100000, "L1 hit, load to use",
                                [](G& c) -> auto& { return c.l1.hit_latency; }));
  p.push_back(quantity_param<G>("l1.mshrs", Q::kInteger, "256", 1, 1 << 20,
                                "sector misses one SM keeps in flight to L2",
                                [](G& c) -> auto& { return c.l1.mshrs; }));
  p.push_back(choice_param<G>("l1.replacement", policy_names(PolicyKind::kReplacement), "lru", "L1 victim choice",
                              [](G& c) -> auto& { return c.l1.replacement; }));
  p.push_back(choice_param<G>("l1.local_stores", {"write_through", "write_back"}, "write_through",
                              "how L1 takes stores to local memory (STL, spills): write_through sends every sector "
                              "on to L2 and keeps it valid in L1 for a later load (the H100 counts each stored local "
                              "sector at L2: validate/results/h100/triton_gemv); write_back holds them dirty in L1 "
                              "until evicted",
                              [](G& c) -> auto& { return c.l1.local_stores; }));
  p.push_back(quantity_param<G>("l1.unified_bytes", Q::kBytes, "0B", 0, kBig,
                                "the array L1 shares with shared memory per SM (sm_90: 256 KiB): a kernel's L1 is what "
                                "the carve-out for its shared memory leaves (l1.carveouts); 0B = l1.size for every kernel",
                                [](G& c) -> auto& { return c.l1.unified_bytes; }));
  p.push_back(text_param<G>("l1.carveouts", "", false,
                            "the shared-memory carve-outs the driver picks from, ascending, e.g. \"0KiB,8KiB,16KiB\": "
                            "the smallest that holds the shared memory (+ sm.shared_mem_reserved_per_cta) of "
                            "l1.carveout_headroom x the CTAs the SM's other limits (warps, CTA slots, registers) let run "
                            "(gms-carveout-ubench, validate/results/h100/carveout), the largest when none does; a "
                            "workload's shared_carveout overrides it",
                            [](G& c) -> auto& { return c.l1.carveouts; }));
  p.push_back(quantity_param<G>("l1.carveout_headroom", Q::kInteger, "1", 1, 64,
                                "CTAs the driver's carve-out makes room for, as a multiple of those the SM's other "
                                "limits let run (capped at sm.max_ctas)",
                                [](G& c) -> auto& { return c.l1.carveout_headroom; }));
  p.push_back(bool_param<G>("l1.copy_request_per_shared_line", false,
                            "a copy into shared memory that bypasses L1 (cp.async.cg) asks L2 for a global line in one "
                            "request per 128-byte line of shared memory its sectors start in: a line whose destination "
                            "crosses such a boundary costs two tag-stage requests",
                            [](G& c) -> auto& { return c.l1.copy_request_per_shared_line; }));
  // --- interconnect
  p.push_back(quantity_param<G>("icnt.latency", Q::kCycles, "", 0, 100000,
                                "SM to L2 slice, one way, unloaded (part of l2.hit_latency)",
                                [](G& c) -> auto& { return c.icnt.latency; }));
  p.push_back(quantity_param<G>("icnt.sm_bytes_per_cycle", Q::kBytesPerCycle, "64", 1, 1e6,
                                "reply bandwidth from L2 into one SM",
                                [](G& c) -> auto& { return c.icnt.sm_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("icnt.sm_requests_per_cycle", Q::kReal, "0", 0, 1e6,
                                "line requests one SM's L1/TEX passes per cycle (each line of a load, store or "
                                "reduction takes at least 1/rate cycles of the SM's port, however few sectors it "
                                "carries); 0 = unlimited",
                                [](G& c) -> auto& { return c.icnt.sm_requests_per_cycle; }));
  p.push_back(quantity_param<G>("icnt.sm_write_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e6,
                                "what one SM sends towards L2 per cycle, in order: store data (global and local) "
                                "and, one cycle each, the line requests of its loads that miss L1 (an L1 hit needs "
                                "none); 0 = unlimited",
                                [](G& c) -> auto& { return c.icnt.sm_write_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("icnt.partial_sector_write_slots", Q::kReal, "1", 1, 8,
                                "sector slots a store's partly written 32-byte sector takes of the SM's way out "
                                "(icnt.sm_write_bytes_per_cycle), where a whole sector takes 1 (stores from registers "
                                "in an MMA's C layout write half sectors); its slice's input: "
                                "l2.partial_sector_input_slots; the fabric between partitions carries it as a whole one",
                                [](G& c) -> auto& { return c.icnt.partial_sector_write_slots; }));
  p.push_back(bool_param<G>("icnt.stores_wait_for_way_out", false,
                            "a warp that stores to global memory waits (lg_throttle) until its data has left the "
                            "SM (icnt.sm_write_bytes_per_cycle), so stores queue no further ahead of other warps' "
                            "requests (local stores, a spill program's blocks, are not held); false = a store books "
                            "the way out and the warp goes on",
                            [](G& c) -> auto& { return c.icnt.stores_wait_for_way_out; }));
  p.push_back(text_param<G>("icnt.gpc_sms", "", false,
                            "SMs per GPC, e.g. \"12,12,18,18,18,18,18,18\" (their sum is sm.count; empty: no GPC "
                            "level). SMs join GPCs a TPC (two SMs) at a time, round robin over the GPCs with room, in "
                            "the dispatcher's visiting order (launch.sm_order), so the SMs it visits one after another "
                            "- and the CTAs it hands them - sit in different GPCs",
                            [](G& c) -> auto& { return c.icnt.gpc_sms; }));
  p.push_back(quantity_param<G>("icnt.gpc_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e7,
                                "read data one GPC's port takes from L2 per cycle (clock.l2), shared by its SMs: each "
                                "L2 lookup's reply passes it once (replies merged by the request coalescer ride along); "
                                "needs icnt.gpc_sms; 0 = unlimited",
                                [](G& c) -> auto& { return c.icnt.gpc_bytes_per_cycle; }));
  // --- L2
  p.push_back(quantity_param<G>("l2.size", Q::kBytes, "", 1, kBig, "L2 capacity, all slices",
                                [](G& c) -> auto& { return c.l2.size; }));
  p.push_back(quantity_param<G>("l2.line", Q::kBytes, "128B", 32, 1024, "L2 line size",
                                [](G& c) -> auto& { return c.l2.line; }));
  p.push_back(quantity_param<G>("l2.sector", Q::kBytes, "32B", 4, 1024, "L2 sector",
                                [](G& c) -> auto& { return c.l2.sector; }));
  p.push_back(quantity_param<G>("l2.assoc", Q::kInteger, "16", 1, 1024, "L2 ways per set",
                                [](G& c) -> auto& { return c.l2.assoc; }));
  p.push_back(quantity_param<G>("l2.slices", Q::kInteger, "", 1, 4096, "L2 slices (banks), all partitions",
                                [](G& c) -> auto& { return c.l2.slices; }));
  p.push_back(quantity_param<G>("l2.hit_latency", Q::kCycles, "", 1, 100000,
                                "L2 hit in the near partition, end to end from the SM",
                                [](G& c) -> auto& { return c.l2.hit_latency; }));
  p.push_back(quantity_param<G>("l2.slice_bytes_per_cycle", Q::kBytesPerCycle, "64", 0.01, 1e6,
                                "data bandwidth of one slice",
                                [](G& c) -> auto& { return c.l2.slice_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("l2.atomic_sectors_per_cycle", Q::kReal, "1", 0.001, 1e6,
                                "sectors of reductions (RED) one slice's pipeline takes per cycle: each holds the slice 1/rate "
                                "cycles, which its reads wait behind; a far one holds a near slice too when "
                                "l2.far_reductions_in_both_partitions",
                                [](G& c) -> auto& { return c.l2.atomic_sectors_per_cycle; }));
  p.push_back(quantity_param<G>("l2.atomic_line_interval", Q::kCycles, "0cycles", 0, 1000000,
                                "cycles (clock.l2) between two reductions' read-modify-writes of one line at its home "
                                "slice: reductions to a line take turns however idle the slice is, and a kernel ends "
                                "when its last one is done; 0 = no turns",
                                [](G& c) -> auto& { return c.l2.atomic_line_interval; }));
  p.push_back(quantity_param<G>("l2.input_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e6,
                                "write and reduction data one slice's crossbar input takes per cycle (a sector = 32 B "
                                "however few bytes it carries); a warp's exit waits until it has taken its stores and "
                                "reductions (Nsight's drain); 0 = unlimited",
                                [](G& c) -> auto& { return c.l2.input_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("l2.partial_sector_input_slots", Q::kReal, "1", 1, 8,
                                "slots of its slice's crossbar input (l2.input_bytes_per_cycle) a store's partly "
                                "written sector takes, where a whole sector takes 1",
                                [](G& c) -> auto& { return c.l2.partial_sector_input_slots; }));
  p.push_back(quantity_param<G>("l2.tag_requests_per_cycle", Q::kReal, "0", 0, 1e6,
                                "read lookups one slice's tag stage takes per cycle (clock.l2), each of up to a line's "
                                "sectors: SM reads and the far lines forwarded from the other partition alike, ahead of "
                                "the data path that l2.slice_bytes_per_cycle limits; 0 = unlimited",
                                [](G& c) -> auto& { return c.l2.tag_requests_per_cycle; }));
  p.push_back(quantity_param<G>("l2.coalescer_entries", Q::kInteger, "0", 0, 1 << 20,
                                "request coalescer: open reads per slice that later reads of the same line merge "
                                "into (answered by one lookup, delivered to every requester); 0 = none",
                                [](G& c) -> auto& { return c.l2.coalescer_entries; }));
  p.push_back(quantity_param<G>("l2.coalescer_hold", Q::kCycles, "0", 0, 1000000,
                                "how long a read stays open for merging after its data left the slice",
                                [](G& c) -> auto& { return c.l2.coalescer_hold; }));
  p.push_back(quantity_param<G>("l2.reply_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e7,
                                "read replies one slice sends back per cycle (clock.l2), a reply merged by the request "
                                "coalescer as much as the one it merged into (gms-lrc-ubench: few groups of warps sharing "
                                "lines are bounded by their deliveries); a coalescer entry stays open until the replies "
                                "queued on it have left; 0 = unlimited",
                                [](G& c) -> auto& { return c.l2.reply_bytes_per_cycle; }));
  p.push_back(choice_param<G>("l2.hash", policy_names(PolicyKind::kL2Hash), "xor", "address -> slice mapping",
                              [](G& c) -> auto& { return c.l2.hash; }));
  p.push_back(quantity_param<G>("l2.slice_interleave", Q::kBytes, "0", 0, 1 << 20,
                                "consecutive bytes that share a home slice (a power-of-two multiple of l2.line; 0 = one "
                                "line): l2.hash maps these runs, not single lines, to slices",
                                [](G& c) -> auto& { return c.l2.slice_interleave; }));
  p.push_back(choice_param<G>("l2.replacement", policy_names(PolicyKind::kReplacement), "lru", "L2 victim choice",
                              [](G& c) -> auto& { return c.l2.replacement; }));
  p.push_back(quantity_param<G>("l2.partitions", Q::kInteger, "1", 1, 64,
                                "L2 partitions; SMs are near one and far from the others",
                                [](G& c) -> auto& { return c.l2.partitions; }));
  p.push_back(choice_param<G>("l2.partition_mode", {"none", "far_latency", "replicate"}, "none",
                              "far accesses: cost nothing extra, cost far_extra_latency, or also copy the line "
                              "into the near partition (halving effective capacity)",
                              [](G& c) -> auto& { return c.l2.partition_mode; }));
  p.push_back(quantity_param<G>("l2.far_extra_latency", Q::kCycles, "0", 0, 100000,
                                "added to an access served by a far partition",
                                [](G& c) -> auto& { return c.l2.far_extra_latency; }));
  p.push_back(quantity_param<G>("l2.fabric_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e6,
                                "bandwidth of the fabric between the L2 partitions, per direction (data into one partition), per "
                                "clock.l2 cycle; far data that misses the near partition crosses it (0 = unlimited)",
                                [](G& c) -> auto& { return c.l2.fabric_bytes_per_cycle; }));
  p.push_back(bool_param<G>("l2.far_read_hits_at_home", false,
                            "a read of a far line that hits the near partition's copy is also counted as a lookup at "
                            "its home slice (tags only, no data bandwidth)",
                            [](G& c) -> auto& { return c.l2.far_read_hits_at_home; }));
  p.push_back(quantity_param<G>("l2.dirty_at_launch", Q::kBytes, "0", 0, kBig,
                                "other data the L2 holds dirty when a kernel starts (not after a kernel that keeps "
                                "the L2; at most all of it): its sets' first victims, written to DRAM as the kernel evicts it",
                                [](G& c) -> auto& { return c.l2.dirty_at_launch; }));
  p.push_back(quantity_param<G>("l2.dirty_ways_per_set", Q::kInteger, "0", 0, 1024,
                                "dirty ways one set keeps: a store that leaves more of its set dirty is written through "
                                "to DRAM, the line staying valid and clean (0 = no limit: dirty lines leave when evicted)",
                                [](G& c) -> auto& { return c.l2.dirty_ways_per_set; }));
  p.push_back(quantity_param<G>("l2.local_dirty_ways_per_set", Q::kInteger, "0", 0, 1024,
                                "l2.dirty_ways_per_set for stores to local memory (register spills); 0 = the same",
                                [](G& c) -> auto& { return c.l2.local_dirty_ways_per_set; }));
  p.push_back(bool_param<G>("l2.far_reductions_in_both_partitions", false,
                            "a reduction to a far line is counted as a lookup in the near partition and at its home slice",
                            [](G& c) -> auto& { return c.l2.far_reductions_in_both_partitions; }));
  p.push_back(bool_param<G>("l2.far_writes_in_both_partitions", false,
                            "a store to a far line passes a near slice's crossbar input first (counted as a write "
                            "there, not written) and is written at its home slice",
                            [](G& c) -> auto& { return c.l2.far_writes_in_both_partitions; }));
  p.push_back(bool_param<G>("l2.far_stores_copy_near", false,
                            "a store to a far line also leaves its sectors in the near slice it passes (valid, clean: "
                            "the home slice holds them dirty), so a later read from that partition is answered near - "
                            "one read lookup, not the near miss and the home's (gms-local-ubench: lines stored, then read "
                            "back, 1.00 L2 read sector per L1 miss, local or global; lines only read 1.50 on first touch). "
                            "Only where far stores pass a near slice: l2.partition_mode replicate and "
                            "l2.far_writes_in_both_partitions",
                            [](G& c) -> auto& { return c.l2.far_stores_copy_near; }));
  p.push_back(bool_param<G>("l2.far_read_home_evict_first", false,
                            "in the replicating mode, the line a far read fills at its home slice (the near partition's "
                            "copy then answers that partition) is kept there as the set's first victim, until a read from "
                            "the home partition itself promotes it (gms-store-copy-ubench --pace: beside a slow read "
                            "stream, silicon keeps a resident set as only this does - 0.020 / 0.059 displaced a round, "
                            "this 0.014 / 0.073, plain LRU 0.073 / 0.248)",
                            [](G& c) -> auto& { return c.l2.far_read_home_evict_first; }));
  p.push_back(bool_param<G>("l2.far_fills_take_slice_bandwidth", true,
                            "in the replicating mode, a far line's home-slice lookup (the near partition missed) "
                            "takes l2.slice_bytes_per_cycle there; false: it comes over the fabric, whose own limit is "
                            "l2.fabric_bytes_per_cycle, and only the SMs' requests share a slice's bandwidth",
                            [](G& c) -> auto& { return c.l2.far_fills_take_slice_bandwidth; }));
  p.push_back(bool_param<G>("l2.miss_data_forwarded", false,
                            "a read's tags are looked up before its data is read: a miss leaves for DRAM at its tag "
                            "lookup, and each reply takes the slice's data path (l2.slice_bytes_per_cycle) when its "
                            "data is in the slice - a held sector's at the lookup, a fill's when it lands; false: every "
                            "read takes its turn on the data path first, and a miss goes to DRAM after it",
                            [](G& c) -> auto& { return c.l2.miss_data_forwarded; }));
  p.push_back(bool_param<G>("l2.reads_in_arrival_order", false,
                            "the slices, the fabric and DRAM take read requests in the order they arrive, across SMs "
                            "(each line when it has left its SM's port: gms-gpc-ubench burst); false: a load's lines "
                            "are booked there when its warp issues it, ahead of other SMs' lines that arrive sooner",
                            [](G& c) -> auto& { return c.l2.reads_in_arrival_order; }));
  p.push_back(bool_param<G>("l2.writes_in_arrival_order", false,
                            "the same for stores and reductions: the slices take them in the order they arrive, "
                            "and a warp's exit waits (drain) until they have been taken; false: booked when issued",
                            [](G& c) -> auto& { return c.l2.writes_in_arrival_order; }));
  p.push_back(choice_param<G>("l2.sm_partition_map", {"halves", "interleave"}, "halves",
                              "which partition an SM is near: first/second half of SM ids, or even/odd ids",
                              [](G& c) -> auto& { return c.l2.sm_partition_map; }));
  p.push_back(text_param<G>("l2.sm_partitions", "", false,
                            "the partition each SM is near, one digit per SM in SM-id order (as gms-partition-ubench "
                            "measures it); when given it replaces l2.sm_partition_map",
                            [](G& c) -> auto& { return c.l2.sm_partitions; }));
  // --- DRAM
  p.push_back(quantity_param<G>("dram.bandwidth", Q::kBandwidth, "", 1e6, 1e16, "theoretical peak bandwidth",
                                [](G& c) -> auto& { return c.dram.bandwidth; }));
  p.push_back(quantity_param<G>("dram.efficiency", Q::kReal, "0.9", 0.01, 1,
                                "fraction of the peak that streaming traffic sustains",
                                [](G& c) -> auto& { return c.dram.efficiency; }));
  p.push_back(quantity_param<G>("dram.copy_efficiency", Q::kReal, "0", 0, 1,
                                "fraction of the peak that an even mix of reads and writes sustains (a copy kernel's "
                                "reads + writes): the bus turns round between them. A write reaching a channel within "
                                "one DRAM access time of a read there takes 2 x efficiency / copy_efficiency - 1 "
                                "times its bytes' bus time; writes alone stream at efficiency. 0 = no turnaround cost",
                                [](G& c) -> auto& { return c.dram.copy_efficiency; }));
  p.push_back(quantity_param<G>("dram.channels", Q::kInteger, "", 1, 4096, "independent channels",
                                [](G& c) -> auto& { return c.dram.channels; }));
  p.push_back(quantity_param<G>("dram.latency", Q::kCycles, "", 1, 1000000,
                                "L2 miss served by DRAM, end to end from the SM, unloaded: the mean over lines of the "
                                "near and the far L2 partition, as a chase over random lines measures it (far misses "
                                "pay l2.far_extra_latency within it)",
                                [](G& c) -> auto& { return c.dram.latency; }));
  p.push_back(text_param<G>("dram.latency_spread", "", false,
                            "the DRAM's own spread of a read's latency about dram.latency: cycles at evenly spaced "
                            "probabilities from 0 to 1 (\"-90cycles, ..., 576cycles\", a quantile function, linear "
                            "between the points; the model centres it on its mean, so dram.latency stays the mean). "
                            "Each read draws its own (a hash of its line and arrival time). Empty = every read after "
                            "the same latency",
                            [](G& c) -> auto& { return c.dram.latency_spread; }));
  p.push_back(choice_param<G>("dram.latency_spread_scope", {"read", "block", "channel", "device"}, "read",
                              "which DRAM reads share one draw of dram.latency_spread: read = each its own; block = "
                              "every read of one aligned dram.latency_spread_block within one latency_spread_window "
                              "(one row's neighbourhood: gms-latency-lanes-ubench's adjacent lines wait together); "
                              "channel = every read reaching one channel within one window (a refresh or row conflict "
                              "delays every read there at once); device = every read within one window, any channel",
                              [](G& c) -> auto& { return c.dram.latency_spread_scope; }));
  p.push_back(quantity_param<G>("dram.latency_spread_window", Q::kCycles, "600cycles", 1, 1000000,
                                "how long one shared draw of dram.latency_spread holds (scope block, channel or device): "
                                "about the spread's tail, +576 cycles on the H200 (a refresh's length)",
                                [](G& c) -> auto& { return c.dram.latency_spread_window; }));
  p.push_back(quantity_param<G>("dram.latency_spread_block", Q::kBytes, "4KiB", 128, 1 << 30,
                                "the aligned address block whose reads share one draw of dram.latency_spread "
                                "(scope block)",
                                [](G& c) -> auto& { return c.dram.latency_spread_block; }));
  p.push_back(quantity_param<G>("dram.interleave", Q::kBytes, "256B", 32, 1 << 20,
                                "bytes mapped to one channel before moving to the next",
                                [](G& c) -> auto& { return c.dram.interleave; }));
  p.push_back(quantity_param<G>("dram.access_granularity", Q::kBytes, "32B", 32, 1024,
                                "bytes fetched into L2 per miss (32 = the sector, 64 = sector pairs)",
                                [](G& c) -> auto& { return c.dram.access_granularity; }));
  p.push_back(quantity_param<G>("dram.gpc_share_backlog", Q::kBytes, "0B", 0, kBig,
                                "the DRAM backlog (bytes queued at the channels, all together) beyond which the DRAM "
                                "path serves the SMs by GPC, with dram.gpc_share_ratio; below it, first come, first "
                                "served. Needs icnt.gpc_sms. 0 = first come, first served at any backlog",
                                [](G& c) -> auto& { return c.dram.gpc_share_backlog; }));
  p.push_back(quantity_param<G>("dram.gpc_share_ratio", Q::kReal, "1", 1, 4,
                                "beyond dram.gpc_share_backlog: the DRAM share of an SM of the smallest GPC over that "
                                "of an SM of the largest, in a stream that keeps the queue deep (a request's wait at "
                                "its channel scales by its GPC's factor; GPCs in between on a power law of their size)",
                                [](G& c) -> auto& { return c.dram.gpc_share_ratio; }));
  // --- launch
  p.push_back(quantity_param<G>("launch.kernel_overhead", Q::kCycles, "0", 0, 1e9,
                                "cycles added to every kernel's duration (launch and drain)",
                                [](G& c) -> auto& { return c.launch.kernel_overhead; }));
  p.push_back(quantity_param<G>("launch.cta_start_jitter", Q::kCycles, "0", 0, 1e9,
                                "a CTA's warps start up to this many cycles after it is placed (deterministic per "
                                "launch index); breaks the lockstep waves of equal-length CTAs",
                                [](G& c) -> auto& { return c.launch.cta_start_jitter; }));
  p.push_back(quantity_param<G>("launch.cta_launch_latency", Q::kCycles, "0", 0, 1e9,
                                "cycles between a CTA retiring and the next starting on that SM",
                                [](G& c) -> auto& { return c.launch.cta_launch_latency; }));
  p.push_back(quantity_param<G>("launch.cta_dispatch_interval", Q::kCycles, "0", 0, 1e9,
                                "fewest cycles between two CTA starts on one SM (the SM's CTA launch rate; "
                                "validate/runner/cta_ubench.cu measures it with empty CTAs)",
                                [](G& c) -> auto& { return c.launch.cta_dispatch_interval; }));
  p.push_back(quantity_param<G>("launch.warp_dispatch_interval", Q::kCycles, "0", 0, 1e9,
                                "cycles per warp of a CTA's start: an SM starts CTAs no faster than one per "
                                "max(cta_dispatch_interval, warps x this)",
                                [](G& c) -> auto& { return c.launch.warp_dispatch_interval; }));
  p.push_back(choice_param<G>("launch.dispatch", policy_names(PolicyKind::kDispatch), "round_robin",
                              "which SM receives the next CTA in launch order",
                              [](G& c) -> auto& { return c.launch.dispatch; }));
  p.push_back(text_param<G>("launch.sm_order", "", false,
                            "the order in which the dispatcher visits the SMs: SM ids and ranges, e.g. "
                            "\"124-131,0,1,16,17\", each SM once (silicon's work distributor walks TPCs across "
                            "GPCs: the stamped launches' first CTAs, validate/scripts/dispatch_order.py); round_robin "
                            "hands the next CTA to the next SM in this order with a free slot, greedy to the first. "
                            "Empty = SM-id order",
                            [](G& c) -> auto& { return c.launch.sm_order; }));
  return s;
}

bool pow2(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

const Schema<GpuConfig>& gpu_schema() {
  static const Schema<GpuConfig> schema = make_schema();
  return schema;
}

void validate_gpu(const Bound<GpuConfig>& b, const std::string& file) {
  const GpuConfig& g = b.value;
  auto fail = [&](const std::string& key, const std::string& why) {
    throw ConfigError(where(b.origins, key, file) + ": gpu key '" + key + "': " + why);
  };
  auto check_cache = [&](const std::string& lvl, std::int64_t size, int line, int sector, int assoc, int banks) {
    if (!pow2(line)) fail(lvl + ".line", "must be a power of two");
    if (!pow2(sector) || sector > line) fail(lvl + ".sector", "must be a power of two no larger than the line");
    if (line / sector > 32) fail(lvl + ".sector", "at most 32 sectors per line");
    std::int64_t set_bytes = static_cast<std::int64_t>(line) * assoc * banks;
    if (size % set_bytes != 0)
      fail(lvl + ".size", "must be a multiple of line x assoc" + std::string(banks > 1 ? " x slices" : "") + " (" +
                              std::to_string(set_bytes) + " B)");
  };
  if (g.l1.size > 0) check_cache("l1", g.l1.size, g.l1.line, g.l1.sector, g.l1.assoc, 1);
  if (g.l1.unified_bytes > 0) {
    std::string why;
    const auto carveouts = parse_carveouts(g.l1.carveouts, &why);
    if (!carveouts) fail("l1.carveouts", why);
    if (carveouts->empty()) fail("l1.carveouts", "l1.unified_bytes needs the carve-outs the driver picks from");
    for (std::int64_t c : *carveouts) {
      if (c >= g.l1.unified_bytes) fail("l1.carveouts", std::to_string(c) + " B leaves no L1 of l1.unified_bytes");
      check_cache("l1", g.l1.unified_bytes - c, g.l1.line, g.l1.sector, g.l1.assoc, 1);
    }
  }
  check_cache("l2", g.l2.size, g.l2.line, g.l2.sector, g.l2.assoc, g.l2.slices);
  if (g.l2.slices % g.l2.partitions != 0) fail("l2.partitions", "must divide l2.slices");
  if (g.l2.partition_mode != "none" && g.l2.partitions < 2)
    fail("l2.partition_mode", "needs l2.partitions of 2 or more");
  if (!g.l2.sm_partitions.empty() && g.l2.partitions > 1) {  // one partition: every SM is near it, the map is unused
    if (g.l2.sm_partitions.size() != static_cast<size_t>(g.sm.count))
      fail("l2.sm_partitions", "needs one digit per SM: " + std::to_string(g.l2.sm_partitions.size()) + " for " +
                                   std::to_string(g.sm.count) + " SMs");
    for (char c : g.l2.sm_partitions)
      if (c < '0' || c - '0' >= g.l2.partitions)
        fail("l2.sm_partitions", std::string("'") + c + "' is not a partition below l2.partitions = " +
                                     std::to_string(g.l2.partitions));
  }
  if (g.icnt.latency >= g.l2.hit_latency) fail("icnt.latency", "must be smaller than l2.hit_latency");
  if (g.clock_drop_per_l2_tbps > 0 && g.clock_sm_wgmma <= 0)
    fail("clock.drop_per_l2_tbps", "needs clock.sm_wgmma (the L2 term belongs to the wgmma kernels' own line)");
  {
    std::string why;
    const auto gpcs = parse_gpc_sms(g.icnt.gpc_sms, &why);
    if (!gpcs) fail("icnt.gpc_sms", why);
    int sum = 0;
    for (int n : *gpcs) sum += n;
    if (!gpcs->empty() && sum != g.sm.count)
      fail("icnt.gpc_sms", "its SMs add up to " + std::to_string(sum) + ", sm.count is " + std::to_string(g.sm.count));
    if (g.icnt.gpc_bytes_per_cycle > 0 && gpcs->empty())
      fail("icnt.gpc_bytes_per_cycle", "needs icnt.gpc_sms (which SMs share a GPC's port)");
    if (g.dram.gpc_share_backlog > 0 && gpcs->empty())
      fail("dram.gpc_share_backlog", "needs icnt.gpc_sms (which SMs share a GPC)");
    if (!parse_sm_order(g.launch.sm_order, g.sm.count, &why)) fail("launch.sm_order", why);
  }
  std::string spread_why;
  const auto spread = parse_latency_spread(g.dram.latency_spread, &spread_why);
  if (!spread) fail("dram.latency_spread", spread_why);
  // The DRAM's own share of the latency must stay positive once the far lines' penalty is taken out.
  const double far_in_mean = far_line_share(g.l2) * static_cast<double>(g.l2.far_extra_latency);
  if (static_cast<double>(g.dram.latency) <= static_cast<double>(g.l2.hit_latency) + far_in_mean)
    fail("dram.latency", far_in_mean > 0 ? "must be larger than l2.hit_latency plus the far lines' share of "
                                           "l2.far_extra_latency (" + std::to_string(static_cast<int>(far_in_mean + 0.5)) +
                                           " cycles): a chase's mean over random lines includes it"
                                         : std::string("must be larger than l2.hit_latency"));
  // ... and so must the fastest read's, with the spread centred on its mean (the quantile function's trapezoids).
  if (const std::vector<double>& q = *spread; !q.empty()) {
    double area = 0;
    for (size_t i = 1; i < q.size(); ++i) area += (q[i - 1] + q[i]) / 2;
    const double lowest = q.front() - area / static_cast<double>(q.size() - 1);
    const double own = static_cast<double>(g.dram.latency) - static_cast<double>(g.l2.hit_latency) - far_in_mean;
    if (own + lowest <= 0)
      fail("dram.latency_spread", "its lowest point lies " + std::to_string(static_cast<int>(-lowest + 0.5)) +
                                      " cycles below its mean, more than the DRAM's own share of dram.latency (" +
                                      std::to_string(static_cast<int>(own + 0.5)) + " cycles)");
  }
  if (g.l2.slice_interleave != 0 && (!pow2(g.l2.slice_interleave) || g.l2.slice_interleave < g.l2.line))
    fail("l2.slice_interleave", "must be 0 or a power of two no smaller than l2.line");
  if (!pow2(g.dram.interleave)) fail("dram.interleave", "must be a power of two");
  if (!pow2(g.dram.access_granularity) || g.dram.access_granularity < g.l2.sector ||
      g.dram.access_granularity > g.l2.line)
    fail("dram.access_granularity", "must be a power of two between l2.sector and l2.line");
  if (g.sm.shared_mem_per_cta > g.sm.shared_mem) fail("sm.shared_mem_per_cta", "exceeds sm.shared_mem");
  if (g.sm.max_warps % g.sm.subpartitions != 0) fail("sm.subpartitions", "must divide sm.max_warps");
}

}  // namespace gms

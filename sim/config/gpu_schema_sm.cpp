// Declaration of every SM parameter (sm.*): the SM's resources, pipes, shared-memory data path, MIO queue, issue
// stage and instruction fetch. gpu_schema.cpp declares the rest of the GPU and calls this in its place.
#include "config/gpu_schema_parts.h"
#include "model/policy_registry.h"

namespace gms {

void add_sm_params(std::vector<Param<GpuConfig>>& p) {
  using namespace gpu_schema_parts;
  p.push_back(quantity_param<G>("sm.count", Q::kInteger, "", 1, 4096, "streaming multiprocessors (CUs)",
                                [](G& c) -> auto& { return c.sm.count; }));
  p.push_back(quantity_param<G>("sm.compute_capability", Q::kInteger, "0", 0, 1000,
                                "CUDA compute capability x 10 (90 = sm_90), matched against a trace's binary version; "
                                "0 = not an NVIDIA GPU",
                                [](G& c) -> auto& { return c.sm.compute_capability; }));
  p.push_back(quantity_param<G>("sm.warp_size", Q::kInteger, "32", 1, 64, "threads per warp (64 = wavefront)",
                                [](G& c) -> auto& { return c.sm.warp_size; }));
  p.push_back(quantity_param<G>("sm.max_warps", Q::kInteger, "64", 1, 1024, "resident warps per SM",
                                [](G& c) -> auto& { return c.sm.max_warps; }));
  p.push_back(quantity_param<G>("sm.max_ctas", Q::kInteger, "32", 1, 1024, "resident CTAs per SM",
                                [](G& c) -> auto& { return c.sm.max_ctas; }));
  p.push_back(quantity_param<G>("sm.registers", Q::kInteger, "65536", 1, 1 << 24, "32-bit registers per SM",
                                [](G& c) -> auto& { return c.sm.registers; }));
  p.push_back(quantity_param<G>("sm.max_registers_per_thread", Q::kInteger, "255", 1, 1024,
                                "registers one thread may use before spilling",
                                [](G& c) -> auto& { return c.sm.max_registers_per_thread; }));
  p.push_back(quantity_param<G>("sm.register_alloc_unit", Q::kInteger, "256", 1, 65536,
                                "registers are given to a warp in multiples of this",
                                [](G& c) -> auto& { return c.sm.register_alloc_unit; }));
  p.push_back(quantity_param<G>("sm.shared_mem", Q::kBytes, "", 0, kBig, "shared memory CTAs may use per SM",
                                [](G& c) -> auto& { return c.sm.shared_mem; }));
  p.push_back(quantity_param<G>("sm.shared_mem_per_cta", Q::kBytes, "48KiB", 0, kBig,
                                "largest shared-memory allocation of one CTA",
                                [](G& c) -> auto& { return c.sm.shared_mem_per_cta; }));
  p.push_back(quantity_param<G>("sm.shared_mem_reserved_per_cta", Q::kBytes, "0B", 0, kBig,
                                "shared memory the system reserves per resident CTA",
                                [](G& c) -> auto& { return c.sm.shared_mem_reserved_per_cta; }));
  p.push_back(quantity_param<G>("sm.subpartitions", Q::kInteger, "4", 1, 16,
                                "warp schedulers per SM; each issues one instruction per cycle",
                                [](G& c) -> auto& { return c.sm.subpartitions; }));
  p.push_back(choice_param<G>("sm.warp_scheduler", policy_names(PolicyKind::kWarpScheduler), "gto",
                              "which ready warp issues: greedy-then-oldest, loose round robin, oldest_three (three places, taken by "
                              "the oldest warps whose next instruction is ready within 16 cycles - by CTA age, a CTA's "
                              "warps rotating through them - take turns; younger warps wait: gms-issue-trace-ubench), or "
                              "cta_share (the eligible warps share the port by weight, a younger CTA's warps by "
                              "sm.younger_cta_share: the one that used the fewest slots for its weight issues)",
                              [](G& c) -> auto& { return c.sm.warp_scheduler; }));
  p.push_back(quantity_param<G>("sm.younger_cta_share", Q::kReal, "0.5", 0.01, 1,
                                "cta_share: the weight of a warp of a younger CTA (among those with an eligible warp on "
                                "the sub-partition) against one of the next older CTA. 0.5: two CTAs of two warps each "
                                "that all want the port split it 1/3, 1/3, 1/6, 1/6, as gms-issue-trace-ubench measured "
                                "(validate/results/h200/issue_trace); 1 = all warps alike",
                                [](G& c) -> auto& { return c.sm.younger_cta_share; }));
  p.push_back(quantity_param<G>("sm.fma_flops_per_cycle", Q::kReal, "", 1, 1e6,
                                "fp32 FLOP per cycle per SM on the FMA pipes (2 per lane)",
                                [](G& c) -> auto& { return c.sm.fma_flops_per_cycle; }));
  p.push_back(quantity_param<G>("sm.tensor_fp16_flops_per_cycle", Q::kReal, "", 1, 1e6,
                                "dense fp16 tensor-core FLOP per cycle per SM",
                                [](G& c) -> auto& { return c.sm.tensor_fp16_flops_per_cycle; }));
  p.push_back(quantity_param<G>("sm.mma_sync_fp16_flops_per_cycle", Q::kReal, "0", 0, 1e6,
                                "fp16 FLOP/cycle/SM of warp-level mma.sync (HMMA.16816, register operands); other "
                                "dtypes scale with their tensor rate; 0 = the tensor rate (no separate wgmma class)",
                                [](G& c) -> auto& { return c.sm.mma_sync_fp16_flops_per_cycle; }));
  p.push_back(bool_param<G>("sm.mma_sync_holds_dispatch", false,
                           "an mma.sync (HMMA.16816) holds its sub-partition's dispatch for its tensor-pipe interval: "
                           "no other warp of the sub-partition issues meanwhile, but between two HMMAs one instruction of "
                           "another warp may (false = one issue cycle, as any instruction)",
                           [](G& c) -> auto& { return c.sm.mma_sync_holds_dispatch; }));
  p.push_back(bool_param<G>("sm.dispatch_stall_follows_residents", false,
                           "a workload's measured dispatch_stall (issue.measured.dispatch_stall, taken at the kernel's "
                           "occupancy) follows the warps resident on the issuing warp's sub-partition: the lone profile's "
                           "(issue.measured.alone.*) with as many as one CTA an SM leaves there, the kernel's with as many "
                           "as its profile had, linear between (false = the kernel's for every warp)",
                           [](G& c) -> auto& { return c.sm.dispatch_stall_follows_residents; }));
  p.push_back(bool_param<G>("sm.loads_wait_in_mio_queue", false,
                           "a global or local load (LDG, LDL; not cp.async or TMA) takes an entry of the MIO queue like a "
                           "shared instruction - its warp waits in mio_throttle while the queue is full - and enters the "
                           "LSU behind the shared-memory instructions booked on the SM's data path: its requests leave, "
                           "and its entry frees (sm.mio_release_latency later), from then on (the Triton GEMV's source "
                           "counters on the H200: 8192x28672 BLOCK_N 256 4-warp, 19.5 of its 35.2 % mio_throttle on "
                           "LDG; validate/results/h200/gemv_source_large). false = a load enters as it issues",
                           [](G& c) -> auto& { return c.sm.loads_wait_in_mio_queue; }));
  p.push_back(bool_param<G>("sm.copies_wait_for_shared_queue", false,
                           "a cp.async (LDGSTS) enters the LSU behind the shared-memory instructions already booked on "
                           "the SM's data path: its line requests leave, and its warp's next instruction (which rewrites "
                           "its address registers) issues, from then on - long_scoreboard (false = it enters as it issues)",
                           [](G& c) -> auto& { return c.sm.copies_wait_for_shared_queue; }));
  p.push_back(quantity_param<G>("sm.copy_waits_per_warp", Q::kInteger, "0", 0, 64,
                                "with sm.copies_wait_for_shared_queue: a copy waits behind at most this many of each "
                                "warp's booked shared instructions - those a warp has in the data path at once, "
                                "its later ones still in the MIO queue (gms-fill-ubench --probe-grid: one warp's 8 "
                                "independent ldmatrix overlap as ~2); 0 = behind every booked one",
                                [](G& c) -> auto& { return c.sm.copy_waits_per_warp; }));
  p.push_back(bool_param<G>("sm.shared_path_in_turns", false,
                           "the SM's shared-memory data path takes the warps' next instructions in turn: a shared "
                           "instruction, or a global load behind it (sm.loads_wait_in_mio_queue), waits for the "
                           "sm.shared_path_depth instructions already past the turn, its own warp's earlier ones and "
                           "about one of each other warp's a turn - not the whole booked queue (gms-ldg-backlog-ubench: "
                           "a chase beside seven warps of conflict-free LDS.128 waits +50-70 cycles a hop, the queue "
                           "~240; validate/results/h200/ldg_backlog); false = first come, first served",
                           [](G& c) -> auto& { return c.sm.shared_path_in_turns; }));
  p.push_back(quantity_param<G>("sm.shared_path_depth", Q::kInteger, "0", 0, 64,
                                "with sm.shared_path_in_turns: instructions past the turn (any warp's) that a new one "
                                "waits behind whole",
                                [](G& c) -> auto& { return c.sm.shared_path_depth; }));
  p.push_back(quantity_param<G>("sm.shared_replay_cycles", Q::kCycles, "1cycles", 1, 64,
                                "with sm.shared_path_in_turns: cycles apart that a warp's own wavefronts of a shared "
                                "instruction pass for that warp; the path is held one cycle each and other warps' "
                                "instructions fill the gaps (gms-lds-pace-ubench, validate/results/h200/lds_pace: a lone "
                                "warp's 4- to 32-way LDS.32 2.04-2.08 cycles a wavefront, four warps' 1.00-1.02 for the SM)",
                                [](G& c) -> auto& { return c.sm.shared_replay_cycles; }));
  p.push_back(quantity_param<G>("sm.shared_warp_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e6,
                                "with sm.shared_path_in_turns: the rate at which a warp's shared-load data reaches it, "
                                "block after block (32 lanes x the bytes a lane reads, ldmatrix.x4 512 bytes); the load's "
                                "data waits for it, the path, the MIO entries and other warps do not (gms-lds-pace-ubench: "
                                "a lone warp's conflict-free LDS.64 / LDS.128 3.16 cycles a wavefront, ldmatrix.x4 2.99 - "
                                "~40 bytes a cycle - where its 4- to 32-way LDS.32 take 2.04-2.08; gms-ldg-backlog-ubench: "
                                "a chase beside one warp's LDS.128 waits +0-3 cycles); 0 = no limit",
                                [](G& c) -> auto& { return c.sm.shared_warp_bytes_per_cycle; }));
  p.push_back(bool_param<G>("sm.ldmatrix_one_at_a_time_beside_mma", false,
                           "while another warp's mma.sync is in its sub-partition's tensor pipe, a warp's ldmatrix pass "
                           "one at a time, each when the last one's data is back (gms-sharing-ubench --ldsm: independent "
                           "ldmatrix beside a dependent HMMA chain take a chain's latency each); false = at the path's rate",
                           [](G& c) -> auto& { return c.sm.ldmatrix_one_at_a_time_beside_mma; }));
  p.push_back(bool_param<G>("sm.wgmma_operands_use_shared_path", false,
                           "a wgmma's operands in shared memory (A and B, read once per warpgroup instruction) take the "
                           "SM's shared-memory data path at its wavefront rate, in turn with the shared loads, stores "
                           "and copies (gms-sharing-ubench --wgmma: beside wgmma, ldmatrix and st.shared get what the "
                           "operands leave of ~128 bytes a cycle); false = the operands cost the path nothing",
                           [](G& c) -> auto& { return c.sm.wgmma_operands_use_shared_path; }));
  p.push_back(quantity_param<G>("sm.wgmma_fraction", Q::kReal, "0", 0, 1,
                                "sustained share of the tensor rate that warpgroup wgmma reaches (0 = the GPU has "
                                "no wgmma: kind gemm's mma: wgmma is then an error)",
                                [](G& c) -> auto& { return c.sm.wgmma_fraction; }));
  p.push_back(quantity_param<G>("sm.tma_box_cycles", Q::kCycles, "0cycles", 0, 100000,
                                "cycles the SM's Tensor Memory Accelerator spends on each bulk tensor copy (one box) "
                                "before the next; its lines then share the SM's port (0 = the GPU has no TMA: "
                                "kind gemm's copy: tma is then an error)",
                                [](G& c) -> auto& { return c.sm.tma_box_cycles; }));
  p.push_back(quantity_param<G>("sm.tensor_bf16_flops_per_cycle", Q::kReal, "0", 0, 1e6,
                                "dense bf16 tensor FLOP per cycle per SM (0 = same as fp16)",
                                [](G& c) -> auto& { return c.sm.tensor_bf16_flops_per_cycle; }));
  p.push_back(quantity_param<G>("sm.tensor_fp8_flops_per_cycle", Q::kReal, "0", 0, 1e6,
                                "dense fp8 tensor FLOP per cycle per SM (0 = no fp8 tensor path: fp16 rate)",
                                [](G& c) -> auto& { return c.sm.tensor_fp8_flops_per_cycle; }));
  p.push_back(quantity_param<G>("sm.tensor_tf32_flops_per_cycle", Q::kReal, "0", 0, 1e6,
                                "dense tf32 tensor FLOP per cycle per SM, used for fp32 GEMM (0 = FMA rate)",
                                [](G& c) -> auto& { return c.sm.tensor_tf32_flops_per_cycle; }));
  p.push_back(quantity_param<G>("sm.lsu_bytes_per_cycle", Q::kBytesPerCycle, "128", 1, 1e6,
                                "bytes per cycle the L1/LSU data path of one SM moves",
                                [](G& c) -> auto& { return c.sm.lsu_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("sm.shared_bytes_per_cycle", Q::kBytesPerCycle, "128", 1, 1e6,
                                "shared-memory data path per SM: 32 banks x 4 B = one 128-byte wavefront a cycle",
                                [](G& c) -> auto& { return c.sm.shared_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("sm.shared_latency", Q::kCycles, "30cycles", 1, 10000,
                                "shared-memory load latency (issue to data, no conflicts, empty pipe)",
                                [](G& c) -> auto& { return c.sm.shared_latency; }));
  p.push_back(quantity_param<G>("sm.shared_latency_per_wavefront", Q::kCycles, "0cycles", 0, 1000,
                                "latency each wavefront of a shared load (LDS, ldmatrix) adds beyond its cycle in the "
                                "data path: a load of w wavefronts has its data shared_latency + w x (1 + this) cycles "
                                "after it starts",
                                [](G& c) -> auto& { return c.sm.shared_latency_per_wavefront; }));
  p.push_back(quantity_param<G>("sm.shuffle_latency", Q::kCycles, "0cycles", 0, 10000,
                                "warp shuffle (SHFL) latency after its pass of the shared-memory data path: a chain "
                                "of dependent shuffles takes this + 1 cycle a hop. 0 = as a conflict-free shared load "
                                "(shared_latency + shared_latency_per_wavefront)",
                                [](G& c) -> auto& { return c.sm.shuffle_latency; }));
  p.push_back(quantity_param<G>("sm.mio_starvation_period", Q::kCycles, "0cycles", 0, 100000000,
                                "the SM ticks at every multiple of this many cycles; a warp that was already waiting "
                                "for an MIO entry at one tick and still is at the next takes the next entry its "
                                "sub-partition gets, before older warps (gms-mio-startup-ubench: starved S2Rs issue "
                                "within 2,048 cycles after a multiple of 16,384 of clock64, 16-32 k cycles after they "
                                "began to wait; the youngest chain beside a flood: 32,765 cycles a hop). 0 = a "
                                "younger warp waits while older ones are ready",
                                [](G& c) -> auto& { return c.sm.mio_starvation_period; }));
  p.push_back(quantity_param<G>("sm.mio_start_backlog", Q::kInteger, "-1", -1, 4096,
                                "a new warp's first MIO instructions (its start S2R, workload start_special_reads) "
                                "issue only once the SM's MIO queue holds at most this many entries: behind other "
                                "warps' shared-memory traffic a new warp waits (gms-mio-ubench mio_startup: ~20,000 "
                                "cycles on the H100 under continuous traffic). -1 = it never waits",
                                [](G& c) -> auto& { return c.sm.mio_start_backlog; }));
  p.push_back(choice_param<G>("sm.shared_fills", {"issue", "arrival", "idle", "between"}, "arrival",
                              "when a cp.async (LDGSTS) writes its data into shared memory, taking wavefronts of the "
                              "data path: issue = booked as the instruction issues; arrival = when its data is back "
                              "from L2, in time order with the shared instructions; idle = when its data is back and "
                              "the path is idle (shared instructions first); between = when its data is back, in "
                              "one-cycle slots each at the end of the instruction the path is serving (one "
                              "instruction, one slot while both wait: gms-fill-ubench)",
                              [](G& c) -> auto& { return c.sm.shared_fills; }));
  p.push_back(quantity_param<G>("sm.special_register_latency", Q::kCycles, "0cycles", 0, 10000,
                                "cycles from a special-register read's issue (S2R, S2UR) to its data: what a loop that "
                                "re-reads SR_TID, SR_LANEID or SR_CgaCtaId waits (workload issue.special_reads); 0 = "
                                "such waits are not modelled",
                                [](G& c) -> auto& { return c.sm.special_register_latency; }));
  p.push_back(quantity_param<G>("sm.mio_queue_per_sm", Q::kInteger, "0", 0, 4096,
                                "shared-memory instructions (LDS, STS, ldmatrix) an SM holds issued but not yet through "
                                "its data path; a warp whose next one finds the queue full stalls (Nsight's "
                                "mio_throttle) until the oldest is through; 0 = unbounded",
                                [](G& c) -> auto& { return c.sm.mio_queue_per_sm; }));
  p.push_back(quantity_param<G>("sm.mio_queue_per_subpartition", Q::kInteger, "0", 0, 4096,
                                "the same bound per sub-partition (both apply); 0 = unbounded",
                                [](G& c) -> auto& { return c.sm.mio_queue_per_subpartition; }));
  p.push_back(quantity_param<G>("sm.mio_release_latency", Q::kCycles, "0cycles", 0, 100000,
                                "cycles from the data path finishing a shared instruction to its MIO queue entry "
                                "being free (its data's way back to the warp); 0 = free when the path is through",
                                [](G& c) -> auto& { return c.sm.mio_release_latency; }));
  p.push_back(bool_param<G>("sm.mio_entries_oldest_first", false,
                           "when the SM's MIO queue is full, each entry that frees goes to the oldest warp of the SM "
                           "waiting for one (a warp starved for sm.mio_starvation_period counting as oldest), whatever "
                           "its sub-partition holds (gms-mio-startup-ubench sts_warps012: a warp whose sub-partition "
                           "holds none of the traffic waits as long as the others); false = a sub-partition below its "
                           "share of the queue adds one at once, and those turned away take the entries in the order "
                           "they were turned away",
                           [](G& c) -> auto& { return c.sm.mio_entries_oldest_first; }));
  p.push_back(bool_param<G>("sm.mio_entries_by_cta_age", false,
                           "with sm.mio_entries_oldest_first: waiting warps are ordered by their CTA's age - the older "
                           "CTA's warps first, a CTA's own in the order the full SM turned them away - not by their "
                           "own (gms-lds-pace-ubench: one CTA's flooding warps are served fairly, slowest "
                           "and fastest within 2 %; gms-mio-order-ubench: 16 CTAs' reduction rounds end oldest CTA "
                           "first); false = each warp by its own age",
                           [](G& c) -> auto& { return c.sm.mio_entries_by_cta_age; }));
  p.push_back(bool_param<G>("sm.mio_bursts_enter_one_at_a_time", false,
                           "a block of shared instructions the compiled code issues back to back (a GEMV reduction's "
                           "round) issues once one MIO queue entry is free: its warp takes each entry as it frees, "
                           "before younger warps, as silicon's age priority gives it (gms-mio-order-ubench); false = "
                           "it waits until the queue has room for all of them at once, while younger warps' single "
                           "instructions take the entries that free",
                           [](G& c) -> auto& { return c.sm.mio_bursts_enter_one_at_a_time; }));
  p.push_back(quantity_param<G>("sm.barrier_latency", Q::kCycles, "0cycles", 0, 100000,
                                "cycles from the last warp of a CTA arriving at a barrier (BAR.SYNC) to its warps going "
                                "on; what a barrier costs a CTA alone on its SM (gms-issue-ubench --wake); 0 = they go "
                                "on the cycle after",
                                [](G& c) -> auto& { return c.sm.barrier_latency; }));
  p.push_back(quantity_param<G>("sm.copy_fill_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e6,
                                "bytes of a cp.async that bypasses L1 (LDGSTS.BYPASS) written into shared memory per "
                                "cycle of the data path, whatever the destination's banks; 0 = the copy costs the "
                                "wavefronts of a shared store to its destination (at sm.shared_bytes_per_cycle), as "
                                "copies through L1 always do",
                                [](G& c) -> auto& { return c.sm.copy_fill_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("sm.load_data_bytes_per_cycle", Q::kBytesPerCycle, "0", 0, 1e6,
                                "bytes of a global or local load's data (LDG, LDL) the SM's shared-memory data path "
                                "carries into the registers per cycle, when the data is back, in slots beside the "
                                "shared instructions as a cp.async's fill (sm.shared_fills); the load completes "
                                "when its bytes have passed (gms-fill-ubench --loads: 4 cycles of ldmatrix readers' "
                                "path per 512-byte LDG.128, from L1, L2 or DRAM, 1 per LDG.32 - ncu's "
                                "l1tex__data_pipe_lsu_wavefronts_mem_lgds, one a 128 bytes). 0 = loads take no "
                                "data-path time",
                                [](G& c) -> auto& { return c.sm.load_data_bytes_per_cycle; }));
  p.push_back(quantity_param<G>("sm.instruction_cache_instructions", Q::kInteger, "0", 0, 1 << 24,
                                "SASS instructions a kernel's main loop may hold and still run from the SM's instruction "
                                "caches (its size: the workload's issue.instructions, one K tile of an unrolled loop; in "
                                "a trace replay, the widest backward jump of each warp's stream); a "
                                "larger loop streams its instructions at sm.fetch_instructions_per_cycle "
                                "(gms-icache-ubench --fine, H200: 2,136 instructions fit, 2,392 mostly stream, 2,648 and "
                                "more stream). 0 = every loop fits",
                                [](G& c) -> auto& { return c.sm.instruction_cache_instructions; }));
  p.push_back(quantity_param<G>("sm.fetch_instructions_per_cycle", Q::kReal, "0", 0, 64,
                                "instructions per cycle a warp's fetch delivers from a loop larger than "
                                "sm.instruction_cache_instructions: the warp issues no faster (the time beyond its issue "
                                "floor is Nsight's no_instruction); a warp that asks for fewer is not slowed, and each "
                                "warp of a sub-partition has its own stream (gms-icache-ubench --fine, H200: 0.42 for one "
                                "warp a sub-partition, 0.46 each for two). 0 = unlimited",
                                [](G& c) -> auto& { return c.sm.fetch_instructions_per_cycle; }));
  p.push_back(quantity_param<G>("sm.issue_share_beside_one", Q::kReal, "0", 0, 1,
                                "the share of its sub-partition's issue slots a warp takes while one other warp of the "
                                "sub-partition is eligible: a block of n instructions holds its warp at least n / share "
                                "cycles from its first issue (the rest of that time the warp is not_selected), so that "
                                "the block model shares the port as silicon's scheduler does instruction by instruction "
                                "(gms-issue-ubench, validate/results/h100/issue_share: two warps that could each issue "
                                "every cycle split the port 0.5 / 0.5). 0 = a block takes the port as its warp can",
                                [](G& c) -> auto& { return c.sm.issue_share_beside_one; }));
  p.push_back(quantity_param<G>("sm.issue_share_beside_more", Q::kReal, "0", 0, 1,
                                "the same while two or more other warps are eligible (issue_share: the two oldest of "
                                "three or four take 0.38 each). 0 = a block takes the port as its warp can",
                                [](G& c) -> auto& { return c.sm.issue_share_beside_more; }));
}

}  // namespace gms

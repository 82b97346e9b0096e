#pragma once
// What warps execute. Generated workloads produce instructions lazily, one at a time, from a few
// integers of per-warp state, so no instruction list is ever stored for the grid.
#include <algorithm>
#include <cstdint>
#include <string>

#include "common/types.h"
#include "config/workload_config.h"
#include "model/memory_system.h"

namespace gms {

enum class Op : std::uint8_t {
  kLoad,     // global load into scoreboard slot `slot`
  kStore,    // global store (posted)
  kReduce,   // reduction atomics at L2 (posted: the old value is not returned)
  kCompute,  // `flops` on pipe `unit`; waits for nothing but the pipe
  kSharedLoad,   // shared-memory reads (LDS/LDSM) into scoreboard slot `slot`: `wavefronts` on the SM's pipe
  kSharedStore,  // shared-memory writes (STS): `wavefronts` on the SM's pipe, posted
  kWait,     // wait until scoreboard slot `slot` has arrived
  kBarrier,  // CTA-wide barrier
  kExit,
};

// The execution pipes of an SM sub-partition. Generated kernels use the tensor and FMA pipes through
// FLOP counts; traces use every pipe through per-instruction occupancy (the ISA table's interval).
enum class Pipe : std::uint8_t { kTensor, kFma, kAlu, kFp64, kSfu, kUniform, kBranch, kCount };
inline constexpr int kPipeCount = static_cast<int>(Pipe::kCount);

struct Instr {
  Op op = Op::kExit;
  std::uint8_t slot = 0;
  Pipe pipe = Pipe::kTensor;
  bool bypass_l1 = false;
  EvictHint hint = EvictHint::kNormal;
  // A block of shared loads or stores the compiled code issues back to back: the MIO queue counts
  // its instructions (a block without it stands for ones spread over a loop, which it does not).
  bool mio_burst = false;
  std::uint32_t issue_cycles = 1;  // issue-port cycles (a load group counts its warp instructions)
  // Other warp instructions (address arithmetic, loop control) issued among this block's: each takes
  // an issue cycle and counts as executed, none of them touches memory or a modelled pipe.
  std::uint32_t other_instructions = 0;
  // The warp instructions the block issues: its issue cycles (at least one) and the others among them.
  std::uint32_t instructions_issued() const { return std::max<std::uint32_t>(1, issue_cycles) + other_instructions; }
  // The warp's own issue floor for the block: ticks from its first issue until the warp may issue
  // again, from the compiler's stall counts (sass_issue.h); 0 = one cycle per instruction. The time
  // beyond the issue cycles is Nsight's `wait` (fixed-latency dependencies). A traced instruction (pipe_cycles > 0):
  // 0, or a taken branch's hold while its target is fetched (the ISA table's `taken`), Nsight's branch_resolving.
  std::uint32_t hold_ticks = 0;
  // Beyond the floor, the issue-stage stalls a profile measured and the model has no mechanism for
  // (workload issue.measured.*): Nsight's dispatch_stall and branch_resolving, in ticks.
  std::uint32_t dispatch_ticks = 0;
  std::uint32_t branch_ticks = 0;
  // The dispatch stall of the same block with one CTA an SM (issue.measured.alone.*); dispatch_ticks
  // without a lone profile. The engine sets dispatch_ticks between the two by the warps resident beside
  // the warp where sm.dispatch_stall_follows_residents says so.
  std::uint32_t dispatch_alone_ticks = 0;
  // The compiled order's own wait on shared reads among the block's instructions (issue.shared_reads),
  // in ticks: Nsight's short_scoreboard, after the floor.
  std::uint32_t short_ticks = 0;
  // Issue cycles the block's register-bank conflicts cost the sub-partition (issue.register_bank_conflicts),
  // in ticks: the issue port stays busy that much longer, for every warp.
  std::uint32_t port_ticks = 0;
  double flops = 0;
  // Shared-memory ops: data-path wavefronts, and those beyond one per lane group (bank conflicts). A wgmma
  // block (async_mma): the 128-byte wavefronts of shared memory its operands take (this warp's share).
  std::uint32_t wavefronts = 0;
  std::uint32_t conflicts = 0;
  bool async_copy = false;  // kLoad: cp.async (LDGSTS), the data lands in shared memory
  // kLoad: a bulk tensor copy (TMA) of `region` in this many boxes by the SM's copy engine; its
  // completion fills slot `slot` of every warp of the CTA (the mbarrier they all wait on).
  std::uint16_t tma_boxes = 0;
  bool ldmatrix = false;    // kSharedLoad: ldmatrix (counted as LDSM as well as shared loads)
  // kSharedLoad: the bytes each of the 32 lanes receives per instruction (LDS.128 16, ldmatrix.x4 16); 0 = not
  // known, the warp's own pace is then its wavefronts' alone (sm.shared_warp_bytes_per_cycle).
  std::uint8_t lane_bytes = 0;
  // kSharedLoad: warp shuffles (SHFL), one wavefront each: MIO instructions that pass the shared-memory
  // data path (Nsight counts their wavefronts) but are not shared loads.
  bool shuffle = false;
  // kSharedLoad: special-register reads (S2R): MIO instructions without a data-path pass (gms-mio-ubench
  // mio_startup: a warp's first S2R waits behind other warps' shared traffic). A traced one's data lands in
  // slot `slot` `latency` cycles after its issue; a generated program waits on none of its own.
  bool special_read = false;
  // kSharedLoad, special_read: a warp's start S2R, the first of the warp (they wait for the SM's MIO queue to
  // drain to sm.mio_start_backlog).
  bool warp_start = false;
  // kCompute on the tensor pipe: `issue_cycles` counts MMA instructions; an asynchronous MMA
  // (wgmma) lets the warp go on and marks scoreboard slot `slot` when it completes. A synchronous
  // one (mma.sync) holds the sub-partition's dispatch while in the pipe where sm.mma_sync_holds_dispatch
  // says so; a traced HGMMA is marked asynchronous for that alone.
  bool async_mma = false;
  // kCompute of one traced instruction: the pipe is busy `pipe_cycles` (> 0 selects this form), the
  // warp issues the next instruction a cycle later, and the result lands in slot `slot` `latency`
  // cycles after the pipe took it (when `writes_slot`): a fixed-latency dependency.
  std::uint16_t pipe_cycles = 0;
  std::uint16_t latency = 0;
  bool writes_slot = false;
  // kReduce: an atomic that returns the old value (ATOM) into slot `slot`.
  bool returns = false;
  // kStore / kLoad of per-thread local memory (STL / LDL): L1 takes a store as l1.local_stores says;
  // both are counted as local, not global, accesses.
  bool local = false;
  // Past the instruction cache (sm.instruction_cache_instructions), the ticks the block's instructions take to
  // arrive at the warp's fetch rate (sm.fetch_instructions_per_cycle): the warp's floor is the later of this and
  // hold_ticks, the difference Nsight's no_instruction. 0 = the loop fits. (Here, in the padding
  // before `region`, the record stays 152 bytes.)
  std::uint32_t fetch_ticks = 0;
  Region region;
  LaneAccess lanes;  // when present, memory ops use these per-lane addresses, not `region`
};

// The compiled loop's issue profile (workload issue.*, sim/asm/sass_issue.h) per instruction, in
// ticks: the floor each instruction holds its warp (the loop's mean stall count, or its measured
// selected + wait), the loop's own wait on shared reads at this GPU's shared latency, the
// measured issue-stage stalls, and the issue port's register-bank conflict cycles; all 0 without a
// profile.
struct IssueHold {
  double floor = 0, shared = 0, dispatch = 0, branch = 0, port = 0;
  double fetch = 0;  // the instruction's arrival past the instruction cache (fetch_cycles_per_instruction); 0 = it fits
  double dispatch_alone = 0;  // issue.measured.alone.dispatch_stall's (dispatch without a lone profile)
};
// `special_latency_cycles`: sm.special_register_latency (0: special-register reads cost nothing beyond
// their stall counts); `fetch_cycles`: fetch_cycles_per_instruction of the loop (0: it fits the instruction cache).
inline IssueHold issue_hold_per_instruction(const IssueProfileConfig& issue, double shared_latency_cycles,
                                            double special_latency_cycles, double fetch_cycles = 0) {
  IssueHold h;
  if (issue.instructions <= 0) return h;
  const double n = issue.instructions, per_cycle = static_cast<double>(kTicksPerCycle);
  const double floor = issue.measured_wait_cycles > 0 ? n + issue.measured_wait_cycles
                       : issue.stall_cycles > 0      ? issue.stall_cycles
                                                     : n;
  h.floor = floor * per_cycle / n;
  const double exposed = std::max(0.0, shared_latency_cycles - issue.shared_reads_hidden_cycles);
  const double special = std::max(0.0, special_latency_cycles - issue.special_reads_hidden_cycles);
  h.shared = (issue.shared_reads_exposed * exposed + issue.special_reads_exposed * special) * per_cycle / n;
  h.dispatch = issue.dispatch_stall_cycles * per_cycle / n;
  h.dispatch_alone = issue.alone_dispatch_stall_cycles > 0 ? issue.alone_dispatch_stall_cycles * per_cycle / n : h.dispatch;
  h.branch = issue.branch_resolving_cycles * per_cycle / n;
  h.port = issue.register_bank_conflict_cycles * per_cycle / n;
  h.fetch = fetch_cycles * per_cycle;
  return h;
}
// Gives a block of instructions (its issue cycles and the other instructions issued among them) its
// floor and measured stalls; waits issue nothing and are left alone.
inline void hold_for_issue(Instr& out, const IssueHold& h) {
  if (h.floor <= 0 || out.op == Op::kWait) return;
  const double n = out.issue_cycles + out.other_instructions;
  out.hold_ticks = static_cast<std::uint32_t>(n * h.floor + 0.5);
  out.short_ticks = static_cast<std::uint32_t>(n * h.shared + 0.5);
  out.port_ticks = static_cast<std::uint32_t>(n * h.port + 0.5);
  out.fetch_ticks = static_cast<std::uint32_t>(n * h.fetch + 0.5);
  out.dispatch_ticks = static_cast<std::uint32_t>(n * h.dispatch + 0.5);
  out.dispatch_alone_ticks = static_cast<std::uint32_t>(n * h.dispatch_alone + 0.5);
  out.branch_ticks = static_cast<std::uint32_t>(n * h.branch + 0.5);
}

// Copies of up to 16 stages, plus the tensor-core data path's ldmatrix and wgmma slots (gemm_kernel.cpp).
inline constexpr int kMaxSlots = 20;
static_assert(kMaxSlots <= 32, "slot kinds are kept in 32-bit masks");

// Per-warp generator state; meaning is private to each kernel.
struct WarpCursor {
  std::int64_t cta = 0;  // launch index
  std::int64_t tile_m = 0, tile_n = 0;
  int warp = 0;
  int phase = 0;
  std::int64_t step = 0;
  int sub = 0;
  std::int64_t issued = 0;  // instructions issued so far (a program that sizes a block by it counts)
};

struct TileCoord {
  std::int64_t m = 0, n = 0;
};

struct LaunchShape {
  std::int64_t ctas = 0;  // launches simulated (after cta_limit)
  std::int64_t grid_ctas = 0;
  int warps_per_cta = 0;
  int registers_per_thread = 0;
  std::int64_t shared_mem_per_cta = 0;
  std::int64_t shared_carveout = -1;      // the carve-out it launches with (workload shared_carveout); -1 = the GPU's rule
  std::int64_t tiles_m = 0, tiles_n = 0;  // output tile grid, for reports
  std::string math_dtype = "fp16";        // selects the tensor rate
  bool simt_math = false;                 // FFMA on the FMA pipe (kind tiled_gemm): its peak, not the tensor cores'
  double tensor_rate = 0;                 // FLOP/cycle/SM of the kernel's MMA class (0: the dtype's tensor rate)
  std::string mma_class;                  // "", "mma_sync" or "wgmma": which tensor instructions it counts
  // The warps resident per scheduler on the kernel's issue profile and on its lone profile
  // (issue.measured.warps_per_scheduler, issue.measured.alone.warps_per_scheduler; 0 = no lone profile).
  double profiled_warps_per_scheduler = 0, alone_warps_per_scheduler = 0;
};

// A kernel with a lone profile (issue.measured.alone.dispatch_stall) passes both profiles' warps per scheduler on.
inline void take_lone_profile(LaunchShape& s, const IssueProfileConfig& issue) {
  if (issue.alone_dispatch_stall_cycles <= 0) return;
  s.profiled_warps_per_scheduler = issue.profiled_warps_per_scheduler;
  s.alone_warps_per_scheduler = issue.alone_warps_per_scheduler;
}

class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual std::string name() const = 0;
  virtual LaunchShape shape() const = 0;
  virtual TileCoord tile_of(std::int64_t launch_index) const = 0;
  virtual void start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const = 0;
  // Writes the warp's next instruction; called again only after that one issued.
  virtual void next(WarpCursor& c, Instr& out) const = 0;
  // Bytes a perfect cache hierarchy would move (each input read once, each output written once).
  virtual double compulsory_bytes() const = 0;
  virtual double flops() const = 0;
};

}  // namespace gms

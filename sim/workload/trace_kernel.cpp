#include "workload/trace_kernel.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <deque>

#include "access/bank_model.h"
#include "common/error.h"
#include "model/occupancy.h"

namespace gms {

namespace {

// Scoreboard slots: memory results, fixed-latency ALU results, and cp.async commit groups.
constexpr int kLongSlots = 10, kFixedFirst = 10, kFixedSlots = 6, kGroupFirst = 16, kGroupSlots = 4;
static_assert(kGroupFirst + kGroupSlots <= kMaxSlots);

// Registers the tracer records: R0..R254 (R255 = RZ), UR0..UR62 (UR63 = URZ), P0..P6, UP0..UP6.
constexpr int kRegisterIds = 256 + 64 + 8 + 8;
int register_id(const TraceRegister& r) {
  switch (r.kind) {
    case TraceRegister::Kind::kR: return r.index >= 255 ? -1 : r.index;
    case TraceRegister::Kind::kUR: return r.index >= 63 ? -1 : 256 + r.index;
    case TraceRegister::Kind::kP: return r.index >= 7 ? -1 : 320 + r.index;
    case TraceRegister::Kind::kUP: return r.index >= 7 ? -1 : 328 + r.index;
  }
  return -1;
}

// Register -> pending slot, as the decoder walks one warp's instructions in order. Waiting on a slot
// clears every register it covered (their producers are all done when the slot is): a register's
// mapping holds the slot's generation, and a wait starts a new one.
class RegisterScoreboard {
 public:
  RegisterScoreboard() { slot_of_.fill(-1); }
  std::uint32_t pending_slots(const TraceInstr& in) const {
    std::uint32_t mask = 0;
    for (const auto* regs : {&in.srcs, &in.dests})
      for (const TraceRegister& r : *regs)
        if (int id = register_id(r); id >= 0 && pending(id)) mask |= 1u << slot_of_[id];
    return mask;
  }
  void waited(std::uint32_t slots) {
    for (std::uint32_t m = slots; m; m &= m - 1) ++generation_[std::countr_zero(m)];
  }
  void produce(const TraceInstr& in, int slot) {
    for (const TraceRegister& r : in.dests)
      if (int id = register_id(r); id >= 0) {
        slot_of_[id] = static_cast<std::int8_t>(slot);
        generation_of_[id] = generation_[slot];
      }
  }
  int next_long() { return long_next_ = (long_next_ + 1) % kLongSlots; }
  int next_fixed() { return kFixedFirst + (fixed_next_ = (fixed_next_ + 1) % kFixedSlots); }

 private:
  bool pending(int id) const { return slot_of_[id] >= 0 && generation_of_[id] == generation_[slot_of_[id]]; }
  std::array<std::int8_t, kRegisterIds> slot_of_{};
  std::array<std::uint32_t, kRegisterIds> generation_of_{};
  std::array<std::uint32_t, kMaxSlots> generation_{};
  int long_next_ = -1, fixed_next_ = -1;
};

// ldmatrix's matrix count: the last modifier of "LDSM.16.M88.4" (1, 2 or 4).
std::uint32_t ldsm_matrices(std::string_view opcode) {
  auto dot = opcode.rfind('.');
  if (dot != std::string_view::npos) {
    std::string_view last = opcode.substr(dot + 1);
    if (last == "1" || last == "2" || last == "4") return static_cast<std::uint32_t>(last[0] - '0');
  }
  return 4;
}

bool moves_memory(OpKind k) {
  switch (k) {
    case OpKind::kGlobalLoad: case OpKind::kGlobalStore: case OpKind::kGlobalAtomic: case OpKind::kGlobalReduce:
    case OpKind::kLocalLoad: case OpKind::kLocalStore: case OpKind::kGenericLoad: case OpKind::kGenericStore:
    case OpKind::kSharedLoad: case OpKind::kSharedStore: case OpKind::kSharedAtomic: case OpKind::kLdmatrix:
    case OpKind::kAsyncCopy:
      return true;
    default:
      return false;
  }
}

constexpr Addr kWindow = Addr{1} << 24;  // shared and local windows of the generic address space
bool in_window(Addr a, Addr base) { return a >= base && a - base < kWindow; }

// The code a warp's widest backward jump spans (its main loop), first and last instruction's addresses.
struct LoopSpan {
  std::uint64_t first = 1, last = 0;  // empty
  std::uint64_t instructions() const { return last >= first ? (last - first) / kSassInstructionBytes + 1 : 0; }
  bool holds(std::uint64_t pc) const { return pc >= first && pc <= last; }
};
LoopSpan widest_loop(const std::vector<TraceInstr>& instrs) {
  LoopSpan span;
  std::uint64_t widest = 0;
  for (std::size_t k = 0; k + 1 < instrs.size(); ++k)
    if (instrs[k + 1].pc < instrs[k].pc && instrs[k].pc - instrs[k + 1].pc >= widest) {
      widest = instrs[k].pc - instrs[k + 1].pc;
      span = LoopSpan{instrs[k + 1].pc, instrs[k].pc};
    }
  return span;
}

// A generic LD/ST goes where its first address points: the shared window, the local one, or global.
OpKind resolve_generic(OpKind k, Addr first, const TraceKernelHeader& h) {
  const bool load = k == OpKind::kGenericLoad;
  if (in_window(first, h.shmem_base)) return load ? OpKind::kSharedLoad : OpKind::kSharedStore;
  if (in_window(first, h.local_base)) return load ? OpKind::kLocalLoad : OpKind::kLocalStore;
  return load ? OpKind::kGlobalLoad : OpKind::kGlobalStore;
}

// fn(lane, address) for each recorded address: the trace lists them for the active lanes, in order.
template <class Fn>
void for_each_active_lane(const TraceInstr& in, Fn&& fn) {
  int lane = 0;
  for (Addr a : in.addresses) {
    while (lane < 32 && !((in.mask >> lane) & 1u)) ++lane;
    if (lane >= 32) return;
    fn(lane++, a);
  }
}
constexpr Addr kLocalSpace = Addr{0x5000} << 32;  // where the model places local memory

}  // namespace

Addr local_memory_address(std::int64_t global_warp, int lane, Addr offset, std::uint32_t width) {
  const Addr w = std::max<std::uint32_t>(width, 4);
  return kLocalSpace + static_cast<Addr>(global_warp) * (kWindow * 32) + (offset / w) * (32 * w) + static_cast<Addr>(lane) * w +
         offset % w;
}

TraceKernel::TraceKernel(std::unique_ptr<CtaSource> reader, const IsaTable& isa, const GpuConfig& gpu,
                         std::int64_t cta_limit, int read_ahead)
    : isa_(isa), gpu_(gpu), header_(reader->header()), reader_(std::move(reader)) {
  const std::int64_t grid = header_.grid.count();
  shape_.grid_ctas = grid;
  shape_.ctas = cta_limit > 0 ? std::min(cta_limit, grid) : grid;
  shape_.warps_per_cta = static_cast<int>((header_.block.count() + gpu.sm.warp_size - 1) / gpu.sm.warp_size);
  shape_.registers_per_thread = std::max(header_.nregs, 1);
  shape_.shared_mem_per_cta = header_.shmem;
  shape_.tiles_m = header_.grid.y * header_.grid.z;
  shape_.tiles_n = header_.grid.x;
  shape_.simt_math = true;
  if (shape_.registers_per_thread > gpu.sm.max_registers_per_thread)
    throw ConfigError(reader_->name() + ": the kernel uses " + std::to_string(header_.nregs) + " registers per thread; the GPU allows " +
                      std::to_string(gpu.sm.max_registers_per_thread));
  const double tensor = tensor_flops_per_cycle(gpu.sm, "fp16");
  mma_flops_per_cycle_ = gpu.sm.mma_sync_fp16_flops_per_cycle > 0 ? gpu.sm.mma_sync_fp16_flops_per_cycle : tensor;
  wgmma_flops_per_cycle_ = tensor * (gpu.sm.wgmma_fraction > 0 ? gpu.sm.wgmma_fraction : 1.0);
  if (read_ahead > 0)  // everything read_block uses is in place
    read_ahead_ = std::make_unique<CtaReadAhead>([this](std::int64_t i) { return read_block(i); }, shape_.ctas, read_ahead,
                                                 kReadAheadBytes);
}

TraceKernel::~TraceKernel() = default;

std::unique_ptr<CtaProgram> TraceKernel::read_block(std::int64_t launch_index) const {
  TraceCta cta;
  if (!reader_->next_cta(cta))
    throw ConfigError(reader_->name() + ": the trace ends after " + std::to_string(launch_index) +
                      " thread blocks; the grid has " + std::to_string(shape_.grid_ctas) +
                      " (a truncated trace? replay fewer with cta_limit)");
  return decode(cta, launch_index);
}

CtaProgram& TraceKernel::resident(std::int64_t launch_index) const {
  return ctas_.get(launch_index, [&] { return read_ahead_ ? read_ahead_->take(launch_index) : read_block(launch_index); });
}

TileCoord TraceKernel::tile_of(std::int64_t launch_index) const { return resident(launch_index).tile; }

void TraceKernel::start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const {
  ResidentCtas::start_warp(c, launch_index, warp);
  resident(launch_index);
}

void TraceKernel::next(WarpCursor& c, Instr& out) const { ctas_.next(c, out); }

std::unique_ptr<CtaProgram> TraceKernel::decode(const TraceCta& cta, std::int64_t launch_index) const {
  auto p = std::make_unique<CtaProgram>();
  p->tile = TileCoord{cta.y + static_cast<std::int64_t>(cta.z) * header_.grid.y, cta.x};
  p->warps.resize(static_cast<std::size_t>(shape_.warps_per_cta));
  p->live_warps = shape_.warps_per_cta;
  // Lane lists are appended as the warps decode; the instructions get their pointers at the end,
  // when the vector no longer moves.
  struct Fixup {
    int warp;
    std::size_t instr, offset;
  };
  std::vector<Fixup> fixups;

  const int subparts = std::max(gpu_.sm.subpartitions, 1);
  for (const TraceWarp& w : cta.warps) {
    std::vector<Instr>& out = p->warps[static_cast<std::size_t>(w.warp)];
    const std::int64_t global_warp = launch_index * shape_.warps_per_cta + w.warp;
    RegisterScoreboard sb;
    std::deque<int> groups;  // cp.async commit groups in flight (slots), oldest first
    int open_group = kGroupFirst, group_ring = 0;
    auto fail = [&](const TraceInstr& in, const std::string& why) {
      throw ConfigError(reader_->name() + ":" + std::to_string(in.line) + ": " + why);
    };
    auto wait_for = [&](std::uint32_t slots) {
      for (std::uint32_t m = slots; m; m &= m - 1) {
        Instr wi;
        wi.op = Op::kWait;
        wi.slot = static_cast<std::uint8_t>(std::countr_zero(m));
        out.push_back(wi);
      }
      sb.waited(slots);
    };
    // Past the instruction cache (sm.instruction_cache_instructions) the warp's instructions inside its largest loop -
    // the widest backward jump its stream takes - arrive at sm.fetch_instructions_per_cycle; 0 where the loop fits.
    const LoopSpan loop = gpu_.sm.fetch_instructions_per_cycle > 0 ? widest_loop(w.instrs) : LoopSpan{};
    const auto fetch_ticks = static_cast<std::uint32_t>(
        std::lround(fetch_cycles_per_instruction(gpu_.sm, static_cast<double>(loop.instructions())) * kTicksPerCycle));
    for (std::size_t k = 0; k < w.instrs.size(); ++k) {
      const TraceInstr& in = w.instrs[k];
      const OpClass* cls = isa_.find(in.opcode);
      if (!cls)
        fail(in, "opcode '" + in.opcode + "' is not in the " + isa_.arch() + " ISA table (add it to configs/isa/" +
                     isa_.arch() + ".yaml with its class)");
      wait_for(sb.pending_slots(in));
      Instr x;
      const std::uint32_t active = static_cast<std::uint32_t>(std::popcount(in.mask));
      OpKind kind = cls->kind;
      const bool has_memory = in.mem_width > 0 && !in.addresses.empty();
      if ((kind == OpKind::kGenericLoad || kind == OpKind::kGenericStore) && has_memory)
        kind = resolve_generic(kind, in.addresses[0], header_);
      auto lanes_of = [&](bool local) {
        const std::uint32_t n = static_cast<std::uint32_t>(in.addresses.size());
        if (!local) {  // equally spaced lanes need no list
          const std::int64_t stride = n > 1 ? static_cast<std::int64_t>(in.addresses[1] - in.addresses[0]) : 0;
          bool even = true;
          for (std::uint32_t i = 2; i < n && even; ++i)
            even = in.addresses[i] - in.addresses[i - 1] == static_cast<Addr>(stride);
          if (even) {
            LaneAccess l;
            l.count = n, l.bytes = in.mem_width, l.base = in.addresses[0], l.stride = stride;
            return l;
          }
        }
        fixups.push_back({w.warp, out.size(), p->addresses.size()});  // out.size(): where x will be pushed
        for_each_active_lane(in, [&](int lane, Addr a) {
          if (local) {
            const Addr off = in_window(a, header_.local_base) ? a - header_.local_base : a % kWindow;
            a = local_memory_address(global_warp, lane, off, in.mem_width);
          }
          p->addresses.push_back(a);
        });
        LaneAccess l;
        l.count = n, l.bytes = in.mem_width;
        return l;  // addr set by the fixup
      };
      auto shared_access = [&](AccessOp op) {
        AccessPattern pat;
        pat.space = MemSpace::kShared;
        pat.op = op;
        pat.threads = 32;
        pat.width_bytes = op == AccessOp::kLdmatrix ? 16 : std::clamp<std::uint32_t>(std::bit_ceil(std::max(in.mem_width, 4u)), 4, 16);
        pat.ldsm_matrices = ldsm_matrices(in.opcode);
        pat.byte_offsets.assign(1, std::vector<std::int64_t>(32, kInactiveLane));
        for_each_active_lane(in, [&](int lane, Addr a) {
          const Addr off = a >= header_.shmem_base ? a - header_.shmem_base : a;
          pat.byte_offsets[0][static_cast<std::size_t>(lane)] = static_cast<std::int64_t>(off & ~Addr{pat.width_bytes - 1});
        });
        return analyse_instruction(pat, 0, 0);
      };
      // No active lane, or a memory instruction whose lanes were all predicated off: it issues, nothing moves.
      const bool predicated_off = active == 0 || (moves_memory(kind) && !has_memory);
      if (predicated_off && kind != OpKind::kExit && kind != OpKind::kBarrier) kind = OpKind::kControl;
      switch (kind) {
        case OpKind::kAlu:
        case OpKind::kControl: {
          x.op = Op::kCompute;
          x.pipe = cls->pipe;
          x.pipe_cycles = static_cast<std::uint16_t>(std::max<std::uint32_t>(cls->interval, 1));
          x.latency = static_cast<std::uint16_t>(std::max<std::uint32_t>(cls->latency, 1));
          x.flops = cls->kind == OpKind::kAlu && !predicated_off ? cls->flops_per_lane * active : 0;
          // A branch its warp took (the next instruction is not the one after it) holds the warp while the
          // target is fetched (the class's `taken`); one that fell through costs its issue cycle.
          if (cls->kind == OpKind::kControl && cls->taken > 0 && k + 1 < w.instrs.size() &&
              w.instrs[k + 1].pc != in.pc + kSassInstructionBytes)
            x.hold_ticks = static_cast<std::uint32_t>(cycles_to_ticks(cls->taken));
          if (!in.dests.empty()) {
            x.writes_slot = true;
            x.slot = static_cast<std::uint8_t>(sb.next_fixed());
            sb.produce(in, x.slot);
          }
          break;
        }
        case OpKind::kTensor: {
          const double flops = cls->flops_per_instruction > 0 ? cls->flops_per_instruction : tensor_flops_from_opcode(in.opcode);
          if (flops <= 0) fail(in, "tensor opcode '" + in.opcode + "' has no shape modifier (e.g. .16816) and its class no flops_per_instruction");
          const double rate = (in.base_opcode() == "HGMMA" ? wgmma_flops_per_cycle_ : mma_flops_per_cycle_) / subparts;
          x.op = Op::kCompute;
          x.pipe = Pipe::kTensor;
          x.async_mma = in.base_opcode() == "HGMMA";  // a warpgroup MMA does not hold the dispatch
          x.flops = flops;
          x.pipe_cycles = static_cast<std::uint16_t>(std::clamp(std::ceil(flops / rate), 1.0, 65535.0));
          x.latency = static_cast<std::uint16_t>(std::max<std::uint32_t>(cls->latency, x.pipe_cycles));
          if (!in.dests.empty()) {
            x.writes_slot = true;
            x.slot = static_cast<std::uint8_t>(sb.next_fixed());
            sb.produce(in, x.slot);
          }
          break;
        }
        case OpKind::kGlobalLoad:
        case OpKind::kLocalLoad:
          x.op = Op::kLoad;
          x.lanes = lanes_of(kind == OpKind::kLocalLoad);
          x.local = kind == OpKind::kLocalLoad;
          x.bypass_l1 = cls->bypass_l1;
          x.slot = static_cast<std::uint8_t>(sb.next_long());
          sb.produce(in, x.slot);
          break;
        case OpKind::kGlobalStore:
        case OpKind::kLocalStore:
          x.op = Op::kStore;
          x.lanes = lanes_of(kind == OpKind::kLocalStore);
          x.local = kind == OpKind::kLocalStore;
          break;
        case OpKind::kGlobalAtomic:
        case OpKind::kGlobalReduce:
          x.op = Op::kReduce;
          x.lanes = lanes_of(false);
          if (kind == OpKind::kGlobalAtomic && !in.dests.empty()) {
            x.returns = true;
            x.slot = static_cast<std::uint8_t>(sb.next_long());
            sb.produce(in, x.slot);
          }
          break;
        case OpKind::kSharedLoad:
        case OpKind::kLdmatrix:
        case OpKind::kSharedAtomic: {
          InstructionAccess a = shared_access(kind == OpKind::kLdmatrix ? AccessOp::kLdmatrix : AccessOp::kLoad);
          x.op = Op::kSharedLoad;
          x.ldmatrix = kind == OpKind::kLdmatrix;
          x.lane_bytes = static_cast<std::uint8_t>(x.ldmatrix ? 16 : std::min<std::uint32_t>(in.mem_width, 16));
          // An atomic reads and writes its words: the data path twice.
          const std::uint32_t times = kind == OpKind::kSharedAtomic ? 2 : 1;
          x.wavefronts = std::max(a.wavefronts, 1u) * times;
          x.conflicts = a.bank_conflicts() * times;
          x.slot = static_cast<std::uint8_t>(sb.next_long());
          sb.produce(in, x.slot);
          break;
        }
        case OpKind::kSpecialRead:  // an MIO entry, no pass of the data path; the data after the class's latency
          x.op = Op::kSharedLoad;
          x.special_read = true;
          x.latency = static_cast<std::uint16_t>(std::max<std::uint32_t>(cls->latency, 1));
          x.slot = static_cast<std::uint8_t>(sb.next_long());
          sb.produce(in, x.slot);
          break;
        case OpKind::kSharedStore: {
          InstructionAccess a = shared_access(AccessOp::kStore);
          x.op = Op::kSharedStore;
          x.wavefronts = std::max(a.wavefronts, 1u);
          x.conflicts = a.bank_conflicts();
          break;
        }
        case OpKind::kAsyncCopy:
          x.op = Op::kLoad;
          x.async_copy = true;
          x.lanes = lanes_of(false);
          x.bypass_l1 = in.has_modifier("BYPASS");
          x.wavefronts = static_cast<std::uint32_t>((static_cast<std::uint64_t>(in.mem_width) * in.addresses.size() + 127) / 128);
          x.slot = static_cast<std::uint8_t>(open_group);
          break;
        case OpKind::kAsyncWait: {
          // DEPBAR.LE SB0, N: go on once at most N commit groups are still in flight.
          const std::size_t allowed = static_cast<std::size_t>(std::max<std::int64_t>(in.immediate, 0));
          std::uint32_t slots = 0;
          while (groups.size() > allowed) {
            slots |= 1u << groups.front();
            groups.pop_front();
          }
          wait_for(slots);
          x.op = Op::kCompute;
          x.pipe = Pipe::kBranch;
          x.pipe_cycles = 1;
          break;
        }
        case OpKind::kBarrier:
          if (in.has_modifier("ARV")) {  // arrive only: nothing waits here
            x.op = Op::kCompute;
            x.pipe = Pipe::kBranch;
            x.pipe_cycles = 1;
          } else {
            x.op = Op::kBarrier;
          }
          break;
        case OpKind::kExit:
          if (k + 1 == w.instrs.size()) {
            x.op = Op::kExit;
          } else {  // lanes leave; the warp goes on with the others
            x.op = Op::kCompute;
            x.pipe = Pipe::kBranch;
            x.pipe_cycles = 1;
          }
          break;
        case OpKind::kGenericLoad:
        case OpKind::kGenericStore:
          SIM_ASSERT(false, "generic access left unresolved at " << reader_->name() << ":" << in.line);
      }
      // LDGDEPBAR (a control-class opcode) closes the open commit group.
      if (in.base_opcode() == "LDGDEPBAR") {
        groups.push_back(open_group);
        group_ring = (group_ring + 1) % kGroupSlots;
        open_group = kGroupFirst + group_ring;
      }
      if (fetch_ticks > 0 && x.op != Op::kWait && loop.holds(in.pc)) x.fetch_ticks = fetch_ticks;
      out.push_back(x);
    }
    if (out.empty() || out.back().op != Op::kExit) out.push_back(Instr{});  // Instr{} is an exit
  }
  for (const Fixup& f : fixups) p->warps[static_cast<std::size_t>(f.warp)][f.instr].lanes.addr = p->addresses.data() + f.offset;
  // Warps the trace does not list (no thread of them ran) exit at once.
  for (auto& stream : p->warps)
    if (stream.empty()) stream.push_back(Instr{});
  return p;
}

}  // namespace gms

#include "workload/recorded_kernel.h"

#include <algorithm>
#include <unordered_set>

#include "common/error.h"

namespace gms {

namespace {

enum Flag : std::uint16_t {
  kBypassL1 = 1, kAsyncCopy = 2, kLdmatrix = 4, kAsyncMma = 8, kWritesSlot = 16, kReturns = 32, kLocal = 64,
  kHasLanes = 128, kLaneList = 256, kHasFlops = 512, kMioBurst = 1024, kShuffle = 2048, kWarpStart = 4096,
  kSpecialRead = 8192,
};

void encode_instr(ByteWriter& w, const Instr& in) {
  std::uint16_t f = (in.bypass_l1 ? kBypassL1 : 0) | (in.async_copy ? kAsyncCopy : 0) | (in.ldmatrix ? kLdmatrix : 0) |
                    (in.async_mma ? kAsyncMma : 0) | (in.writes_slot ? kWritesSlot : 0) | (in.returns ? kReturns : 0) |
                    (in.local ? kLocal : 0) | (in.lanes.present() ? kHasLanes : 0) | (in.lanes.addr ? kLaneList : 0) |
                    (in.flops != 0 ? kHasFlops : 0) | (in.mio_burst ? kMioBurst : 0) | (in.shuffle ? kShuffle : 0) |
                    (in.warp_start ? kWarpStart : 0) | (in.special_read ? kSpecialRead : 0);
  w.u8(static_cast<std::uint8_t>(in.op));
  w.varint(f);
  w.u8(in.slot);
  w.u8(static_cast<std::uint8_t>(in.pipe));
  w.u8(static_cast<std::uint8_t>(in.hint));
  w.varint(in.issue_cycles);
  if (f & kHasFlops) w.f64(in.flops);
  w.varint(in.wavefronts);
  w.varint(in.conflicts);
  w.varint(in.pipe_cycles);
  w.varint(in.latency);
  w.varint(in.region.base);
  w.varint(in.region.rows);
  w.varint(in.region.row_bytes);
  w.varint(in.region.stride);
  if (f & kHasLanes) {
    w.varint(in.lanes.count);
    w.varint(in.lanes.bytes);
    if (f & kLaneList) {
      Addr prev = 0;
      for (std::uint32_t i = 0; i < in.lanes.count; ++i) {
        w.zigzag(static_cast<std::int64_t>(in.lanes.addr[i] - prev));
        prev = in.lanes.addr[i];
      }
    } else {
      w.varint(in.lanes.base);
      w.zigzag(in.lanes.stride);
    }
  }
}

// Lane lists are appended to `addresses`; the offset of this instruction's list is returned (or -1).
std::int64_t decode_instr(ByteReader& r, Instr& in, std::vector<Addr>& addresses) {
  in = Instr{};
  in.op = static_cast<Op>(r.bounded(0, static_cast<std::uint64_t>(Op::kExit), "operation") & 0xff);  // one byte
  const std::uint64_t f = r.bounded(0, 8191, "flags");
  in.slot = static_cast<std::uint8_t>(r.bounded(0, kMaxSlots - 1, "scoreboard slot"));
  in.pipe = static_cast<Pipe>(r.bounded(0, kPipeCount - 1, "pipe"));
  in.hint = static_cast<EvictHint>(r.bounded(0, 2, "eviction hint"));
  in.issue_cycles = static_cast<std::uint32_t>(r.bounded(0, 1u << 20, "issue cycles"));
  if (f & kHasFlops) {
    in.flops = r.f64();
    if (!(in.flops >= 0 && in.flops < 1e12)) r.fail("FLOP count out of range");
  }
  in.bypass_l1 = f & kBypassL1;
  in.async_copy = f & kAsyncCopy;
  in.ldmatrix = f & kLdmatrix;
  in.async_mma = f & kAsyncMma;
  in.writes_slot = f & kWritesSlot;
  in.returns = f & kReturns;
  in.local = f & kLocal;
  in.mio_burst = f & kMioBurst;
  in.shuffle = f & kShuffle;
  in.warp_start = f & kWarpStart;
  in.special_read = f & kSpecialRead;
  in.wavefronts = static_cast<std::uint32_t>(r.bounded(0, 1u << 24, "wavefronts"));
  in.conflicts = static_cast<std::uint32_t>(r.bounded(0, 1u << 24, "conflicts"));
  in.pipe_cycles = static_cast<std::uint16_t>(r.bounded(0, 0xffff, "pipe cycles"));
  in.latency = static_cast<std::uint16_t>(r.bounded(0, 0xffff, "latency"));
  in.region.base = r.varint();
  in.region.rows = static_cast<std::uint32_t>(r.bounded(0, 1u << 24, "region rows"));
  in.region.row_bytes = static_cast<std::uint32_t>(r.bounded(0, 1u << 24, "region row bytes"));
  in.region.stride = r.varint();
  if (static_cast<std::uint64_t>(in.region.rows) * in.region.row_bytes > (1u << 26))
    r.fail("a region of more than 64 MiB in one instruction");
  std::int64_t list = -1;
  if (f & kHasLanes) {
    in.lanes.count = static_cast<std::uint32_t>(r.bounded(0, 64, "lane count"));
    in.lanes.bytes = static_cast<std::uint32_t>(r.bounded(0, 1024, "bytes per lane"));
    if (f & kLaneList) {
      list = static_cast<std::int64_t>(addresses.size());
      Addr a = 0;
      for (std::uint32_t i = 0; i < in.lanes.count; ++i) addresses.push_back(a += static_cast<Addr>(r.zigzag()));
    } else {
      in.lanes.base = r.varint();
      in.lanes.stride = r.zigzag();
    }
    if (!in.lanes.present()) r.fail("a lane access without lanes");
  }
  return list;
}

}  // namespace

std::string encode_engine_header(const EngineKernelHeader& h) {
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(GmsKernelEncoding::kEngine));
  w.str(h.name);
  const LaunchShape& s = h.shape;
  w.varint(static_cast<std::uint64_t>(s.ctas));
  w.varint(static_cast<std::uint64_t>(s.grid_ctas));
  w.varint(static_cast<std::uint64_t>(s.warps_per_cta));
  w.varint(static_cast<std::uint64_t>(s.registers_per_thread));
  w.varint(static_cast<std::uint64_t>(s.shared_mem_per_cta));
  w.varint(static_cast<std::uint64_t>(s.tiles_m));
  w.varint(static_cast<std::uint64_t>(s.tiles_n));
  w.str(s.math_dtype);
  w.u8(s.simt_math ? 1 : 0);
  w.f64(s.tensor_rate);
  w.str(s.mma_class);
  w.f64(h.compulsory_bytes);
  w.f64(h.flops);
  w.u8(h.tensor_clock ? 1 : 0);
  return w.bytes();
}

EngineKernelHeader decode_engine_header(ByteReader& r) {
  EngineKernelHeader h;
  h.name = r.str();
  LaunchShape& s = h.shape;
  s.ctas = static_cast<std::int64_t>(r.bounded(1, 1ull << 40, "CTAs"));
  s.grid_ctas = static_cast<std::int64_t>(r.bounded(static_cast<std::uint64_t>(s.ctas), 1ull << 40, "grid CTAs"));
  s.warps_per_cta = static_cast<int>(r.bounded(1, 64, "warps per CTA"));
  s.registers_per_thread = static_cast<int>(r.bounded(1, 1024, "registers per thread"));
  s.shared_mem_per_cta = static_cast<std::int64_t>(r.bounded(0, 1u << 24, "shared memory per CTA"));
  s.tiles_m = static_cast<std::int64_t>(r.bounded(0, 1ull << 40, "tile rows"));
  s.tiles_n = static_cast<std::int64_t>(r.bounded(0, 1ull << 40, "tile columns"));
  s.math_dtype = r.str();
  s.simt_math = r.u8() != 0;
  s.tensor_rate = r.f64();
  s.mma_class = r.str();
  h.compulsory_bytes = r.f64();
  h.flops = r.f64();
  h.tensor_clock = r.u8() != 0;
  if (!(s.tensor_rate >= 0 && h.compulsory_bytes >= 0 && h.flops >= 0)) r.fail("negative rate, bytes or FLOP");
  if (!r.at_end()) r.fail("bytes left over after the kernel header");
  return h;
}

ExportStats export_kernel(const Kernel& kernel, bool tensor_clock, GmsTraceWriter& out) {
  EngineKernelHeader h;
  h.name = kernel.name();
  h.shape = kernel.shape();
  h.compulsory_bytes = kernel.compulsory_bytes();
  h.flops = kernel.flops();
  h.tensor_clock = tensor_clock;
  out.begin_kernel(encode_engine_header(h));
  ExportStats st;
  ByteWriter w;
  for (std::int64_t cta = 0; cta < h.shape.ctas; ++cta) {
    w.clear();
    const TileCoord t = kernel.tile_of(cta);
    w.zigzag(t.m);
    w.zigzag(t.n);
    for (int warp = 0; warp < h.shape.warps_per_cta; ++warp) {
      WarpCursor c;
      kernel.start_warp(c, cta, warp);
      ByteWriter body;
      std::uint64_t n = 0;
      Instr in;
      do {
        kernel.next(c, in);
        encode_instr(body, in);
        ++n;
      } while (in.op != Op::kExit);
      w.varint(n);
      st.warp_instructions += static_cast<std::int64_t>(n);
      w.raw(body.bytes());  // the count goes first, known only at the exit
    }
    out.cta(w.bytes());
    ++st.ctas;
  }
  out.end_kernel();
  return st;
}

RecordedKernel::RecordedKernel(const std::string& path, const GmsCommand& kernel, std::int64_t cta_limit)
    : reader_(path, kernel.ctas_offset) {
  SIM_ASSERT(kernel.encoding == GmsKernelEncoding::kEngine, "not an engine-level kernel");
  ByteReader r(kernel.header_payload, path + ": kernel header");
  r.u8();
  header_ = decode_engine_header(r);
  if (kernel.ctas != header_.shape.ctas)
    throw ConfigError(path + ": the kernel header says " + std::to_string(header_.shape.ctas) + " CTAs; the file holds " +
                      std::to_string(kernel.ctas));
  shape_ = header_.shape;
  if (cta_limit > 0) shape_.ctas = std::min(cta_limit, shape_.ctas);
}

RecordedKernel::~RecordedKernel() = default;

CtaProgram& RecordedKernel::resident(std::int64_t launch_index) const {
  return ctas_.get(launch_index, [&] { return read_cta(); });
}

std::unique_ptr<CtaProgram> RecordedKernel::read_cta() const {
  GmsBlock b;
  if (!reader_.next(b) || b.type != 'C')
    throw ConfigError(reader_.name() + ": CTA " + std::to_string(ctas_.read()) + " is missing");
  ByteReader r(b.payload, reader_.where(b));
  auto p = std::make_unique<CtaProgram>();
  p->tile.m = r.zigzag();
  p->tile.n = r.zigzag();
  p->warps.resize(static_cast<std::size_t>(shape_.warps_per_cta));
  std::vector<std::pair<Instr*, std::int64_t>> fixups;
  for (auto& stream : p->warps) {
    stream.resize(r.count(16));
    if (stream.empty()) r.fail("a warp without instructions");
    for (Instr& in : stream) {
      const std::int64_t list = decode_instr(r, in, p->addresses);
      if (list >= 0) fixups.emplace_back(&in, list);
    }
    if (stream.back().op != Op::kExit) r.fail("a warp that does not end with an exit");
  }
  if (!r.at_end()) r.fail("bytes left over after the CTA");
  for (auto& [in, offset] : fixups) in->lanes.addr = p->addresses.data() + offset;  // the vector no longer moves
  p->live_warps = shape_.warps_per_cta;
  return p;
}

TileCoord RecordedKernel::tile_of(std::int64_t launch_index) const { return resident(launch_index).tile; }

void RecordedKernel::start_warp(WarpCursor& c, std::int64_t launch_index, int warp) const {
  ResidentCtas::start_warp(c, launch_index, warp);
  resident(launch_index);
}

void RecordedKernel::next(WarpCursor& c, Instr& out) const { ctas_.next(c, out); }

namespace {
const char* op_name(Op op) {
  switch (op) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kReduce: return "reduce";
    case Op::kCompute: return "compute";
    case Op::kSharedLoad: return "shared_load";
    case Op::kSharedStore: return "shared_store";
    case Op::kWait: return "wait";
    case Op::kBarrier: return "barrier";
    case Op::kExit: return "exit";
  }
  return "?";
}
}  // namespace

TraceKernelSummary summarize_engine_kernel(const std::string& path, const GmsCommand& kernel, bool* sectors_capped) {
  RecordedKernel k(path, kernel);
  TraceKernelSummary s;
  s.file = path;
  s.header.name = k.name();
  s.header.id = 0;
  s.header.grid.x = k.shape().grid_ctas;
  s.header.block.x = static_cast<std::int64_t>(k.shape().warps_per_cta) * 32;
  s.header.nregs = k.shape().registers_per_thread;
  s.header.shmem = k.shape().shared_mem_per_cta;
  std::unordered_set<std::uint64_t> sectors;
  constexpr std::size_t kCap = std::size_t{1} << 26;
  *sectors_capped = false;
  auto touch = [&](Addr a, std::uint64_t bytes) {
    s.global_bytes_requested += static_cast<std::int64_t>(bytes);
    for (std::uint64_t x = a / 32; x <= (a + bytes - 1) / 32; ++x) {
      if (sectors.size() >= kCap) {
        *sectors_capped = true;
        return;
      }
      sectors.insert(x);
    }
  };
  for (std::int64_t cta = 0; cta < k.shape().ctas; ++cta) {
    ++s.ctas;
    s.warps += k.shape().warps_per_cta;
    for (int w = 0; w < k.shape().warps_per_cta; ++w) {
      WarpCursor c;
      k.start_warp(c, cta, w);
      Instr in;
      do {
        k.next(c, in);
        const std::int64_t n = in.op == Op::kCompute || in.op == Op::kLoad || in.op == Op::kStore || in.op == Op::kReduce ||
                                       in.op == Op::kSharedLoad || in.op == Op::kSharedStore
                                   ? in.issue_cycles
                                   : 1;
        s.warp_instructions += n;
        s.opcode_mix[op_name(in.op)] += n;
        if (in.op != Op::kLoad && in.op != Op::kStore && in.op != Op::kReduce) continue;
        if (in.lanes.present()) {
          for (std::uint32_t i = 0; i < in.lanes.count; ++i)
            touch(in.lanes.addr ? in.lanes.addr[i] : in.lanes.base + static_cast<Addr>(static_cast<std::int64_t>(i) * in.lanes.stride),
                  in.lanes.bytes);
        } else {
          for (std::uint32_t row = 0; row < in.region.rows; ++row)
            if (in.region.row_bytes) touch(in.region.base + row * in.region.stride, in.region.row_bytes);
        }
      } while (in.op != Op::kExit);
    }
  }
  s.global_sectors_touched = static_cast<std::int64_t>(sectors.size());
  return s;
}

}  // namespace gms

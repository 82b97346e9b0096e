// SASS kernels in a .gmstrace: Accel-Sim's header and thread blocks, losslessly, and the converter
// from Accel-Sim text.
#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "common/error.h"
#include "trace/gms_trace.h"

namespace gms {

std::string encode_sass_header(const TraceKernelHeader& h) {
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(GmsKernelEncoding::kSass));
  w.str(h.name);
  w.zigzag(h.id);
  for (const Dim3* d : {&h.grid, &h.block}) {
    w.zigzag(d->x);
    w.zigzag(d->y);
    w.zigzag(d->z);
  }
  w.zigzag(h.shmem);
  w.zigzag(h.nregs);
  w.zigzag(h.binary_version);
  w.zigzag(h.cuda_stream);
  w.varint(h.shmem_base);
  w.varint(h.local_base);
  w.str(h.nvbit_version);
  w.zigzag(h.tracer_version);
  w.u8(h.lineinfo ? 1 : 0);
  return w.bytes();
}

TraceKernelHeader decode_sass_header(ByteReader& r) {
  TraceKernelHeader h;
  h.name = r.str();
  h.id = static_cast<int>(r.zigzag());
  for (Dim3* d : {&h.grid, &h.block}) {
    d->x = r.zigzag();
    d->y = r.zigzag();
    d->z = r.zigzag();
    if (d->x < 1 || d->y < 1 || d->z < 1 || d->x > (1 << 30) || d->y > 65535 || d->z > 65535)
      r.fail("a launch dimension outside CUDA's limits");
  }
  h.shmem = r.zigzag();
  h.nregs = static_cast<int>(r.zigzag());
  h.binary_version = static_cast<int>(r.zigzag());
  h.cuda_stream = static_cast<int>(r.zigzag());
  h.shmem_base = r.varint();
  h.local_base = r.varint();
  h.nvbit_version = r.str();
  h.tracer_version = static_cast<int>(r.zigzag());
  h.lineinfo = r.u8() != 0;
  if (h.shmem < 0 || h.nregs < 0) r.fail("negative shared memory or registers");
  return h;
}

namespace {

void put_regs(ByteWriter& w, const std::vector<TraceRegister>& regs) {
  w.varint(regs.size());
  for (const TraceRegister& reg : regs) {
    w.u8(static_cast<std::uint8_t>(reg.kind));
    w.varint(reg.index);
  }
}

void get_regs(ByteReader& r, std::vector<TraceRegister>& regs) {
  regs.resize(r.count(2));
  for (TraceRegister& reg : regs) {
    reg.kind = static_cast<TraceRegister::Kind>(r.bounded(0, 3, "register kind") & 0xff);
    reg.index = static_cast<std::uint16_t>(r.bounded(0, 0xffff, "register index"));
  }
}

// Address lists: 1 = base and one stride (most accesses), 2 = base and a delta per further lane.
enum : std::uint8_t { kStrided = 1, kDeltas = 2 };

}  // namespace

std::string encode_sass_cta(const TraceCta& cta) {
  ByteWriter w;
  w.zigzag(cta.x);
  w.zigzag(cta.y);
  w.zigzag(cta.z);
  w.varint(cta.warps.size());
  std::unordered_map<std::string, std::uint64_t> opcodes;  // per CTA: first use spells it out
  for (const TraceWarp& warp : cta.warps) {
    w.zigzag(warp.warp);
    w.varint(warp.instrs.size());
    std::uint64_t pc = 0;
    for (const TraceInstr& in : warp.instrs) {
      w.zigzag(static_cast<std::int64_t>(in.pc - pc));
      pc = in.pc;
      w.varint(in.mask);
      put_regs(w, in.dests);
      put_regs(w, in.srcs);
      auto [it, fresh] = opcodes.emplace(in.opcode, opcodes.size());
      w.varint(it->second);
      if (fresh) w.str(in.opcode);
      w.varint(in.mem_width);
      w.varint(in.addresses.size());
      if (!in.addresses.empty()) {
        const auto& a = in.addresses;
        bool strided = true;
        for (std::size_t i = 2; i < a.size() && strided; ++i) strided = a[i] - a[i - 1] == a[1] - a[0];
        w.u8(strided ? kStrided : kDeltas);
        w.varint(a[0]);
        if (strided) {
          if (a.size() > 1) w.zigzag(static_cast<std::int64_t>(a[1] - a[0]));
        } else {
          for (std::size_t i = 1; i < a.size(); ++i) w.zigzag(static_cast<std::int64_t>(a[i] - a[i - 1]));
        }
      }
      w.zigzag(in.immediate);
    }
  }
  return w.bytes();
}

void decode_sass_cta(ByteReader& r, TraceCta& cta) {
  cta.x = static_cast<int>(r.zigzag());
  cta.y = static_cast<int>(r.zigzag());
  cta.z = static_cast<int>(r.zigzag());
  cta.warps.resize(r.count(2));
  std::vector<std::string> opcodes;
  for (TraceWarp& warp : cta.warps) {
    warp.warp = static_cast<int>(r.zigzag());
    warp.instrs.resize(r.count(8));
    std::uint64_t pc = 0;
    for (TraceInstr& in : warp.instrs) {
      pc += static_cast<std::uint64_t>(r.zigzag());
      in.pc = pc;
      in.mask = static_cast<std::uint32_t>(r.bounded(0, 0xffffffffull, "active mask"));
      get_regs(r, in.dests);
      get_regs(r, in.srcs);
      const std::uint64_t op = r.varint();
      if (op == opcodes.size()) {
        opcodes.push_back(r.str());
        if (opcodes.back().empty()) r.fail("an empty opcode");
      } else if (op > opcodes.size()) {
        r.fail("opcode #" + std::to_string(op) + " used before it was spelled out");
      }
      in.opcode = opcodes[op];
      in.mem_width = static_cast<std::uint32_t>(r.bounded(0, 1024, "memory width"));
      const std::uint64_t n = r.bounded(0, 32, "address count");
      in.addresses.resize(n);
      if (n > 0) {
        const std::uint8_t form = r.u8();
        if (form != kStrided && form != kDeltas) r.fail("unknown address form " + std::to_string(form));
        in.addresses[0] = r.varint();
        if (form == kStrided) {
          const std::uint64_t stride = n > 1 ? static_cast<std::uint64_t>(r.zigzag()) : 0;
          for (std::size_t i = 1; i < n; ++i) in.addresses[i] = in.addresses[i - 1] + stride;
        } else {
          for (std::size_t i = 1; i < n; ++i) in.addresses[i] = in.addresses[i - 1] + static_cast<std::uint64_t>(r.zigzag());
        }
      }
      in.immediate = r.zigzag();
      in.line = 0;
    }
  }
  if (!r.at_end()) r.fail("bytes left over after the CTA");
}

GmsSassCtaSource::GmsSassCtaSource(const std::string& path, const GmsCommand& kernel)
    : reader_(path, kernel.ctas_offset) {
  SIM_ASSERT(kernel.encoding == GmsKernelEncoding::kSass, "not a SASS kernel");
  ByteReader r(kernel.header_payload, path + ": kernel header");
  r.u8();
  header_ = decode_sass_header(r);
  name_ = path + " (kernel " + std::to_string(header_.id) + ")";
}

bool GmsSassCtaSource::next_cta(TraceCta& cta) {
  if (ended_) return false;
  GmsBlock b;
  if (!reader_.next(b)) throw ConfigError(name_ + ": the file ends inside the kernel");
  if (b.type == 'E') {
    ended_ = true;
    return false;
  }
  if (b.type != 'C') throw ConfigError(reader_.where(b) + ": expected a CTA block");
  ByteReader r(b.payload, reader_.where(b));
  decode_sass_cta(r, cta);
  return true;
}

ConvertStats convert_accelsim_trace(const std::string& in, const std::string& out) {
  ConvertStats st;
  GmsTraceWriter w(out);
  for (const TraceCommand& cmd : read_trace_commands(in)) {
    if (cmd.kind == TraceCommand::Kind::kMemcpyHtoD) {
      w.memcpy_htod(cmd.address, cmd.bytes);
      continue;
    }
    TraceKernelReader reader(cmd.path);
    w.begin_kernel(encode_sass_header(reader.header()));
    TraceCta cta;
    while (reader.next_cta(cta)) {
      w.cta(encode_sass_cta(cta));
      ++st.ctas;
      for (const TraceWarp& warp : cta.warps) st.warp_instructions += static_cast<std::int64_t>(warp.instrs.size());
    }
    w.end_kernel();
    ++st.kernels;
  }
  w.finish();
  st.raw_bytes = w.raw_bytes();
  st.file_bytes = w.bytes_written();
  return st;
}

}  // namespace gms

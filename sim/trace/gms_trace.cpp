#include "trace/gms_trace.h"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <unordered_map>

#include "common/error.h"

namespace gms {
namespace {

constexpr char kMagic[8] = {'G', 'M', 'S', 'T', 'R', 'A', 'C', 'E'};
constexpr std::uint32_t kMaxBlockBytes = 256u << 20;  // a CTA of 256 MiB is corrupt input, not a CTA

void put_u32(std::string& s, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace

// ---- bytes ----

void ByteWriter::varint(std::uint64_t v) {
  while (v >= 0x80) {
    buf_.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  buf_.push_back(static_cast<char>(v));
}

void ByteWriter::f64(double v) {
  char b[8];
  std::memcpy(b, &v, 8);
  buf_.append(b, 8);
}

void ByteWriter::str(std::string_view s) {
  varint(s.size());
  buf_.append(s);
}

void ByteReader::fail(const std::string& why) const {
  throw ConfigError(where_ + ", byte " + std::to_string(pos_) + ": " + why);
}

std::uint8_t ByteReader::u8() {
  if (pos_ >= data_.size()) fail("the block ends early");
  return static_cast<std::uint8_t>(data_[pos_++]);
}

std::uint64_t ByteReader::varint() {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const std::uint8_t b = u8();
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return v;
  }
  fail("a number longer than 64 bits");
}

double ByteReader::f64() {
  if (data_.size() - pos_ < 8) fail("the block ends early");
  double v;
  std::memcpy(&v, data_.data() + pos_, 8);
  pos_ += 8;
  return v;
}

std::string ByteReader::str() {
  const std::uint64_t n = count(1);
  std::string s(data_.substr(pos_, n));
  pos_ += n;
  return s;
}

std::uint64_t ByteReader::count(std::uint64_t min_bytes) {
  const std::uint64_t n = varint();
  if (n > (data_.size() - pos_) / std::max<std::uint64_t>(min_bytes, 1)) fail("a count of " + std::to_string(n) + " does not fit the block");
  return n;
}

std::uint64_t ByteReader::bounded(std::uint64_t lo, std::uint64_t hi, const char* what) {
  const std::uint64_t v = varint();
  if (v < lo || v > hi) fail(std::string(what) + " " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}

// ---- writer ----

GmsTraceWriter::GmsTraceWriter(const std::string& path, int zlib_level)
    : path_(path), partial_(path + ".partial"), out_(partial_, std::ios::binary | std::ios::trunc), level_(zlib_level) {
  if (!out_) throw ConfigError(path + ": cannot write (" + partial_ + ")");
  std::string head(kMagic, 8);
  put_u32(head, kGmsTraceVersion);
  out_.write(head.data(), static_cast<std::streamsize>(head.size()));
  written_ = head.size();
}

GmsTraceWriter::~GmsTraceWriter() {
  if (!finished_) {
    out_.close();
    std::error_code ec;
    std::filesystem::remove(partial_, ec);
  }
}

void GmsTraceWriter::block(char type, std::string_view payload) {
  SIM_ASSERT(payload.size() <= kMaxBlockBytes, "a block of " << payload.size() << " bytes");
  std::string stored;
  uLongf bound = compressBound(static_cast<uLong>(payload.size()));
  stored.resize(bound);
  int rc = compress2(reinterpret_cast<Bytef*>(stored.data()), &bound, reinterpret_cast<const Bytef*>(payload.data()),
                     static_cast<uLong>(payload.size()), level_);
  SIM_ASSERT(rc == Z_OK, "zlib compress2 returned " << rc);
  stored.resize(bound);
  if (stored.size() >= payload.size()) stored.assign(payload);  // incompressible: kept raw
  std::string head(1, type);
  put_u32(head, static_cast<std::uint32_t>(payload.size()));
  put_u32(head, static_cast<std::uint32_t>(stored.size()));
  out_.write(head.data(), static_cast<std::streamsize>(head.size()));
  out_.write(stored.data(), static_cast<std::streamsize>(stored.size()));
  if (!out_) throw ConfigError(path_ + ": write failed (disk full?)");
  written_ += head.size() + stored.size();
  raw_ += head.size() + payload.size();
}

void GmsTraceWriter::memcpy_htod(std::uint64_t address, std::uint64_t bytes) {
  SIM_ASSERT(!in_kernel_, "a copy inside a kernel");
  ByteWriter w;
  w.varint(address);
  w.varint(bytes);
  block('M', w.bytes());
}

void GmsTraceWriter::begin_kernel(const std::string& header_payload) {
  SIM_ASSERT(!in_kernel_ && !finished_, "kernel begun twice");
  block('K', header_payload);
  in_kernel_ = true;
  ctas_ = 0;
}

void GmsTraceWriter::cta(const std::string& payload) {
  SIM_ASSERT(in_kernel_, "a CTA outside a kernel");
  block('C', payload);
  ++ctas_;
}

void GmsTraceWriter::end_kernel() {
  SIM_ASSERT(in_kernel_, "end of a kernel never begun");
  ByteWriter w;
  w.varint(static_cast<std::uint64_t>(ctas_));
  block('E', w.bytes());
  in_kernel_ = false;
  ++kernels_;
}

void GmsTraceWriter::finish() {
  SIM_ASSERT(!in_kernel_, "finish inside a kernel");
  ByteWriter w;
  w.varint(static_cast<std::uint64_t>(kernels_));
  block('Z', w.bytes());
  out_.close();
  if (!out_) throw ConfigError(path_ + ": write failed");
  std::filesystem::rename(partial_, path_);
  finished_ = true;
}

// ---- reader ----

GmsTraceReader::GmsTraceReader(const std::string& path, std::uint64_t offset) : name_(path) {
  auto f = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*f) throw ConfigError(path + ": cannot open the trace");
  in_ = std::move(f);
  if (offset == 0) {
    check_magic();
  } else {
    in_->seekg(static_cast<std::streamoff>(offset));
    pos_ = offset;
  }
}

GmsTraceReader::GmsTraceReader(std::string bytes, const std::string& name)
    : name_(name), in_(std::make_unique<std::istringstream>(std::move(bytes))) {
  check_magic();
}

bool GmsTraceReader::read_exact(char* dst, std::size_t n) {
  in_->read(dst, static_cast<std::streamsize>(n));
  const std::size_t got = static_cast<std::size_t>(in_->gcount());
  pos_ += got;
  return got == n;
}

void GmsTraceReader::check_magic() {
  char head[12];
  if (!read_exact(head, 12) || std::memcmp(head, kMagic, 8) != 0)
    throw ConfigError(name_ + ": not a gpumemsim trace (no GMSTRACE magic)");
  const std::uint32_t v = get_u32(head + 8);
  if (v != kGmsTraceVersion)
    throw ConfigError(name_ + ": trace format version " + std::to_string(v) + "; this gpumemsim reads version " +
                      std::to_string(kGmsTraceVersion));
}

std::string GmsTraceReader::where(const GmsBlock& b) const {
  return name_ + ": block '" + std::string(1, b.type) + "' at byte " + std::to_string(b.offset);
}

bool GmsTraceReader::next(GmsBlock& b, bool skip_cta_payload) {
  b.offset = pos_;
  char head[9];
  in_->read(head, 1);
  if (in_->gcount() == 0) return false;
  pos_ += 1;
  if (!read_exact(head + 1, 8)) throw ConfigError(name_ + ": truncated block header at byte " + std::to_string(b.offset));
  b.type = head[0];
  if (!std::strchr("MKCEZ", b.type) || b.type == 0)
    throw ConfigError(name_ + ": unknown block type " + std::to_string(static_cast<unsigned char>(b.type)) + " at byte " +
                      std::to_string(b.offset));
  const std::uint32_t raw = get_u32(head + 1), stored = get_u32(head + 5);
  if (raw > kMaxBlockBytes || stored > raw + raw / 8 + 64)
    throw ConfigError(where(b) + ": block sizes " + std::to_string(raw) + "/" + std::to_string(stored) + " are corrupt");
  if (skip_cta_payload && b.type == 'C') {
    b.payload.clear();
    in_->seekg(static_cast<std::streamoff>(stored), std::ios::cur);
    pos_ += stored;
    if (!*in_) throw ConfigError(where(b) + ": the file ends inside the block (truncated)");
    return true;
  }
  std::string data(stored, '\0');
  if (!read_exact(data.data(), stored)) throw ConfigError(where(b) + ": the file ends inside the block (truncated)");
  if (stored == raw) {
    b.payload = std::move(data);
    return true;
  }
  b.payload.assign(raw, '\0');
  uLongf out = raw;
  const int rc = uncompress(reinterpret_cast<Bytef*>(b.payload.data()), &out, reinterpret_cast<const Bytef*>(data.data()), stored);
  if (rc != Z_OK || out != raw) throw ConfigError(where(b) + ": corrupt compressed data (zlib " + std::to_string(rc) + ")");
  return true;
}

bool is_gms_trace(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  char head[8];
  return f.read(head, 8) && std::memcmp(head, kMagic, 8) == 0;
}

std::vector<GmsCommand> scan_gms_trace(const std::string& path) {
  GmsTraceReader r(path);
  std::vector<GmsCommand> out;
  GmsBlock b;
  bool in_kernel = false, ended = false;
  std::int64_t ctas = 0;
  while (r.next(b, true)) {
    if (ended) throw ConfigError(r.where(b) + ": data after the end-of-file block");
    ByteReader in(b.payload, r.where(b));
    switch (b.type) {
      case 'M': {
        if (in_kernel) in.fail("a copy inside a kernel");
        GmsCommand c;
        c.kind = GmsCommand::Kind::kMemcpyHtoD;
        c.address = in.varint();
        c.bytes = in.varint();
        out.push_back(c);
        break;
      }
      case 'K': {
        if (in_kernel) in.fail("a kernel begins inside another");
        GmsCommand c;
        c.encoding = static_cast<GmsKernelEncoding>(in.bounded(1, 2, "kernel encoding"));
        c.header_payload = b.payload;
        c.ctas_offset = r.position();
        out.push_back(std::move(c));
        in_kernel = true;
        ctas = 0;
        break;
      }
      case 'C':
        if (!in_kernel) in.fail("a CTA outside a kernel");
        ++ctas;
        break;
      case 'E': {
        if (!in_kernel) in.fail("the end of a kernel that never began");
        const std::uint64_t n = in.varint();
        if (n != static_cast<std::uint64_t>(ctas))
          in.fail("the kernel says it holds " + std::to_string(n) + " CTAs; the file has " + std::to_string(ctas));
        out.back().ctas = ctas;
        in_kernel = false;
        break;
      }
      case 'Z': {
        if (in_kernel) in.fail("the file ends inside a kernel");
        const std::uint64_t n = in.varint();
        const auto kernels = std::count_if(out.begin(), out.end(), [](const GmsCommand& c) { return c.kind == GmsCommand::Kind::kKernel; });
        if (n != static_cast<std::uint64_t>(kernels)) in.fail("the file says it holds " + std::to_string(n) + " kernels; it has " + std::to_string(kernels));
        ended = true;
        break;
      }
    }
  }
  if (!ended) throw ConfigError(path + ": truncated (no end-of-file block)");
  return out;
}

}  // namespace gms

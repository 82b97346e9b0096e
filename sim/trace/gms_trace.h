#pragma once
// gpumemsim's own trace container (.gmstrace), documented in traces/README.md. A file is a magic,
// a version, and a sequence of blocks, each compressed on its own with zlib, so a reader streams a
// kernel CTA by CTA in bounded memory and skips kernels without inflating them:
//   "GMSTRACE" | u32 version
//   block: u8 type | u32 raw bytes | u32 stored bytes | stored (zlib; raw when stored == raw)
//   types: 'M' host-to-device copy, 'K' kernel header, 'C' one CTA, 'E' end of kernel, 'Z' end of file.
// A kernel is encoded either as SASS (what Accel-Sim's tracer recorded, decoded through the ISA table
// at replay) or as engine instructions (a generated workload exported by `trace export`, replayed
// exactly). Every malformed input is a ConfigError naming the file and block; nothing is skipped.
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trace/accelsim_trace.h"

namespace gms {

inline constexpr std::uint32_t kGmsTraceVersion = 1;

// Little-endian varints (LEB128), zigzag for signed values, raw IEEE doubles, length-prefixed strings.
class ByteWriter {
 public:
  void u8(std::uint8_t v) { buf_.push_back(static_cast<char>(v)); }
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v) { varint((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
  void f64(double v);
  void str(std::string_view s);
  void raw(std::string_view b) { buf_.append(b); }  // bytes another writer encoded
  const std::string& bytes() const { return buf_; }
  void clear() { buf_.clear(); }

 private:
  std::string buf_;
};

class ByteReader {
 public:
  ByteReader(std::string_view data, std::string where) : data_(data), where_(std::move(where)) {}
  std::uint8_t u8();
  std::uint64_t varint();
  std::int64_t zigzag() {
    const std::uint64_t v = varint();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  double f64();
  std::string str();
  // A count of items that each take at least `min_bytes`: more than the rest of the block can hold is
  // corrupt input (and would otherwise allocate without bound).
  std::uint64_t count(std::uint64_t min_bytes = 1);
  // A value that must lie in [lo, hi].
  std::uint64_t bounded(std::uint64_t lo, std::uint64_t hi, const char* what);
  bool at_end() const { return pos_ == data_.size(); }
  [[noreturn]] void fail(const std::string& why) const;

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
  std::string where_;
};

enum class GmsKernelEncoding : std::uint8_t { kSass = 1, kEngine = 2 };

struct GmsBlock {
  char type = 0;
  std::string payload;    // inflated
  std::uint64_t offset = 0;  // where the block starts in the file
};

// Writes a .gmstrace: into PATH.partial, renamed to PATH by finish(); a writer destroyed before
// finish() removes the partial file (nothing half-written is left under the real name).
class GmsTraceWriter {
 public:
  explicit GmsTraceWriter(const std::string& path, int zlib_level = 3);
  ~GmsTraceWriter();
  GmsTraceWriter(const GmsTraceWriter&) = delete;
  GmsTraceWriter& operator=(const GmsTraceWriter&) = delete;

  void memcpy_htod(std::uint64_t address, std::uint64_t bytes);
  void begin_kernel(const std::string& header_payload);  // payload starts with the encoding byte
  void cta(const std::string& payload);
  void end_kernel();
  void finish();
  std::uint64_t bytes_written() const { return written_; }
  std::uint64_t raw_bytes() const { return raw_; }

 private:
  void block(char type, std::string_view payload);
  std::string path_, partial_;
  std::ofstream out_;
  int level_;
  std::int64_t ctas_ = 0, kernels_ = 0;
  bool in_kernel_ = false, finished_ = false;
  std::uint64_t written_ = 0, raw_ = 0;
};

// Reads blocks in file order from `offset` (0 = the start; the magic and version are checked there).
class GmsTraceReader {
 public:
  explicit GmsTraceReader(const std::string& path, std::uint64_t offset = 0);
  // From memory (fuzzing, tests); `name` is used in errors.
  GmsTraceReader(std::string bytes, const std::string& name);
  // The next block, or false at the end of the data (a file must end with a 'Z' block: see scan).
  // `skip_cta_payload`: a 'C' block is stepped over without reading or inflating it (scanning).
  bool next(GmsBlock& b, bool skip_cta_payload = false);
  const std::string& name() const { return name_; }
  std::uint64_t position() const { return pos_; }  // where the next block starts
  std::string where(const GmsBlock& b) const;

 private:
  void check_magic();
  bool read_exact(char* dst, std::size_t n);
  std::string name_;
  std::unique_ptr<std::istream> in_;
  std::uint64_t pos_ = 0;
};

bool is_gms_trace(const std::string& path);  // by its magic

// The commands of a .gmstrace in order, read without inflating CTAs.
struct GmsCommand {
  enum class Kind { kMemcpyHtoD, kKernel } kind = Kind::kKernel;
  std::uint64_t address = 0, bytes = 0;
  GmsKernelEncoding encoding = GmsKernelEncoding::kSass;
  std::string header_payload;      // the 'K' block, encoding byte first
  std::uint64_t ctas_offset = 0;   // first block after the 'K' block
  std::int64_t ctas = 0;           // from the 'E' block
};
std::vector<GmsCommand> scan_gms_trace(const std::string& path);

// SASS kernels: the header and CTAs of Accel-Sim's traces, losslessly (TraceInstr equality; the
// text line numbers are not kept).
std::string encode_sass_header(const TraceKernelHeader& h);
TraceKernelHeader decode_sass_header(ByteReader& r);
std::string encode_sass_cta(const TraceCta& cta);
void decode_sass_cta(ByteReader& r, TraceCta& cta);

// A SASS kernel of a .gmstrace as a CtaSource (what TraceKernel replays).
class GmsSassCtaSource final : public CtaSource {
 public:
  GmsSassCtaSource(const std::string& path, const GmsCommand& kernel);
  const TraceKernelHeader& header() const override { return header_; }
  bool next_cta(TraceCta& cta) override;
  const std::string& name() const override { return name_; }

 private:
  GmsTraceReader reader_;
  TraceKernelHeader header_;
  std::string name_;
  bool ended_ = false;
};

// Accel-Sim text (kernelslist.g, its folder, or one .traceg / .traceg.xz) -> .gmstrace.
struct ConvertStats {
  std::int64_t kernels = 0, ctas = 0, warp_instructions = 0;
  std::uint64_t raw_bytes = 0, file_bytes = 0;
};
ConvertStats convert_accelsim_trace(const std::string& in, const std::string& out);

}  // namespace gms

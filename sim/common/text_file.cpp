#include "common/text_file.h"

#include <lzma.h>

#include <array>
#include <filesystem>
#include <fstream>

#include "common/error.h"

namespace gms {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A read-only streambuf that inflates an .xz file block by block.
class XzBuf final : public std::streambuf {
 public:
  XzBuf(const std::string& path, const std::string& what) : path_(path), file_(path, std::ios::binary) {
    if (!file_) throw ConfigError(path + ": cannot open " + what);
    if (lzma_stream_decoder(&strm_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw ConfigError(path + ": cannot start the xz decoder");
  }
  ~XzBuf() override { lzma_end(&strm_); }
  XzBuf(const XzBuf&) = delete;
  XzBuf& operator=(const XzBuf&) = delete;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (done_) return traits_type::eof();
    strm_.next_out = reinterpret_cast<std::uint8_t*>(out_.data());
    strm_.avail_out = out_.size();
    while (strm_.avail_out == out_.size() && !done_) {
      if (strm_.avail_in == 0 && !eof_in_) {
        file_.read(in_.data(), static_cast<std::streamsize>(in_.size()));
        strm_.next_in = reinterpret_cast<const std::uint8_t*>(in_.data());
        strm_.avail_in = static_cast<std::size_t>(file_.gcount());
        if (strm_.avail_in == 0) eof_in_ = true;
      }
      const lzma_ret r = lzma_code(&strm_, eof_in_ ? LZMA_FINISH : LZMA_RUN);
      if (r == LZMA_STREAM_END) {
        done_ = true;
      } else if (r != LZMA_OK) {
        throw ConfigError(path_ + ": corrupt or truncated xz data (liblzma error " + std::to_string(static_cast<int>(r)) +
                          ")");
      }
    }
    const std::size_t n = out_.size() - strm_.avail_out;
    setg(out_.data(), out_.data(), out_.data() + n);
    return n ? traits_type::to_int_type(*gptr()) : traits_type::eof();
  }

 private:
  std::string path_;
  std::ifstream file_;
  lzma_stream strm_ = LZMA_STREAM_INIT;
  std::array<char, 1 << 16> in_{};
  std::array<char, 1 << 17> out_{};
  bool eof_in_ = false, done_ = false;
};

class XzStream final : public std::istream {
 public:
  XzStream(const std::string& path, const std::string& what) : std::istream(nullptr), buf_(path, what) { rdbuf(&buf_); }

 private:
  XzBuf buf_;
};

}  // namespace

std::unique_ptr<std::istream> open_text_file(const std::string& path, const std::string& what) {
  if (ends_with(path, ".xz")) return std::make_unique<XzStream>(path, what);
  auto f = std::make_unique<std::ifstream>(path);
  if (!*f) throw ConfigError(path + ": cannot open " + what);
  return f;
}

std::string existing_or_xz(const std::string& path) {
  namespace fs = std::filesystem;
  if (!fs::exists(path) && fs::exists(path + ".xz")) return path + ".xz";
  return path;
}

}  // namespace gms

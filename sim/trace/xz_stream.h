#pragma once
// Reading xz-compressed trace text (kernel-N.traceg.xz, as trace archives ship) as a stream, with
// liblzma from Debian: the decompressor runs as the reader pulls lines, so a compressed trace of
// gigabytes streams in bounded memory like a plain one.
#include <istream>
#include <memory>
#include <string>

namespace gms {

// Opens `path` for reading; a name ending in ".xz" is decompressed on the fly. Throws ConfigError
// naming the file when it cannot be opened; a corrupt xz stream fails while reading (ConfigError).
std::unique_ptr<std::istream> open_trace_text(const std::string& path);

// A kernel trace named by a kernel list may be stored compressed: `path` itself when it exists,
// else `path`.xz when that exists, else `path` (whose opening then reports it missing).
std::string existing_trace_file(const std::string& path);

}  // namespace gms

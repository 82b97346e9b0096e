#pragma once
// Reading text that may be xz-compressed (kernel-N.traceg.xz as trace archives ship them, SASS
// listings, committed scorecards), with liblzma from Debian: the decompressor runs as the reader
// pulls lines, so a compressed trace of gigabytes streams in bounded memory like a plain file.
#include <istream>
#include <memory>
#include <string>

namespace gms {

// Opens `path` for reading; a name ending in ".xz" is decompressed on the fly. Throws ConfigError
// "PATH: cannot open WHAT" when it cannot be opened; a corrupt xz stream fails while reading (ConfigError).
std::unique_ptr<std::istream> open_text_file(const std::string& path, const std::string& what = "the file");

// A file that may be stored compressed (a kernel trace named by a kernel list): `path` itself when
// it exists, else `path`.xz when that exists, else `path` (whose opening then reports it missing).
std::string existing_or_xz(const std::string& path);

}  // namespace gms

// libFuzzer target: SASS listings with control words and ncu source exports (gpumemsim issue).
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gms::fuzz::sass_listing(data, size);
  return 0;
}

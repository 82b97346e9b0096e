// libFuzzer target: lane list CSVs of `gpumemsim access --lanes` (build with -DGPUMEMSIM_FUZZ=ON and clang).
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gms::fuzz::lane_list(data, size);
  return 0;
}

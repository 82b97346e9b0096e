// libFuzzer target: Accel-Sim kernel traces (build with -DGPUMEMSIM_FUZZ=ON and clang).
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gms::fuzz::accelsim_trace(data, size);
  return 0;
}

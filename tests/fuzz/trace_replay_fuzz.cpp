// libFuzzer target: Accel-Sim kernel traces replayed through the engine, and ISA tables (the first
// input byte picks which); build with -DGPUMEMSIM_FUZZ=ON and clang.
#include "fuzz_entries_sim.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data[0] == '%')
    gms::fuzz::isa_table(data + 1, size - 1);
  else
    gms::fuzz::trace_replay(data, size);
  return 0;
}

// libFuzzer target: the GEMV's compiled spill program (workload local_program).
#include "fuzz_entries.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gms::fuzz::local_program_text(data, size);
  return 0;
}

#pragma once
// Where the generated kernels place their buffers in the simulated address space: one after the
// other from a fixed base, each on a 2 MiB boundary as cudaMalloc's large allocations are, so that
// the L2 slice and DRAM channel hashes see the page offsets they see on silicon.
#include "common/types.h"

namespace gms::device_heap {

inline constexpr Addr kBase = 0x7f0000000000ull;
inline constexpr Addr kAlign = 2ull << 20;
constexpr Addr align_up(Addr v) { return (v + kAlign - 1) / kAlign * kAlign; }

}  // namespace gms::device_heap

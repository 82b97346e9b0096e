#pragma once
// One simulated cycle in ticks, under the short names the timing tests write their times in. A
// using-declaration of these may repeat, so test files that share a unity-build source stay apart.
#include "common/types.h"

namespace gms::test_ticks {
inline constexpr Tick C = kTicksPerCycle;
inline constexpr Tick kCycle = kTicksPerCycle;
}  // namespace gms::test_ticks

#pragma once
// Which elements of a tile each thread touches, as CuTe's partitions define it. The result is a
// table: thread t's k-th value sits at element offset offsets[t * values_per_thread + k] of the
// tensor layout, in the order CuTe's copy would move it (the values of one copy atom first, then the
// atom's repeats over the tile, leftmost repeat mode fastest).
#include <cstdint>
#include <vector>

#include "layout/layout.h"

namespace gms {

struct Partition {
  std::int64_t threads = 0;
  std::int64_t values_per_thread = 0;
  std::vector<std::int64_t> offsets;  // element offsets in the tensor layout (before any swizzle)

  std::int64_t offset(std::int64_t thread, std::int64_t value) const {
    return offsets[static_cast<size_t>(thread * values_per_thread + value)];
  }
};

// make_tiled_copy(atom, thr_layout, val_layout) applied to `tensor` (partition_S / partition_D):
// thr_layout maps a thread coordinate to its thread index, val_layout a value coordinate to its
// value index; along each mode a thread's values are contiguous (CuTe's raked product: element
// coordinate = value + val_extent * thread + tile_extent * repeat). Each tensor mode must be a
// multiple of thr x val along it. Both layouts must be bijections (ConfigError otherwise).
Partition tiled_copy_partition(const Layout& tensor, const Layout& thr, const Layout& val);

// local_partition(tensor, thr_layout, tid, step): `use_mode` (CuTe's Step, X = false) keeps some
// modes of the thread layout; the kept modes, in order, tile the tensor's leading modes (thread
// coordinate + thr_extent * repeat) and every thread takes the remaining tensor modes whole. With
// the seed's C-thread layout tC = (8,8) over (M,N): tCsA = local_partition(sA(M,K), tC, tid,
// Step<_1,X>) tiles M by the thread's m; tCsB = local_partition(sB(N,K), tC, tid, Step<X,_1>) tiles
// N (sB's mode 0) by the thread's n.
Partition local_partition(const Layout& tensor, const Layout& thr, const std::vector<bool>& use_mode);

// "1,X" / "X,1" / "1,1" (CuTe's Step<_1,X>): true where the mode is used.
std::vector<bool> parse_step(const std::string& text, int rank);

}  // namespace gms

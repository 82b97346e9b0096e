#pragma once
// The `gpumemsim access` question, as plain data: where the pattern comes from (a CuTe description
// or a lane list) and how it is accessed. Shared by the CLI, the report and the tests.
#include <cstdint>
#include <optional>
#include <string>

#include "access/access_pattern.h"
#include "layout/layout.h"

namespace gms {

struct CuteCopySpec {
  Layout tensor;                 // the tile in memory: coordinate -> element offset
  Layout threads;                // TiledCopy thr_layout, or local_partition's thread layout
  std::optional<Layout> values;  // TiledCopy val_layout; absent = local_partition
  std::string step;              // local_partition: "1,X" etc. (empty = every mode tiled)
  CopyShape copy;
};

// Builds the partition a spec describes (TiledCopy when `values` is set, else local_partition).
Partition partition_of(const CuteCopySpec& spec);
AccessPattern pattern_of(const CuteCopySpec& spec, MemSpace space, AccessOp op);

}  // namespace gms

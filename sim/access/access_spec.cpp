#include "access/access_spec.h"

#include "common/error.h"
#include "layout/partition.h"

namespace gms {

namespace {

// A CTA's tile is thousands of elements; partitions and checks enumerate every one of them.
void require_tile_size(const Layout& tensor) {
  if (tensor.size() > (std::int64_t{1} << 24))
    throw ConfigError("tensor " + tensor.str() + ": " + std::to_string(tensor.size()) +
                      " elements; describe one CTA's tile (at most 2^24 elements)");
}

}  // namespace

Partition partition_of(const CuteCopySpec& spec) {
  require_tile_size(spec.tensor);
  if (spec.values) return tiled_copy_partition(spec.tensor, spec.threads, *spec.values);
  std::vector<bool> use(static_cast<size_t>(spec.threads.rank()), true);
  if (!spec.step.empty()) use = parse_step(spec.step, spec.threads.rank());
  return local_partition(spec.tensor, spec.threads, use);
}

AccessPattern pattern_of(const CuteCopySpec& spec, MemSpace space, AccessOp op) {
  require_tile_size(spec.tensor);
  if (!spec.tensor.injective())
    throw ConfigError("tensor layout " + spec.tensor.str() + " is not injective: two coordinates share an element");
  return pattern_from_partition(partition_of(spec), spec.copy, space, op);
}

}  // namespace gms

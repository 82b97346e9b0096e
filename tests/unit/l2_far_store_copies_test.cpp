// l2.far_stores_copy_near: a store to a far line leaves its sectors in the near slice it passes, so the line read back
// from that partition costs one L2 lookup. gms-local-ubench under ncu (validate/results/h100/local,
// validate/results/h200/local_writeback; validate/scripts/far_store_copies.py): lines stored, then read back - local
// or global, from the first round of an emptied L2 on - 1.00-1.03 read lookups per sector the SMs asked for; lines
// only read 1.25 over two rounds (the far half looked up near, then at home, the first time).
#include <gtest/gtest.h>

#include "api/simulation.h"
#include "local_rounds.h"
#include "test_util.h"

namespace gms {
namespace {

GpuConfig gpu_with(const char* preset, std::vector<std::string> sets) {
  return load_configs(ConfigInputs{test::source_path(preset), "", std::move(sets)}).gpu.value;
}

// The first two rounds' L2 read lookups per sector the SMs asked for, and how many sectors they asked for.
struct Early {
  double reads_per_request;
  std::uint64_t requested;
};
Early early(const GpuConfig& gpu, bool local, bool store) {
  const auto r = bench::replay_local_rounds(gpu, 32, 4, 2, local, store, true);
  return {static_cast<double>(r.early_l2_reads) / static_cast<double>(r.early_l2_requested), r.early_l2_requested};
}

TEST(L2FarStoreCopies, PresetsTakeIt) {
  for (const char* preset : {"configs/gpus/h100.yaml", "configs/gpus/h200.yaml", "configs/gpus/h100-pcie.yaml"})
    EXPECT_TRUE(gpu_with(preset, {}).l2.far_stores_copy_near) << preset;
}

TEST(L2FarStoreCopies, AStoredLineIsReadBackWithOneLookup) {
  for (const char* preset : {"configs/gpus/h100.yaml", "configs/gpus/h200.yaml"}) {
    for (bool local : {true, false}) {
      const Early on = early(gpu_with(preset, {"gpu.l2.far_stores_copy_near=true"}), local, true);
      const Early off = early(gpu_with(preset, {"gpu.l2.far_stores_copy_near=false"}), local, true);
      EXPECT_EQ(on.requested, 32u * 4 * 90 * 8 * 2) << preset << " local " << local;  // every sector missed L1 or bypassed it
      EXPECT_LT(on.reads_per_request, 1.005) << preset << " local " << local;  // silicon 1.002-1.030
      EXPECT_GT(off.reads_per_request, 1.24) << preset << " local " << local;  // the first round's far half twice
    }
  }
}

TEST(L2FarStoreCopies, ALineOnlyReadIsLookedUpTwiceTheFirstTime) {
  // gms-local-ubench fload on the H200: 1.25-1.27 over the warm-up launch's two rounds, with or without the copies.
  for (bool copy : {true, false}) {
    const Early e = early(gpu_with("configs/gpus/h200.yaml", {std::string("gpu.l2.far_stores_copy_near=") + (copy ? "true" : "false")}),
                          false, false);
    EXPECT_NEAR(e.reads_per_request, 1.25, 0.01) << copy;
  }
}

TEST(L2FarStoreCopies, DramSeesTheSameStores) {
  // The copy is clean: what store-only rounds write to DRAM does not move with it (16 SMs' frames fit the L2 either
  // way), and nothing is read.
  for (bool local : {true, false}) {
    const auto on = bench::replay_local_rounds(gpu_with("configs/gpus/h200.yaml", {"gpu.l2.far_stores_copy_near=true"}), 16, 4,
                                               3, local, true, false);
    const auto off = bench::replay_local_rounds(gpu_with("configs/gpus/h200.yaml", {"gpu.l2.far_stores_copy_near=false"}), 16,
                                                4, 3, local, true, false);
    EXPECT_EQ(on.written, off.written) << local;
    EXPECT_EQ(on.read, 0u) << local;
  }
}

TEST(L2FarStoreCopies, OnlyWhereFarStoresPassTheNearPartition) {
  // Without the near pass (or without near copies at all) there is nowhere to leave one: the key changes nothing.
  for (const char* other : {"gpu.l2.far_writes_in_both_partitions=false", "gpu.l2.partition_mode=far_latency"}) {
    const Early on = early(gpu_with("configs/gpus/h100.yaml", {"gpu.l2.far_stores_copy_near=true", other}), true, true);
    const Early off = early(gpu_with("configs/gpus/h100.yaml", {"gpu.l2.far_stores_copy_near=false", other}), true, true);
    EXPECT_EQ(on.reads_per_request, off.reads_per_request) << other;
  }
}

}  // namespace
}  // namespace gms

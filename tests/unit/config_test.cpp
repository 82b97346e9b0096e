#include <gtest/gtest.h>

#include <filesystem>

#include "api/simulation.h"
#include "common/error.h"
#include "config/gpu_schema.h"
#include "config/workload_schema.h"
#include "model/memory_system.h"
#include "test_util.h"

namespace gms {
namespace {

ConfigInputs h100_with(const std::string& workload_file, std::vector<std::string> sets = {}) {
  return ConfigInputs{test::source_path("configs/gpus/h100.yaml"), workload_file, std::move(sets)};
}

TEST(Config, EveryPresetLoadsAndValidates) {
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("configs/gpus"))) {
    ConfigInputs in{entry.path().string(), "", {}};
    EXPECT_NO_THROW(load_configs(in)) << entry.path();
  }
}

TEST(Config, EveryWorkloadLoads) {
  for (const auto& entry : std::filesystem::directory_iterator(test::source_path("configs/workloads")))
    if (entry.path().extension() == ".yaml") {
      EXPECT_NO_THROW(load_configs(h100_with(entry.path().string())));
    }
}

TEST(Config, PresetValuesAreParsedWithUnits) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h200.yaml"), "", {}});
  EXPECT_EQ(cfg.gpu.value.l2.size, 60LL * 1024 * 1024);
  EXPECT_DOUBLE_EQ(cfg.gpu.value.dram.bandwidth, 4814e9);
  EXPECT_DOUBLE_EQ(cfg.gpu.value.sm_clock, 1980e6);
  EXPECT_EQ(cfg.gpu.value.l2.hit_latency, 282u);
}

TEST(Config, UnknownKeyGivesDidYouMeanAndPosition) {
  auto dir = test::temp_dir("unknown_key");
  auto gpu = test::write_file(dir / "g.yaml",
                              "name: x\nclock: {sm: 1GHz}\nsm:\n  count: 4\n  shared_mem: 64KiB\n"
                              "  fma_flops_per_cycle: 128\n  tensor_fp16_flops_per_cycle: 1024\n"
                              "l1: {size: 0B, hit_latency: 30}\nicnt: {latency: 50}\n"
                              "l2:\n  szie: 4MiB\n  slices: 8\n  hit_latency: 200\n"
                              "dram: {bandwidth: 300GB/s, channels: 8, latency: 500}\n");
  std::string err = test::config_error(ConfigInputs{gpu, "", {}, false});
  EXPECT_NE(err.find(gpu + ":11:3"), std::string::npos) << err;
  EXPECT_NE(err.find("unknown gpu key 'l2.szie'"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean 'l2.size'"), std::string::npos) << err;
}

TEST(Config, SetOverridesAndItsErrors) {
  auto wl = test::source_path("configs/workloads/seed000-grouped.yaml");
  auto cfg = load_configs(h100_with(wl, {"gpu.l2.size=40MiB", "workload.cta_order.group_m=8"}));
  EXPECT_EQ(cfg.gpu.value.l2.size, 40LL * 1024 * 1024);
  EXPECT_EQ(cfg.workload.value.gemm.cta_order.group_m, 8);
  EXPECT_EQ(cfg.gpu.origins.at("l2.size").file, "--set gpu.l2.size=40MiB");
  std::string err = test::config_error(h100_with(wl, {"gpu.l2.szie=40MiB"}));
  EXPECT_NE(err.find("--set gpu.l2.szie=40MiB"), std::string::npos) << err;
  EXPECT_NE(err.find("did you mean 'l2.size'"), std::string::npos) << err;
  EXPECT_NE(test::config_error(h100_with(wl, {"l2.size=4MiB"})).find("must start with 'gpu.'"), std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.size"})).find("expected gpu.KEY=VALUE"), std::string::npos);
}

// l2.sm_partitions: one digit per SM, each a partition that exists; it decides which partition an SM
// is near (a far line's first slice is then the SM's own partition's copy).
TEST(Config, MeasuredPartitionMapIsCheckedAndUsed) {
  auto wl = test::source_path("configs/workloads/seed000-grouped.yaml");
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.sm_partitions=0101"})).find("one digit per SM: 4 for 132"), std::string::npos);
  const std::string all2(132, '2');
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.sm_partitions=" + all2})).find("not a partition below"), std::string::npos);
  std::string map(132, '0');
  map[1] = '1';
  auto cfg = load_configs(h100_with(wl, {"gpu.l2.sm_partitions=" + map}));
  MemorySystem mem(cfg.gpu.value);
  EXPECT_EQ(mem.sm_partition(0), 0);
  EXPECT_EQ(mem.sm_partition(1), 1);
  EXPECT_EQ(mem.sm_partition(131), 0);
}

// l2.slice_interleave: runs of that many bytes share a home slice (silicon's per-slice spread of short
// line runs, docs/calibration.md "Four lines a slice"); 0 keeps one line a run.
TEST(Config, SliceInterleaveGroupsLinesOnOneSlice) {
  auto wl = test::source_path("configs/workloads/seed000-grouped.yaml");
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.slice_interleave=384B"})).find("l2.slice_interleave"), std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.slice_interleave=64B"})).find("no smaller than l2.line"), std::string::npos);
  MemorySystem per_line(load_configs(h100_with(wl, {})).gpu.value);
  MemorySystem runs(load_configs(h100_with(wl, {"gpu.l2.slice_interleave=512B"})).gpu.value);
  const std::uint64_t first = 0x7f1000000000ull >> 7;  // a 512-byte boundary
  int per_line_changes = 0, run_changes = 0, slices_hit = 0;
  std::vector<bool> seen(80, false);
  for (std::uint64_t i = 1; i < 4096; ++i) {
    per_line_changes += per_line.home_slice(first + i) != per_line.home_slice(first + i - 1);
    const std::uint32_t slice = runs.home_slice(first + i), before = runs.home_slice(first + i - 1);
    const bool boundary = i % 4 == 0;
    if (!boundary) {
      EXPECT_EQ(slice, before) << i;
    }
    run_changes += slice != before;
    slices_hit += !seen[slice];
    seen[slice] = true;
  }
  EXPECT_GT(per_line_changes, 4000);   // consecutive lines on different slices
  EXPECT_GT(run_changes, 1000);        // consecutive runs mostly too
  EXPECT_EQ(slices_hit, 80);           // and every slice is used
}

TEST(Config, TypeRangeAndRequiredErrorsNameTheKey) {
  auto wl = test::source_path("configs/workloads/seed000-grouped.yaml");
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.size=lots"})).find("gpu key 'l2.size'"), std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.sm.count=0"})).find("out of range"), std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"workload.m=-5"})).find("workload(gemm) key 'm'"), std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"workload.dtype=fp61"})).find("did you mean 'fp16'"), std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.size=50MB"})).find("multiple of line x assoc x slices"),
            std::string::npos);
  EXPECT_NE(test::config_error(h100_with(wl, {"workload.tile.m=1024"})).find("exceeds m"), std::string::npos);
  auto dir = test::temp_dir("required");
  auto gpu = test::write_file(dir / "g.yaml", "name: x\n");
  EXPECT_NE(test::config_error(ConfigInputs{gpu, "", {}, false}).find("key 'clock.sm' is required"), std::string::npos);
}

// dram.latency is a chase's mean over random lines, far ones included (memory_system.cpp): a far
// penalty larger than that mean leaves the DRAM no time of its own, a configuration error.
TEST(Config, DramLatencyMustCoverTheFarLinesShare) {
  auto wl = test::source_path("configs/workloads/seed000-grouped.yaml");
  EXPECT_EQ(test::config_error(h100_with(wl, {"gpu.l2.far_extra_latency=700", "gpu.dram.latency_spread="})),
            "");  // 273 + 350 < 670
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.l2.far_extra_latency=1000"})).find("far lines' share of l2.far_extra_latency (500"),
            std::string::npos);
}

// ... and with dram.latency_spread the fastest read's share too: the preset's table reaches 113 cycles below its
// mean, so the 47 cycles of DRAM time left beside a 700-cycle far penalty are too few.
TEST(Config, DramLatencySpreadMustLeaveTheFastestReadSomeTime) {
  auto wl = test::source_path("configs/workloads/seed000-grouped.yaml");
  EXPECT_EQ(test::config_error(h100_with(wl, {"gpu.l2.far_extra_latency=400"})), "");  // 670 - 273 - 200 = 197 > 113
  const std::string err = test::config_error(h100_with(wl, {"gpu.l2.far_extra_latency=700"}));
  EXPECT_NE(err.find("dram.latency_spread"), std::string::npos) << err;
  EXPECT_NE(err.find("its lowest point lies 113 cycles below its mean"), std::string::npos) << err;
  EXPECT_NE(test::config_error(h100_with(wl, {"gpu.dram.latency_spread=10cycles, 5cycles"})).find("must not fall"),
            std::string::npos);
}

TEST(Config, MalformedYamlReportsLine) {
  auto dir = test::temp_dir("malformed");
  auto gpu = test::write_file(dir / "g.yaml", "name: x\nsm: {count: 4\n");
  std::string err = test::config_error(ConfigInputs{gpu, "", {}, false});
  EXPECT_NE(err.find(gpu + ":"), std::string::npos) << err;
  EXPECT_NE(err.find("malformed YAML"), std::string::npos) << err;
}

TEST(Config, DocsListEveryParameterWithUnit) {
  std::string md = render_docs_markdown(gpu_schema());
  for (const auto& p : gpu_schema().params) EXPECT_NE(md.find("`" + p.path + "`"), std::string::npos) << p.path;
  EXPECT_NE(md.find("| `l2.size` | bytes |"), std::string::npos);
}

TEST(Config, ShowRendersValuesThatParseBack) {
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"), "", {}});
  std::string yaml = render_yaml(gpu_schema(), cfg.gpu.value);
  auto dir = test::temp_dir("roundtrip");
  auto again = load_configs(ConfigInputs{test::write_file(dir / "g.yaml", yaml), "", {}});
  EXPECT_EQ(render_yaml(gpu_schema(), again.gpu.value), yaml);
}

}  // namespace
}  // namespace gms

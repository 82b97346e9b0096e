// order-from-asm on real compiler output (tests/data/asm/README.md says how each file was made).
#include "asm/order_from_asm.h"

#include <gtest/gtest.h>

#include "api/simulation.h"
#include "common/error.h"
#include "test_util.h"

namespace gms {
namespace {

std::string data(const std::string& f) { return test::source_path("tests/data/asm/" + f); }

struct Case {
  const char* file;
  const char* kernel;  // template argument 0 = llcc, 1 = lclc
  const char* format;
  const char* pattern;
};

class RealCompilerOutput : public ::testing::TestWithParam<Case> {};

TEST_P(RealCompilerOutput, RecoversTheOrderTheCodeHolds) {
  const Case& c = GetParam();
  OrderExtract x = order_from_asm(data(c.file), "auto", c.kernel, 2);
  EXPECT_STREQ(asm_format_name(x.format), c.format);
  EXPECT_EQ(x.pattern, c.pattern) << c.file << " " << c.kernel << "\n" << x.runs;
  EXPECT_GT(x.count(AsmOp::kGlobalLoad), 0);
  EXPECT_GT(x.count(AsmOp::kCompute), 0);
  EXPECT_EQ(x.count(AsmOp::kAtomic), 8) << "BLOCK_N 256 / 32 lanes of atomics";
  EXPECT_EQ(x.kernels.size(), c.format == std::string("SASS") ? 1u : 2u);
}

// PTX, AMDGCN and LLVM IR keep the source order; SASS shows that ptxas interleaved the llcc kernel.
INSTANTIATE_TEST_SUITE_P(
    Formats, RealCompilerOutput,
    ::testing::Values(Case{"gemv_orders.sm90.ptx", "Li128ELi0E", "PTX", "L0 L1 C0 C1"},
                      Case{"gemv_orders.sm90.ptx", "Li128ELi1E", "PTX", "L0 C0 L1 C1"},
                      Case{"gemv_orders.gfx906.amdgcn", "Li128ELi0E", "AMDGCN", "L0 L1 C0 C1"},
                      Case{"gemv_orders.gfx906.amdgcn", "Li128ELi1E", "AMDGCN", "L0 C0 L1 C1"},
                      Case{"gemv_orders.gfx906.llir", "Li128ELi0E", "LLVM IR", "L0 L1 C0 C1"},
                      Case{"gemv_orders.gfx906.llir", "Li128ELi1E", "LLVM IR", "L0 C0 L1 C1"},
                      Case{"gemv_w4_llcc.sm90.sass", "", "SASS", "L0 C0 L1 C1"},
                      Case{"gemv_w4_lclc.sm90.sass", "", "SASS", "L0 C0 L1 C1"}));

TEST(OrderFromAsm, PtxCountsMatchTheKernel) {
  OrderExtract x = order_from_asm(data("gemv_orders.sm90.ptx"), "ptx", "Li128ELi0E", 2);
  EXPECT_EQ(x.count(AsmOp::kGlobalLoad), 64);  // 2 steps x (16 W vectors + 16 x values) per thread
  EXPECT_EQ(x.count(AsmOp::kLocal), 0);
  EXPECT_EQ(x.runs.rfind("L64 C256", 0), 0u) << x.runs;
  // The AMDGCN build keeps the W vectors in scratch: local (spill) traffic.
  EXPECT_GT(order_from_asm(data("gemv_orders.gfx906.amdgcn"), "auto", "Li128ELi0E", 2).count(AsmOp::kLocal), 50);
}

TEST(OrderFromAsm, FoldsToAnyStepCountAndTheWorkloadAcceptsIt) {
  OrderExtract x = order_from_asm(data("gemv_orders.sm90.ptx"), "auto", "Li128ELi1E", 4);
  EXPECT_EQ(x.pattern, "L0 L1 C0 C1 L2 L3 C2 C3");
  auto cfg = load_configs(ConfigInputs{test::source_path("configs/gpus/h100.yaml"),
                                       test::source_path("configs/workloads/seed001-gemv-llcc.yaml"),
                                       {"workload.k_steps=4", "workload.block.k=32", "workload.order=" + x.pattern},
                                       false});
  EXPECT_EQ(cfg.workload.value.gemv.order, x.pattern);
}

TEST(OrderFromAsm, FoldOrderNeverComputesBeforeLoading) {
  using O = AsmOp;
  EXPECT_EQ(fold_order({O::kGlobalLoad, O::kCompute, O::kGlobalLoad, O::kCompute}, 2), "L0 C0 L1 C1");
  EXPECT_EQ(fold_order({O::kGlobalLoad, O::kGlobalLoad, O::kCompute, O::kCompute}, 2), "L0 L1 C0 C1");
  // Math that runs ahead of its share of the loads pulls the load forward.
  EXPECT_EQ(fold_order({O::kCompute, O::kGlobalLoad, O::kCompute, O::kGlobalLoad}, 2), "L0 C0 L1 C1");
}

// Triton's Hopper GEMM (validate/scripts/triton_gemm_asm.py on the H100, Triton 3.6.0): a prologue
// of stages-1 cp.async groups, then a loop of wgmma + one cp.async group. The loop is the body, the
// prologue gives the prefetch distance, and the pipelined order keeps the MMAs first.
TEST(OrderFromAsm, SoftwarePipelinedTritonGemmLoop) {
  struct Case {
    const char* file;
    int loads, math, distance;
  } cases[] = {{"triton_gemm_128x128x64_w4_s3.sm90.ptx", 16, 8, 2},
               {"triton_gemm_128x128x64_w4_s3.sm90.sass", 18, 8, 2},
               {"triton_gemm_64x128x32_w4_s4.sm90.ptx", 6, 2, 3}};
  for (const auto& c : cases) {
    OrderExtract x = order_from_asm(data(c.file), "auto", "", 0);
    EXPECT_TRUE(x.kernel.loop) << c.file;
    EXPECT_EQ(x.count(AsmOp::kGlobalLoad), c.loads) << c.file;
    EXPECT_EQ(x.count(AsmOp::kCompute), c.math) << c.file;
    EXPECT_EQ(x.kernel.prefetch_distance, c.distance) << c.file;
    EXPECT_EQ(x.kernel.prologue_loads, c.distance * c.loads) << c.file;
    EXPECT_EQ(x.steps, 1) << c.file;
    EXPECT_EQ(x.pattern, "C0 L0") << c.file;
  }
  // The GEMV kernels keep their straight-line bodies and the load-before-use folding.
  OrderExtract g = order_from_asm(data("gemv_w4_llcc.sm90.sass"), "auto", "", 0);
  EXPECT_EQ(g.kernel.prefetch_distance, 0);
  EXPECT_EQ(g.steps, 2);
  using O = AsmOp;
  EXPECT_EQ(fold_order({O::kCompute, O::kGlobalLoad, O::kCompute, O::kGlobalLoad}, 2, true), "C0 L0 C1 L1");
}

TEST(OrderFromAsm, BadInputIsAUserError) {
  auto dir = test::temp_dir("asm_bad");
  auto expect_error = [](const std::string& path, const std::string& fmt, const std::string& kernel, int steps,
                         const std::string& want) {
    try {
      order_from_asm(path, fmt, kernel, steps);
      ADD_FAILURE() << path;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
    }
  };
  expect_error(test::write_file(dir / "notes.txt", "hello\nworld\n"), "auto", "", 2, "not PTX, SASS");
  expect_error((dir / "missing.ptx").string(), "auto", "", 2, "cannot open");
  expect_error(data("gemv_orders.sm90.ptx"), "auto", "nosuchkernel", 2, "no kernel matches 'nosuchkernel' (kernels: _ZN4gmsv");
  expect_error(data("gemv_orders.sm90.ptx"), "cubin", "", 2, "--format cubin");
  expect_error(data("gemv_orders.sm90.ptx"), "auto", "", 65, "--steps 65");
  expect_error(test::write_file(dir / "empty.ptx", ".version 8.0\n.target sm_90\n"), "auto", "", 2, "no kernel found");
}

}  // namespace
}  // namespace gms

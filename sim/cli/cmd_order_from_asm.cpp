#include <iostream>

#include "asm/order_from_asm.h"
#include "cli/commands.h"
#include "cli/options.h"

namespace gms::cli {

int cmd_order_from_asm(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim order-from-asm options");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  std::string file, format, kernel;
  int steps = 0;
  bool show_runs = false;
  desc.add_options()("file", po::value(&file)->required(), "PTX, SASS (cuobjdump -sass), AMDGCN (.amdgcn/.s) or LLVM IR (.llir/.ll)")(
      "format", po::value(&format)->default_value("auto"), "auto | ptx | sass | amdgcn | llir")(
      "kernel,k", po::value(&kernel)->default_value(""), "a substring of the kernel name (default: first with loads)")(
      "steps", po::value(&steps)->default_value(0),
      "K steps to fold the body into (the workload's k_steps); 0 = auto: 1 for a software-pipelined loop, else 2")(
      "runs", po::bool_switch(&show_runs), "also print every run of loads (L), math (C), shared (S), local (X), atomics (A), stores (W)");
  if (!parse_options(args, desc, vm, "usage: gpumemsim order-from-asm FILE [--kernel NAME] [--steps N] [--format F]", &pos))
    return 0;
  OrderExtract x = order_from_asm(file, format, kernel, steps);
  std::cout << "# order-from-asm " << file << ": " << asm_format_name(x.format) << ", kernel " << x.kernel.name << "\n";
  std::cout << "# " << (x.kernel.loop ? "loop body" : "straight-line body") << ", lines " << x.kernel.body_first << "-"
            << x.kernel.body_last << ": " << x.count(AsmOp::kGlobalLoad) << " global loads, "
            << x.count(AsmOp::kCompute) << " arithmetic, " << x.count(AsmOp::kShared) << " shared, "
            << x.count(AsmOp::kLocal) << " local (spill), " << x.count(AsmOp::kAtomic) << " atomics, "
            << x.count(AsmOp::kGlobalStore) << " global stores\n";
  if (show_runs) std::cout << "# runs: " << x.runs << "\n";
  if (x.kernel.prefetch_distance > 0)
    std::cout << "# software-pipelined: " << x.kernel.prologue_loads << " loads before the loop = "
              << x.kernel.prefetch_distance << " iteration" << (x.kernel.prefetch_distance > 1 ? "s" : "")
              << " ahead (prefetch distance; stages " << x.kernel.prefetch_distance + 1 << ")\n";
  if (x.kernel.prefetch_distance > 0)  // a GEMM main loop: kind gemm takes order and stages
    std::cout << "# replay (kind gemm): --set workload.stages=" << x.kernel.prefetch_distance + 1 << " --set \"workload.order="
              << x.pattern << "\"\n";
  else
    std::cout << "# replay: --set workload.k_steps=" << x.steps << " --set \"workload.order=" << x.pattern << "\"\n";
  std::cout << "k_steps: " << x.steps << "\norder: \"" << x.pattern << "\"\n";
  if (x.kernel.prefetch_distance > 0) std::cout << "stages: " << x.kernel.prefetch_distance + 1 << "\n";
  return 0;
}

}  // namespace gms::cli

// gpumemsim command line. Each subcommand parses its own options; user errors end with one line on
// stderr and exit code 2, internal errors abort from SIM_ASSERT.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "common/error.h"
#include "common/version.h"
#include "dist/ranks.h"

namespace {

const char* kUsage =
    "gpumemsim - cycle-approximate GPU memory-hierarchy simulator\n"
    "\n"
    "usage: gpumemsim <command> [options]   (gpumemsim <command> --help for its options; --version)\n"
    "\n"
    "commands:\n"
    "  run            simulate a workload on a GPU; print a summary, write stats.json and ctas.csv\n"
    "  sweep          simulate a grid of --set values on all cores; write a CSV and a table\n"
    "  compare        replay measured records (validate/results) and report simulation vs silicon\n"
    "  calibrate      fit GPU parameters to measured records; write a calibrated GPU YAML with provenance\n"
    "  heatmap        draw a run's cache-hit heatmaps and timelines (PNG/SVG) and an HTML report\n"
    "  access         shared-memory banks/wavefronts or global requests/sectors of a CuTe copy or lane list\n"
    "  order-from-asm read PTX / SASS / AMDGCN / LLVM IR and print the load/compute order it holds\n"
    "  issue          a SASS loop's issue floor per iteration from its stall counts (cuobjdump -sass [+ ncu source])\n"
    "  trace info     what an Accel-Sim (NVBit) trace holds: kernels, CTAs, instructions, memory, opcodes\n"
    "  recommend      rank the tilings/warps/stages/orders of a GEMM or GEMV shape on a GPU by simulating them\n"
    "  config show    print the resolved configuration of a GPU (and workload)\n"
    "  config docs    list every configuration parameter with its unit, default and meaning\n";

int dispatch(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << "gpumemsim " << gms::version_string() << " (commit " << gms::version_commit() << ")\n";
    return 0;
  }
  std::string cmd = args[0];
  std::vector<std::string> rest(args.begin() + 1, args.end());
  try {
    // Every rank would repeat the whole job and write the same files.
    if (gms::dist::size() > 1 && cmd != "sweep" && cmd != "compare" && cmd != "calibrate" && cmd != "recommend")
      throw gms::ConfigError("'" + cmd + "' does not split over MPI ranks (sweep, compare, calibrate and recommend do): run it "
                             "without mpirun");
    if (cmd == "run") return gms::cli::cmd_run(rest);
    if (cmd == "config") return gms::cli::cmd_config(rest);
    if (cmd == "heatmap") return gms::cli::cmd_heatmap(rest);
    if (cmd == "order-from-asm") return gms::cli::cmd_order_from_asm(rest);
    if (cmd == "issue") return gms::cli::cmd_issue(rest);
    if (cmd == "sweep") return gms::cli::cmd_sweep(rest);
    if (cmd == "compare") return gms::cli::cmd_compare(rest);
    if (cmd == "calibrate") return gms::cli::cmd_calibrate(rest);
    if (cmd == "access") return gms::cli::cmd_access(rest);
    if (cmd == "trace") return gms::cli::cmd_trace(rest);
    if (cmd == "recommend") return gms::cli::cmd_recommend(rest);
    std::cerr << "gpumemsim: unknown command '" << cmd << "'\n\n" << kUsage;
    return 2;
  } catch (const gms::ConfigError& e) {
    std::cerr << "gpumemsim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "gpumemsim: error: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Under mpirun/srun: one rank per process (sweep, compare and calibrate split their work over them).
  try {
    gms::dist::init(argc, argv);
  } catch (const gms::ConfigError& e) {
    std::cerr << "gpumemsim: error: " << e.what() << "\n";
    return 2;
  }
  const int rc = dispatch(std::vector<std::string>(argv + 1, argv + argc));
  gms::dist::finalize();
  return rc;
}

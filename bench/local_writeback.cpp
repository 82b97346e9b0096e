// The model's side of gms-local-ubench --writeback / --reload (validate/results/h200/local_writeback): every case
// as silicon ran it (bench/local_rounds.h) - stores to local memory (store, swap) or to global memory laid out the
// same (fstore, fswap), the swaps loading them back each round, and loads of the global frames (fload). Prints one
// JSON line per case: the DRAM bytes written and read per launch of 200 rounds, from `kRounds` simulated (the first
// round as simulated, the rest at the later rounds' mean), and the L2's read lookups per sector the SMs asked for over
// the first two rounds (ncu's warm-up launch: far lines read once or stored before, l2.far_stores_copy_near). Read
// beside silicon by `validate/scripts/local_writeback.py DIR --model FILE` and `validate/scripts/far_store_copies.py`.
//   build/local_writeback [configs/gpus/h200.yaml] [gpu.KEY=V ...]
#include <cstdio>

#include "api/simulation.h"
#include "curve_args.h"
#include "local_rounds.h"

namespace {

constexpr int kRounds = 12;

struct Moved {
  double written = 0, read = 0;  // bytes per launch of 200 rounds
  double early_reads_per_request = 0;  // L2 read lookups per sector the SMs asked for, the first two rounds (0: no loads)
};

// The first round as simulated, the other 199 at the later rounds' mean.
Moved per_launch(const gms::GpuConfig& gpu, int ctas, int warps, bool local, bool store, bool load) {
  const auto r = gms::bench::replay_local_rounds(gpu, ctas, warps, kRounds, local, store, load);
  const double later = 199.0 / (kRounds - 1);
  return {static_cast<double>(r.first_written) + static_cast<double>(r.written - r.first_written) * later,
          static_cast<double>(r.first_read) + static_cast<double>(r.read - r.first_read) * later,
          r.early_l2_requested ? static_cast<double>(r.early_l2_reads) / static_cast<double>(r.early_l2_requested) : 0.0};
}

int run(const gms::bench::CurveArgs& args) {
  const auto cfg = gms::load_configs(gms::ConfigInputs{args.gpu_file, "", args.sets});
  const gms::GpuConfig& gpu = cfg.gpu.value;
  struct Mode {
    const char* name;
    bool local, store, load;
  };
  const Mode modes[] = {{"store", true, true, false}, {"fstore", false, true, false}, {"fload", false, false, true},
                        {"fswap", false, true, true}, {"swap", true, true, true}};
  for (const Mode& m : modes)
    for (int threads : {128, 256})
      for (int ctas : {16, 32, 48, 64, 96, gpu.sm.count}) {
        const Moved x = per_launch(gpu, ctas, threads / 32, m.local, m.store, m.load);
        std::printf("{\"mode\": \"%s\", \"ctas\": %d, \"threads\": %d, \"dram_bytes_written\": %.0f, \"dram_bytes_read\": %.0f, "
                    "\"early_l2_reads_per_requested_sector\": %.4f, \"gpu\": \"%s\"}\n",
                    m.name, ctas, threads, x.written, x.read, x.early_reads_per_request, gpu.name.c_str());
        std::fflush(stdout);
      }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return gms::bench::curve_main("local_writeback", argc, argv, run); }

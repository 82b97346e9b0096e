// The model's side of gms-local-ubench --writeback / --reload (validate/results/h200/local_writeback): each of
// `ctas` SMs (4 or 8 warps) stores its threads' 720-byte frames - a warp's 90 slots of 256 bytes one block, as
// local memory lays them out - 200 times over, to local memory (store, swap) or to global memory laid out the
// same (fstore, fswap), the swaps loading them back each round; every case as silicon ran it (frames missing a
// 28 KiB L1). Prints one JSON line per case: the DRAM bytes written and read per launch of 200 rounds, from
// `kRounds` simulated (the first round as simulated, the rest at the later rounds' mean). Read beside silicon by
// `validate/scripts/local_writeback.py DIR --model FILE`.
//   build/local_writeback [configs/gpus/h200.yaml] [gpu.KEY=V ...]
#include <cstdio>

#include "api/simulation.h"
#include "curve_args.h"
#include "model/memory_system.h"

namespace {

constexpr int kRounds = 12, kSlots = 90;

struct Moved {
  double written = 0, read = 0;  // bytes per launch of 200 rounds
};

Moved replay(const gms::GpuConfig& gpu, int ctas, int warps, bool local, bool store, bool load) {
  using namespace gms;
  MemorySystem mem(gpu);
  mem.set_l1_bytes(28 * 1024);
  const Addr base = 0x7f0000000000ull;
  Tick t = 0;
  auto each_slot = [&](auto&& fn) {
    for (int i = 0; i < kSlots; ++i)
      for (int w = 0; w < warps; ++w, t += cycles_to_ticks(8.0))
        for (int c = 0; c < ctas; ++c)
          fn(AccessCtx{c, t, nullptr, local},
             Region{base + (static_cast<Addr>(c) * warps + w) * (kSlots * 256) + static_cast<Addr>(i) * 256, 1, 256, 0});
  };
  double first_written = 0, first_read = 0;
  for (int r = 0; r < kRounds; ++r) {
    if (store) each_slot([&](const AccessCtx& ctx, const Region& reg) { local ? mem.store_local(ctx, reg) : mem.store(ctx, reg); });
    if (load) each_slot([&](const AccessCtx& ctx, const Region& reg) { mem.load(ctx, reg, !local); });
    if (r == 0) {
      first_written = static_cast<double>(mem.dram().bytes_written());
      first_read = static_cast<double>(mem.dram().bytes_read());
    }
  }
  const double later = 199.0 / (kRounds - 1);
  return {first_written + (static_cast<double>(mem.dram().bytes_written()) - first_written) * later,
          first_read + (static_cast<double>(mem.dram().bytes_read()) - first_read) * later};
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
        const Moved x = replay(gpu, ctas, threads / 32, m.local, m.store, m.load);
        std::printf("{\"mode\": \"%s\", \"ctas\": %d, \"threads\": %d, \"dram_bytes_written\": %.0f, \"dram_bytes_read\": %.0f, "
                    "\"gpu\": \"%s\"}\n",
                    m.name, ctas, threads, x.written, x.read, gpu.name.c_str());
        std::fflush(stdout);
      }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return gms::bench::curve_main("local_writeback", argc, argv, run); }

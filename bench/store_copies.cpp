// The model's side of gms-store-copy-ubench (validate/runner/store_copy_ubench.cu): every case's 16 rounds on the
// memory system alone, as silicon ran them (bench/store_rounds.h).
// Prints one JSON line per case: the DRAM bytes read and written and the L2's read lookups (hits) of the launch, from
// an emptied L2 as ncu's cache control leaves it. Read beside silicon by validate/scripts/store_copies.py.
//   build/store_copies [configs/gpus/h100.yaml] [stream_mib=N] [pause_ns=P] [gpu.KEY=V ...]
// stream_mib=N: only the cases streaming N MiB a round (and R alone) - CI's check, a quarter of the time.
// pause_ns=P: P ns (at the SM clock) between a CTA's stream steps, as gms-store-copy-ubench --pace sleeps.
#include <cstdio>
#include <stdexcept>
#include <string>

#include "api/simulation.h"
#include "curve_args.h"
#include "store_rounds.h"

namespace {

constexpr int kRounds = 16;
constexpr std::uint64_t kMiB = 1 << 20;

int run(gms::bench::CurveArgs args) {
  int only = 0, pause_ns = 0;  // stream_mib=N, pause_ns=P
  auto count = [](const std::string& arg) {  // the non-negative integer after '='
    const std::string v = arg.substr(arg.find('=') + 1);
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos)
      throw std::runtime_error("'" + arg + "': expected a non-negative integer after '='");
    return std::stoi(v);
  };
  std::erase_if(args.sets, [&](const std::string& s) {
    if (s.starts_with("stream_mib="))
      only = count(s);
    else if (s.starts_with("pause_ns="))
      pause_ns = count(s);
    else
      return false;
    return true;
  });
  const auto cfg = gms::load_configs(gms::ConfigInputs{args.gpu_file, "", args.sets});
  const gms::GpuConfig& gpu = cfg.gpu.value;
  const char* names[] = {"none", "store", "read"};
  auto print = [&](int mode, int resident_mib, int stream_mib) {
    const auto x = gms::bench::replay_store_rounds(gpu, resident_mib * kMiB, stream_mib * kMiB,
                                                   static_cast<gms::bench::Stream>(mode), kRounds,
                                                   pause_ns * 1e-9 * gpu.sm_clock);
    std::printf("{\"mode\": \"%s\", \"resident_bytes\": %llu, \"stream_bytes_per_round\": %llu, \"rounds\": %d, "
                "\"dram_bytes_read\": %llu, \"dram_bytes_write\": %llu, \"lts_sectors_op_read\": %llu, "
                "\"lts_sectors_op_read_hit\": %llu, \"pause_ns\": %d, \"gpu\": \"%s\"}\n",
                names[mode], static_cast<unsigned long long>(x.resident), static_cast<unsigned long long>(x.stream),
                kRounds, static_cast<unsigned long long>(x.read), static_cast<unsigned long long>(x.written),
                static_cast<unsigned long long>(x.l2_reads), static_cast<unsigned long long>(x.l2_read_hits),
                pause_ns, gpu.name.c_str());
    std::fflush(stdout);
  };
  for (int resident_mib : {8, 16, 24}) {
    print(0, resident_mib, 0);
    for (int stream_mib : {2, 4, 8, 16, 32}) {
      if (only && stream_mib != only) continue;
      print(1, resident_mib, stream_mib);
      print(2, resident_mib, stream_mib);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return gms::bench::curve_main("store_copies", argc, argv, run); }

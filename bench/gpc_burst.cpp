// The model's side of gms-gpc-ubench burst (validate/results/h200/gpc_burst): every SM sends 64 KB from L2 at
// once (1,024 threads x 4 16-byte loads: 128 warp instructions of 4 lines, four issued a cycle), the odd SMs
// `delay` cycles after the even ones, and each half alone. Prints per set the even and odd SMs' median burst
// latency in SM cycles (from the burst's first instruction to its last line back) and how far the even SMs'
// latency went from alone toward all at once - gpc_burst.py prints silicon's.
//   build/gpc_burst [--spread-cycles=N] [configs/gpus/h200.yaml] [gpu.KEY=V ...]
// The requests go to the MemorySystem in time order, as the engine hands them over; the data is put in L2 by a
// first burst of every SM, long before. The engine hands over a load's lines when it issues, and the SM's port
// (icnt.sm_bytes_per_cycle) times when each leaves the SM: the slices are booked for lines that reach them up to
// ~600 cycles later, ahead of other SMs' lines that reach them sooner but are handed over later.
// With gpu.l2.reads_in_arrival_order=true the lines reach the slices in the order they leave their SMs (the
// fix); --spread-cycles=N hands each SM's 128 instructions over across N cycles instead of 32 (with the port unpaced,
// gpu.icnt.sm_bytes_per_cycle=10000 gpu.icnt.sm_requests_per_cycle=100, each line is booked as it leaves the SM:
// what a memory side that takes requests in the order they arrive would see).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "api/simulation.h"
#include "curve_args.h"
#include "model/memory_system.h"

namespace {

constexpr int kInstructions = 128;
constexpr std::uint32_t kBytes = 512;  // one warp instruction: 32 lanes x 16 B
constexpr gms::Addr kBase = 0x7f0000000000ull, kWindow = 128 << 10;

// Median burst latency (SM cycles) of the even and of the odd SMs that take part (parity -1: all).
std::pair<double, double> bursts(const gms::GpuConfig& gpu, int parity, std::int64_t odd_delay, std::int64_t spread) {
  gms::MemorySystem mem(gpu);
  const int sms = gpu.sm.count;
  const bool in_order = mem.reads_in_arrival_order();
  auto addr = [](int sm, int k) {  // instruction k = u x 32 + warp: the warp's 512 B of the u-th 16 KB
    return kBase + static_cast<gms::Addr>(sm) * kWindow + static_cast<gms::Addr>(k / 32) * 16384 + static_cast<gms::Addr>(k % 32) * kBytes;
  };
  // (cycle, sm, instruction) in the order the engine would hand them over.
  auto round = [&](std::int64_t start, bool measured, std::vector<gms::Tick>& done) {
    std::vector<std::tuple<std::int64_t, int, int>> order;
    for (int sm = 0; sm < sms; ++sm) {
      if (measured && parity >= 0 && sm % 2 != parity) continue;
      const std::int64_t t0 = start + (measured && sm % 2 ? odd_delay : 0);
      for (int k = 0; k < kInstructions; ++k) order.emplace_back(t0 + k * spread / kInstructions, sm, k);
    }
    std::sort(order.begin(), order.end());
    done.assign(static_cast<size_t>(sms), 0);
    for (const auto& [cycle, sm, k] : order) {
      const gms::Tick t = gms::cycles_to_ticks(static_cast<std::uint64_t>(cycle));
      const gms::AccessCtx ctx{sm, t, nullptr};
      const gms::Region region{addr(sm, k), 1, kBytes, 0};
      const gms::Tick d = in_order ? mem.load_in_order(ctx, region, true, gms::EvictHint::kNormal, static_cast<std::uint32_t>(sm)).known
                                   : mem.load(ctx, region, true);
      done[static_cast<size_t>(sm)] = std::max(done[static_cast<size_t>(sm)], d);
    }
    // l2.reads_in_arrival_order: the lines reach L2 in the order they left their SMs (as the engine hands them
    // over: every issue of a round is known, and an SM's port serves its own in issue order).
    gms::MemorySystem::Completed c;
    while (mem.next_departure() != gms::kNever)
      if (mem.take_next_request(&c)) done[c.owner] = std::max(done[c.owner], c.done);
  };
  std::vector<gms::Tick> done;
  round(0, false, done);  // the data into L2
  const std::int64_t start = 1000000;
  round(start, true, done);
  std::vector<double> even, odd;
  for (int sm = 0; sm < sms; ++sm) {
    if (parity >= 0 && sm % 2 != parity) continue;
    const std::int64_t t0 = start + (sm % 2 ? odd_delay : 0);
    const double cycles = static_cast<double>(done[static_cast<size_t>(sm)]) / gms::kTicksPerCycle - static_cast<double>(t0);
    (sm % 2 ? odd : even).push_back(cycles);
  }
  auto median = [](std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  return {median(even), median(odd)};
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t spread = 32;  // four instructions a cycle
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--spread-cycles=", 16) == 0) {
      spread = std::max<std::int64_t>(1, std::atoll(argv[i] + 16));
      continue;
    }
    args.push_back(argv[i]);
  }
  return gms::bench::curve_main("gpc_burst", static_cast<int>(args.size()), args.data(), [&](const gms::bench::CurveArgs& a) {
    auto cfg = gms::load_configs(gms::ConfigInputs{a.gpu_file, "", a.sets});
    const gms::GpuConfig& gpu = cfg.gpu.value;
    const double alone_even = bursts(gpu, 0, 0, spread).first, alone_odd = bursts(gpu, 1, 0, spread).second;
    const auto together = bursts(gpu, -1, 0, spread);
    std::printf("# %s (model): 64 KB bursts from L2, latency in SM cycles (median over SMs; an SM's instructions over %lld cycles)\n",
                gpu.name.c_str(), static_cast<long long>(spread));
    std::printf("even SMs alone %.0f, odd SMs alone %.0f, all at once %.0f / %.0f\n", alone_even, alone_odd, together.first,
                together.second);
    std::printf("| set | even SMs | odd SMs | even: alone -> together |\n|---|---|---|---|\n");
    for (std::int64_t d : {0, 250, 500, 1000, 2000, 4000}) {
      const auto [e, o] = bursts(gpu, -1, d, spread);
      std::printf("| all, odd late %lld | %.0f | %.0f | %.2f |\n", static_cast<long long>(d), e, o,
                  (e - alone_even) / (together.first - alone_even));
    }
    return 0;
  });
}

// The model's side of gms-inflight-ubench (validate/results/h100/inflight): 4 SMs, W warps each; per
// round a warp issues K independent loads (one per cycle) and the next round starts when the last
// has returned plus the loop's own cycles. Patterns as on silicon: `sector` (32 one-sector line
// requests per load) and `line` (4 four-sector lines); sources `l2` (a 16 MiB window, warmed) and
// `dram` (each line once). Prints the model's cycles per round and lines per SM cycle next to
// silicon's, from the memory system alone (its SM port, miss slots, L2 and DRAM).
//   build/inflight_curve [--check] [configs/gpus/h100.yaml] [validate/results/h100/inflight/inflight_ubench.jsonl] [gpu.KEY=V ...]
// --check: exit 1 unless every saturated L2 point (2,048+ lines in flight per SM) is within 3 % of silicon
// (and only those are timed: the rest of the curve is printed without it).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "curve_args.h"
#include "model/memory_system.h"

namespace {

constexpr int kSms = 4, kRounds = 64;
constexpr gms::Addr kBase = 0x7f0000000000ull;
constexpr std::uint64_t kL2Bytes = 16ull << 20, kDramBytes = 1ull << 30;
// The silicon loop's own cycles per round beyond the loads' latency (address arithmetic, the xor
// chain, the loop branch): its 1-warp 1-load L2 round is 360 cycles against a 273-cycle hit.
constexpr std::uint64_t kLoopCycles = 80;

struct Key {
  std::string pattern, source;
  int warps, k;
  bool operator<(const Key& o) const { return std::tie(pattern, source, warps, k) < std::tie(o.pattern, o.source, o.warps, o.k); }
};

// Load j of round r of warp w on SM s: a chunk of 4 KB (32 lines, 4 B each) or 512 B.
gms::Region chunk(bool sector, std::uint64_t index, std::uint64_t chunks) {
  const std::uint64_t bytes = sector ? 4096 : 512;
  const gms::Addr base = kBase + (index & (chunks - 1)) * bytes;
  return sector ? gms::Region{base, 32, 4, 128, -1, 0} : gms::Region{base, 1, 512, 0, -1, 0};
}

// Median over SMs of cycles per round.
double measure(const gms::GpuConfig& gpu, bool sector, bool dram, int warps, int k) {
  gms::MemorySystem mem(gpu);
  const std::uint64_t chunks = (dram ? kDramBytes : kL2Bytes) / (sector ? 4096 : 512);
  gms::Tick t = 0;
  if (!dram)  // every line of the window in L2, spaced out so nothing queues
    for (std::uint64_t c = 0; c < chunks; ++c, t += gms::cycles_to_ticks(sector ? 40 : 8))
      mem.load({static_cast<int>(c % kSms), t, nullptr}, chunk(sector, c, chunks), true, gms::EvictHint::kNormal);
  const gms::Tick start = t + gms::cycles_to_ticks(100000);
  using Ev = std::tuple<gms::Tick, int, int>;  // (time, sm, warp): ties in (sm, warp) order
  std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
  std::vector<int> round(static_cast<std::size_t>(kSms) * warps, 0);
  std::vector<gms::Tick> end(kSms, start);
  for (int s = 0; s < kSms; ++s)
    for (int w = 0; w < warps; ++w) q.emplace(start, s, w);
  while (!q.empty()) {
    auto [now, s, w] = q.top();
    q.pop();
    int& r = round[static_cast<std::size_t>(s) * warps + w];
    if (r == kRounds) {
      end[s] = std::max(end[s], now);
      continue;
    }
    gms::Tick done = now;
    const std::uint64_t first = ((static_cast<std::uint64_t>(r) * kSms + s) * warps + w) * k;
    for (int j = 0; j < k; ++j)
      done = std::max(done, mem.load({s, now + gms::cycles_to_ticks(j), nullptr}, chunk(sector, first + j, chunks), true,
                                     gms::EvictHint::kNormal));
    ++r;
    q.emplace(done + gms::cycles_to_ticks(kLoopCycles), s, w);
  }
  std::vector<double> per_round;
  for (int s = 0; s < kSms; ++s) per_round.push_back(gms::ticks_to_cycles(end[s] - start) / kRounds);
  std::sort(per_round.begin(), per_round.end());
  return per_round[per_round.size() / 2];
}

}  // namespace

int run(const gms::bench::CurveArgs& args) {
  int checked = 0, off = 0;
  const auto cfg = gms::load_configs(gms::ConfigInputs{args.gpu_file, "", args.sets});
  std::map<Key, std::pair<double, double>> silicon;  // cycles per round, lines per cycle
  if (!args.silicon_file.empty()) {
    std::ifstream in(args.silicon_file);
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      silicon[{j["pattern"], j["source"], j["warps"], j["loads_per_warp"]}] = {j["cycles_per_round"], j["lines_per_cycle_per_sm"]};
    }
  }
  std::printf("%-7s %-5s %5s %4s %9s | %12s %12s | %12s %12s\n", "pattern", "src", "warps", "K", "in flight", "model cyc/rd",
              "model lines/c", "si cyc/rd", "si lines/c");
  for (bool sector : {true, false})
    for (bool dram : {false, true})
      for (int warps : {1, 4, 16, 32})
        for (int k : {1, 4, 16}) {
          const int lines = warps * k * (sector ? 32 : 4);
          if (args.check && (dram || lines < 2048)) continue;  // --check times only the points it checks
          const double cyc = measure(cfg.gpu.value, sector, dram, warps, k);
          const auto it = silicon.find({sector ? "sector" : "line", dram ? "dram" : "l2", warps, k});
          std::printf("%-7s %-5s %5d %4d %9d | %12.1f %12.3f", sector ? "sector" : "line", dram ? "dram" : "l2", warps, k,
                      lines, cyc, lines / cyc);
          if (it != silicon.end()) {
            std::printf(" | %12.1f %12.3f", it->second.first, it->second.second);
            if (!dram && lines >= 2048) {
              ++checked;
              const bool ok = std::abs(lines / cyc - it->second.second) <= 0.03 * it->second.second;
              off += !ok;
              if (!ok) std::printf("  <- more than 3 %% from silicon");
            }
          }
          std::printf("\n");
          std::fflush(stdout);
        }
  if (args.check) {
    std::printf("%d saturated L2 points checked, %d more than 3 %% from silicon\n", checked, off);
    return checked > 0 && off == 0 ? 0 : 1;
  }
  return 0;
}

int main(int argc, char** argv) { return gms::bench::curve_main("inflight_curve", argc, argv, run); }

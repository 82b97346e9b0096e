// The model's side of gms-tma-ubench (validate/results/<gpu>/tma): C SMs with one warp each; per
// round the warp issues K bulk tensor copies of a box of R x 128 B (its SM's copy engine takes
// sm.tma_box_cycles per box, the lines share the SM's port) and the next round starts when the last
// has landed plus the loop's own cycles. Source: a 16 MiB window (L2 hits: the copies of a warm-up
// launch brought the lines in), as on silicon.
// Prints the model's cycles per round and lines per SM cycle next to silicon's, from the memory
// system alone.
//   build/tma_curve [--check] [configs/gpus/h100.yaml] [validate/results/h100/tma/tma_ubench.jsonl] [gpu.KEY=V ...]
// --check: exit 1 unless, on 4 SMs, the copy engine's time per box (what one more 8-row box adds to a
// round, from 16 to 32 boxes: the fixed costs cancel) and the port's saturated rate (lines per cycle
// of 64- and 256-row boxes at the most lines in flight, 1,024, as inflight_curve checks the LDG path)
// are within 5 % of silicon's (the whole GPU's rows, printed without it, are left out).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "curve_args.h"
#include "model/memory_system.h"

namespace {

constexpr int kRounds = 64;
constexpr gms::Addr kBase = 0x7f0000000000ull;
constexpr std::uint64_t kL2Bytes = 16ull << 20, kRowBytes = 128;
// The silicon loop's own cycles per round beyond the copies (arming the mbarrier, the try-wait loop,
// the branch): its one-box 8-row round is 464 cycles, the model's copy alone ~280. It cancels in the
// checked slopes.
constexpr std::uint64_t kLoopCycles = 180;

struct Key {
  int ctas, rows, k;
  bool operator<(const Key& o) const { return std::tie(ctas, rows, k) < std::tie(o.ctas, o.rows, o.k); }
};

// Median over SMs of cycles per round, in a second launch of the same copies (silicon's: a warm-up
// launch first, then the timed ones; every CTA on the SM it had, so each line is in L2 and, where the
// L2 keeps copies of far lines, in the reading SM's partition).
double measure(const gms::GpuConfig& gpu, int ctas, int rows, int k) {
  gms::MemorySystem mem(gpu);
  const std::uint64_t total_rows = kL2Bytes / kRowBytes;
  gms::Tick start = 0;
  std::vector<gms::Tick> now;
  for (int launch = 0; launch < 2; ++launch) {
    now.assign(static_cast<std::size_t>(ctas), start);
    // Rounds of different SMs do not interact but through the memory system; advancing them in
    // round order keeps its servers' arrivals nearly in time order.
    for (int r = 0; r < kRounds; ++r)
      for (int c = 0; c < ctas; ++c) {
        gms::Tick done = now[c];
        for (int j = 0; j < k; ++j) {
          const std::uint64_t box = (static_cast<std::uint64_t>(r) * ctas + c) * k + j;
          const std::uint64_t y = (box * rows) & (total_rows - 1);
          const gms::Region region{kBase + y * kRowBytes, static_cast<std::uint32_t>(rows),
                                   static_cast<std::uint32_t>(kRowBytes), kRowBytes, -1, 0};
          done = std::max(done, mem.tma_load({c, now[c], nullptr}, region, 1));
        }
        now[c] = done + gms::cycles_to_ticks(kLoopCycles);
      }
    if (launch == 0) start = *std::max_element(now.begin(), now.end()) + gms::cycles_to_ticks(100000);
  }
  std::vector<double> per_round;
  for (int c = 0; c < ctas; ++c) per_round.push_back(gms::ticks_to_cycles(now[c] - start) / kRounds);
  std::sort(per_round.begin(), per_round.end());
  return per_round[per_round.size() / 2];
}

}  // namespace

int run(const gms::bench::CurveArgs& args) {
  const auto cfg = gms::load_configs(gms::ConfigInputs{args.gpu_file, "", args.sets});
  const int sms = cfg.gpu.value.sm.count;
  std::map<Key, double> silicon;  // cycles per round
  if (!args.silicon_file.empty()) {
    std::ifstream in(args.silicon_file);
    for (std::string line; std::getline(in, line);) {
      const auto j = nlohmann::json::parse(line);
      if (j["source"] == "l2") silicon[{j["ctas"], j["box_rows"], j["copies_per_round"]}] = j["cycles_per_round"];
    }
  }
  std::printf("%5s %5s %4s %9s | %12s %13s | %12s %13s\n", "SMs", "rows", "K", "in flight", "model cyc/rd", "model lines/c",
              "si cyc/rd", "si lines/c");
  int checked = 0, off = 0;
  // The whole GPU's rows are shown for comparison, not checked: --check leaves them out (they are 94 %
  // of the run's time: CI runs it for both presets).
  std::vector<int> grids{4};
  if (!args.check) grids.push_back(sms);
  for (int ctas : grids)
    for (int rows : {8, 64, 256}) {
      std::vector<std::tuple<int, double, double>> series;  // K, model, silicon cycles per round
      for (int k : {1, 2, 4, 8, 16, 32, 64}) {
        if (static_cast<std::uint64_t>(k) * rows * kRowBytes > (192u << 10)) continue;
        const double cyc = measure(cfg.gpu.value, ctas, rows, k);
        const int lines = k * rows;
        std::printf("%5d %5d %4d %9d | %12.1f %13.3f", ctas, rows, k, lines, cyc, lines / cyc);
        const auto it = silicon.find({ctas, rows, k});
        if (it != silicon.end()) {
          std::printf(" | %12.1f %13.3f", it->second, lines / it->second);
          if (rows > 8 || k == 16 || k == 32) series.emplace_back(k, cyc, it->second);
        }
        std::printf("\n");
        std::fflush(stdout);
      }
      if (ctas != 4 || series.size() < 2) continue;
      const auto [k0, m0, s0] = series[series.size() - 2];
      const auto [k1, m1, s1] = series.back();
      const bool engine = rows == 8;
      // Engine: cycles one more box adds. Port: lines per cycle at the most lines in flight.
      const double model = engine ? (m1 - m0) / (k1 - k0) : k1 * rows / m1, si = engine ? (s1 - s0) / (k1 - k0) : k1 * rows / s1;
      const bool ok = std::abs(model - si) <= 0.05 * si;
      ++checked;
      off += !ok;
      if (engine)
        std::printf("  %d-row boxes on 4 SMs: one more box adds %.1f cycles (silicon %.1f)%s\n", rows, model, si,
                    ok ? "" : "  <- more than 5 % from silicon");
      else
        std::printf("  %d-row boxes on 4 SMs, %d lines in flight: %.3f lines per cycle (silicon %.3f)%s\n", rows, k1 * rows,
                    model, si, ok ? "" : "  <- more than 5 % from silicon");
    }
  if (args.check) {
    std::printf("%d box sizes checked, %d more than 5 %% from silicon\n", checked, off);
    return checked > 0 && off == 0 ? 0 : 1;
  }
  return 0;
}

int main(int argc, char** argv) { return gms::bench::curve_main("tma_curve", argc, argv, run); }

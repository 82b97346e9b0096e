// The model's side of gms-store-ubench mix (validate/results/h200/store_mix): one CTA of 32 warps on one
// SM - warps 0-3 store the WMMA epilogue's half sectors (64 STG.E of 8 rows x 16 B a round, rows 32 KiB
// apart), 4-28 of warps 4-31 load lines past L1 (4 instructions of 4 whole lines, then wait for them), alone
// and at once; with both, the loaders stop when the storers are done, as on silicon. Prints per case the
// storers' half sectors and the loaders' lines per SM cycle, the model's beside silicon's (medians of its
// three repetitions).
//   build/store_mix [configs/gpus/h200.yaml] [validate/results/h200/store_mix/store_mix_run.jsonl] [gpu.KEY=V ...]
// The model's L2 starts empty where silicon's was warm: each loader walks its 2,048 lines 128 times over.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "curve_args.h"
#include "model/engine.h"
#include "workload/program.h"

namespace {

constexpr int kWarps = 32, kStoreWarps = 4, kLinesPerLoader = 2048, kRounds = 40;
constexpr gms::Addr kPitch = 32768, kStoreBase = 0x10000000, kLoadBase = 0x20000000;

// Cases: 1 stores alone, 2 loads alone, 3 both.
class StoreLoadMix final : public gms::Kernel {
 public:
  StoreLoadMix(int mode, int loaders) : mode_(mode), loaders_(loaders) {}
  std::string name() const override { return "store_load_mix"; }
  gms::LaunchShape shape() const override {
    gms::LaunchShape s;
    s.ctas = s.grid_ctas = 1;
    s.warps_per_cta = kWarps;
    s.registers_per_thread = 32;
    s.tiles_m = s.tiles_n = 1;
    return s;
  }
  gms::TileCoord tile_of(std::int64_t) const override { return {}; }
  void start_warp(gms::WarpCursor& c, std::int64_t, int warp) const override {
    c = gms::WarpCursor{};
    c.warp = warp;
  }
  double compulsory_bytes() const override { return 0; }
  double flops() const override { return 0; }
  void next(gms::WarpCursor& c, gms::Instr& out) const override {
    out = gms::Instr{};
    const std::int64_t i = c.step++;
    if (c.warp < kStoreWarps) {  // 64 stores a round, each 8 rows x 16 B of the warp's own 64 x 128 B tile
      if (!(mode_ & 1) || i >= 64LL * kRounds) {
        stores_done_ += (mode_ & 1) != 0;
        out.op = gms::Op::kExit;
        return;
      }
      out.op = gms::Op::kStore;
      const gms::Addr tile = kStoreBase + static_cast<gms::Addr>(c.warp) * 128;
      out.region = gms::Region{tile + static_cast<gms::Addr>(i % 64 / 8) * 8 * kPitch + static_cast<gms::Addr>(i % 8) * 16, 8, 16, kPitch};
      return;
    }
    // A loader's round: 4 loads of 4 lines, then a wait for them; it stops when the storers are done (alone:
    // after as many rounds as the storers have instructions).
    const std::int64_t round = i / 5, k = i % 5;
    const bool stop = !(mode_ & 2) || c.warp - kStoreWarps >= loaders_ ||
                      ((mode_ & 1) ? stores_done_ == kStoreWarps : round >= 64LL * kRounds);
    if (k == 0 && stop) {
      out.op = gms::Op::kExit;
      return;
    }
    if (k == 4) {
      out.op = gms::Op::kWait;
      return;
    }
    out.op = gms::Op::kLoad;
    out.bypass_l1 = true;
    const gms::Addr base = kLoadBase + static_cast<gms::Addr>(c.warp - kStoreWarps) * kLinesPerLoader * 128;
    out.region = gms::Region{base + static_cast<gms::Addr>((round * 16 + 4 * k) % kLinesPerLoader) * 128, 1, 512, 0};
    ++loads_;
  }
  std::int64_t loads() const { return loads_; }

 private:
  int mode_, loaders_;
  // The kernel is the test's own: its warps' progress is shared state the engine reads through next().
  mutable int stores_done_ = 0;
  mutable std::int64_t loads_ = 0;
};

const char* kCase[] = {"", "stores", "loads", "stores + loads"};

}  // namespace

int main(int argc, char** argv) {
  return gms::bench::curve_main("store_mix", argc, argv, [](const gms::bench::CurveArgs& a) {
    auto cfg = gms::load_configs(gms::ConfigInputs{a.gpu_file, "", a.sets});
    // Silicon's rows by (case, loader warps): its storers' and loaders' rates, one pair per repetition.
    std::map<std::pair<std::string, int>, std::vector<std::pair<double, double>>> silicon;
    if (!a.silicon_file.empty()) {
      std::ifstream in(a.silicon_file);
      if (!in) throw std::runtime_error("cannot read " + a.silicon_file);
      for (std::string line; std::getline(in, line);) {
        if (line.find("store_load_mix") == std::string::npos) continue;
        const auto j = nlohmann::json::parse(line);
        silicon[{j["case"], j.value("loaders", 28)}].emplace_back(j["store_half_sectors_per_cycle"], j["load_lines_per_cycle"]);
      }
    }
    std::printf("| case | loader warps | stores: half sectors per SM cycle, model | silicon | loads: lines per SM cycle, model | silicon |\n"
                "|---|---|---|---|---|---|\n");
    std::vector<std::pair<int, int>> cases{{1, 0}};
    for (int n : {4, 8, 16, kWarps - kStoreWarps}) cases.push_back({2, n}), cases.push_back({3, n});
    for (const auto& [mode, n] : cases) {
      StoreLoadMix kernel(mode, n);
      gms::Engine engine(cfg.gpu.value, kernel);
      const gms::SimResult r = engine.run();
      const double cycles = static_cast<double>(r.end) / gms::kTicksPerCycle;
      const double stores = (mode & 1) ? static_cast<double>(kStoreWarps) * kRounds * 64 * 8 / cycles : 0.0;
      const double loads = 4.0 * static_cast<double>(kernel.loads()) / cycles;
      auto median = [&](bool store) {
        auto it = silicon.find({kCase[mode], n});
        if (it == silicon.end()) return std::string("-");
        std::vector<double> x;
        for (auto& p : it->second) x.push_back(store ? p.first : p.second);
        std::nth_element(x.begin(), x.begin() + x.size() / 2, x.end());
        char b[32];
        std::snprintf(b, sizeof b, "%.3f", x[x.size() / 2]);
        return std::string(b);
      };
      std::printf("| %s | %d | %.3f | %s | %.3f | %s |\n", kCase[mode], n, stores, median(true).c_str(), loads, median(false).c_str());
    }
    return 0;
  });
}

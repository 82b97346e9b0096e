// The model's side of gms-l2-mix-ubench (validate/results/h200/l2_mix): one CTA per SM, its first H warps
// streaming whole-line hits over a 16 MiB buffer, its next M warps whole-line misses over 4 GiB (evict-first),
// each warp 16 loads of 4 lines (one 8 KB window of the grid's round, as the ubench walks them) and then a
// wait for them. Prints per (H, M) the L2's hit and miss sectors per second in the window where both streams
// run, the model's beside silicon's (its ncu-free rates: bytes over the window, median of five launches).
//   build/l2_mix_curve [--check] [configs/gpus/h200.yaml] [validate/results/h200/l2_mix/l2_mix_run.jsonl] [gpu.KEY=V ...]
// --check: exit 1 unless, on every mix of silicon's file, the model's hits + misses are within 15 % of
// silicon's and where the path is full (silicon's total >= 90 % of its hits-alone ceiling) the model's
// total is within 15 % of the model's own hits-alone ceiling: a fill's data takes the same path as a hit's.
// The model's L2 starts empty: the hit warps' first passes miss, and the window starts after them.
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
#include "model/timeline.h"
#include "workload/program.h"

namespace {

constexpr int kLoadsPerRep = 16;                          // 4-line loads a repetition: one 8 KB window
constexpr gms::Addr kWindowBytes = kLoadsPerRep * 512;
constexpr gms::Addr kHitBase = 0x100000000ull, kMissBase = 0x800000000ull;
constexpr std::uint64_t kHitWindows = (16ull << 20) / kWindowBytes, kMissWindows = (4ull << 30) / kWindowBytes;
constexpr std::int64_t kHitReps = 24;      // each hit warp's repetitions; the miss warps stop when the hits are done
constexpr std::int64_t kMissOnlyReps = 12; // each miss warp's, with no hit warps
constexpr std::uint64_t kBucketCycles = 1000;

class L2Mix final : public gms::Kernel {
 public:
  L2Mix(int sms, int hit_warps, int miss_warps) : sms_(sms), hit_(hit_warps), miss_(miss_warps) {}
  std::string name() const override { return "l2_mix"; }
  gms::LaunchShape shape() const override {
    gms::LaunchShape s;
    s.ctas = s.grid_ctas = sms_;
    s.warps_per_cta = hit_ + miss_;
    s.registers_per_thread = 32;
    s.shared_mem_per_cta = 160 << 10;  // one CTA per SM, as the ubench's launch bounds make it
    s.tiles_m = s.tiles_n = 1;
    return s;
  }
  gms::TileCoord tile_of(std::int64_t) const override { return {}; }
  void start_warp(gms::WarpCursor& c, std::int64_t cta, int warp) const override {
    c = gms::WarpCursor{};
    c.cta = cta;
    c.warp = warp;
  }
  double compulsory_bytes() const override { return 0; }
  double flops() const override { return 0; }
  void next(gms::WarpCursor& c, gms::Instr& out) const override {
    out = gms::Instr{};
    const bool hit = c.warp < hit_;
    const std::int64_t rep = c.step / (kLoadsPerRep + 1), k = c.step % (kLoadsPerRep + 1);
    const bool stop = hit ? rep >= kHitReps : hit_ ? hits_done_ == hit_ * sms_ : rep >= kMissOnlyReps;
    if (k == 0 && stop) {
      hits_done_ += hit;
      out.op = gms::Op::kExit;
      return;
    }
    ++c.step;
    if (k == kLoadsPerRep) {  // the loads' data consumed: the ubench's 64 XORs and its loop
      out.op = gms::Op::kWait;
      out.other_instructions = 80;
      return;
    }
    // The warp's window of this repetition: the ubench's (me + rep * total) % windows.
    const int role = hit ? hit_ : miss_;
    const std::uint64_t me = static_cast<std::uint64_t>(c.cta) * role + (hit ? c.warp : c.warp - hit_);
    const std::uint64_t total = static_cast<std::uint64_t>(sms_) * role;
    const std::uint64_t w = (me + static_cast<std::uint64_t>(rep) * total) % (hit ? kHitWindows : kMissWindows);
    out.op = gms::Op::kLoad;
    out.bypass_l1 = true;
    out.hint = hit ? gms::EvictHint::kNormal : gms::EvictHint::kFirst;
    out.region = gms::Region{(hit ? kHitBase : kMissBase) + w * kWindowBytes + static_cast<gms::Addr>(k) * 512, 1, 512, 0};
  }

 private:
  int sms_, hit_, miss_;
  // The kernel is the bench's own: the hit warps' progress is shared state the engine reads through next().
  mutable int hits_done_ = 0;
};

struct Rates {
  double hit_tb = 0, miss_tb = 0;
};

// Hit and miss sectors per second over [30 %, 90 %] of the span in which every stream runs: from the start
// to the last bucket the first-finishing class still counts in.
Rates measure(const gms::GpuConfig& gpu, int hit_warps, int miss_warps) {
  L2Mix kernel(gpu.sm.count, hit_warps, miss_warps);
  gms::Engine engine(gpu, kernel);
  gms::Timeline timeline(gpu.sm.count, kBucketCycles);
  engine.set_timeline(&timeline);
  const gms::SimResult r = engine.run();
  const size_t buckets = timeline.bucket_count(r.end);
  std::vector<double> hits(buckets), misses(buckets);
  for (size_t b = 0; b < buckets; ++b)
    for (int s = 0; s < gpu.sm.count; ++s) {
      hits[b] += static_cast<double>(timeline.get(s, b).l2_hit_sectors);
      misses[b] += static_cast<double>(timeline.get(s, b).l2_miss_sectors);
    }
  auto last = [&](const std::vector<double>& v) {
    size_t l = 0;
    for (size_t b = 0; b < v.size(); ++b)
      if (v[b] > 0) l = b;
    return l;
  };
  const size_t end = hit_warps && miss_warps ? std::min(last(hits), last(misses)) : std::max(last(hits), last(misses));
  const size_t from = end * 3 / 10, to = end * 9 / 10;
  double h = 0, m = 0;
  for (size_t b = from; b < to; ++b) h += hits[b], m += misses[b];
  const double clock = r.sm_clock > 0 ? r.sm_clock : gpu.sm_clock;
  const double seconds = static_cast<double>((to - from) * kBucketCycles) / clock;
  return {h * gpu.l2.sector / seconds / 1e12, m * gpu.l2.sector / seconds / 1e12};
}

}  // namespace

int main(int argc, char** argv) {
  return gms::bench::curve_main("l2_mix_curve", argc, argv, [](const gms::bench::CurveArgs& a) {
    const auto cfg = gms::load_configs(gms::ConfigInputs{a.gpu_file, "", a.sets});
    std::vector<nlohmann::json> silicon;
    if (!a.silicon_file.empty()) {
      std::ifstream in(a.silicon_file);
      if (!in) throw std::runtime_error("cannot read " + a.silicon_file);
      for (std::string line; std::getline(in, line);)
        if (line.find("l2_hits_beside_misses") != std::string::npos) silicon.push_back(nlohmann::json::parse(line));
    }
    if (a.check && silicon.empty()) throw std::runtime_error("--check needs silicon's l2_mix_run.jsonl");
    if (silicon.empty())
      for (auto [h, m] : std::vector<std::pair<int, int>>{{8, 0}, {0, 16}, {8, 8}, {16, 16}})
        silicon.push_back({{"hit_warps_per_sm", h}, {"miss_warps_per_sm", m}});
    std::printf("| hit warps | miss warps | model hits TB/s | misses | total | silicon hits TB/s | misses | total |\n"
                "|---|---|---|---|---|---|---|---|\n");
    double model_ceiling = 0, silicon_ceiling = 0;
    std::vector<std::pair<Rates, nlohmann::json>> rows;
    for (const auto& j : silicon) {
      const int h = j["hit_warps_per_sm"], m = j["miss_warps_per_sm"];
      const Rates p = measure(cfg.gpu.value, h, m);
      rows.push_back({p, j});
      const double st = j.value("total_tb_per_s", 0.0);
      if (m == 0 && h != 16) model_ceiling = std::max(model_ceiling, p.hit_tb), silicon_ceiling = std::max(silicon_ceiling, st);
      std::printf("| %d | %d | %.2f | %.2f | %.2f |", h, m, p.hit_tb, p.miss_tb, p.hit_tb + p.miss_tb);
      if (j.contains("total_tb_per_s"))
        std::printf(" %.2f | %.2f | %.2f |\n", j["hit_tb_per_s"].get<double>(), j["miss_tb_per_s"].get<double>(), st);
      else
        std::printf(" - | - | - |\n");
      std::fflush(stdout);
    }
    if (!a.check) return 0;
    int bad = 0;
    for (const auto& [p, j] : rows) {
      const double model = p.hit_tb + p.miss_tb, st = j["total_tb_per_s"];
      if (j["hit_warps_per_sm"] == 16 && j["miss_warps_per_sm"] == 0) continue;  // the windows' aliasing: below
      const bool full = silicon_ceiling > 0 && model_ceiling > 0 && st >= 0.9 * silicon_ceiling && j["miss_warps_per_sm"] > 0 && j["hit_warps_per_sm"] > 0;
      if (std::abs(model / st - 1) > 0.15 || (full && model > 1.15 * model_ceiling)) {
        std::printf("off: %d hit + %d miss warps, model %.2f TB/s, silicon %.2f\n", j["hit_warps_per_sm"].get<int>(),
                    j["miss_warps_per_sm"].get<int>(), model, st);
        ++bad;
      }
    }
    std::printf("%s\n", bad ? "check failed" : "check passed");
    return bad ? 1 : 0;
  });
}

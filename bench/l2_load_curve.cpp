// The model's side of gms-l2-load-ubench (validate/results/h100/l2_load): L2 hit latency under L2
// load, from the memory system alone. Per SM, W load warps each keep 64 whole lines in flight (the
// ubench's 16 independent 4-line loads) and issue the next 64 when they return; one probe per SM
// chases single lines (the next when the last returned). Lines are L2-resident (a 16 MB buffer
// read once before). Prints, per W, the L2 read bandwidth and the probe's cycles per hop, next to
// the silicon curve when a results file is given.
// --dram: the ubench's dram mode - a 4 GiB buffer and probe rings of 1,024 lines in 16 MiB per SM,
// nothing warmed, every line read once: DRAM latency under DRAM load.
// --admit N, --per-warp K (after --dram): at most N lines per SM and K of a warp's 4-line loads in
// flight (measure_admitted).
//   build/l2_load_curve [--dram] [--admit N] [configs/gpus/h100.yaml] [validate/results/h100/l2_load/l2_load_ubench.jsonl] [gpu.KEY=V ...]
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/simulation.h"
#include "model/memory_system.h"

namespace {

constexpr std::uint32_t kLinesPerLoad = 64;
constexpr gms::Addr kBufferBase = 0x7f0000000000ull, kProbeBase = 0x7f8000000000ull;
constexpr std::uint64_t kBufferLines = (16ull << 20) / 128, kDramBufferLines = (4ull << 30) / 128;
constexpr int kProbeHops = 512, kProbeRing = 64;
constexpr std::uint64_t kDramRingLines = (16ull << 20) / 128;  // dram mode: each probe's 16 MiB
// A silicon load warp spends ~1,000 cycles per 64-line repetition at W <= 4 (8 KB x 132 x W /
// bandwidth: 1004, 1041, 1239 cycles at W = 1, 2, 4), ~700 more than a hit's latency: its loop
// (64-bit window index, the sink's dependent adds) between loads. The model's warps wait as long
// after each load returns, and start at staggered ticks as silicon's warps fall out of step;
// without both, all 132 x W bursts reach the slices at once, every round, and queue there.
constexpr std::uint64_t kThinkCycles = 700, kStaggerCycles = 1000;

struct Point {
  double tb_per_s = 0, hop_cycles = 0;
};

// Load window w (of `windows`) of the buffer: kLinesPerLoad whole lines.
gms::Region buffer_window(std::uint64_t w, std::uint64_t windows) {
  return gms::Region{kBufferBase + (w % windows) * kLinesPerLoad * 128, 1, kLinesPerLoad * 128, 0, -1, 0};
}

// Warm (L2 mode): every buffer line and every probe ring in L2, one pass spaced out so nothing
// queues; the dram mode warms nothing. Returns the tick the measurement starts at.
gms::Tick warm(gms::MemorySystem& mem, int sms, std::uint64_t windows, bool dram) {
  gms::Tick t = 0;
  for (std::uint64_t w = 0; w < (dram ? 0 : windows); ++w, t += gms::cycles_to_ticks(200))
    mem.load({static_cast<int>(w % sms), t, nullptr}, buffer_window(w, windows), true, gms::EvictHint::kNormal);
  for (int s = 0; s < (dram ? 0 : sms); ++s)
    for (int k = 0; k < kProbeRing; ++k, t += gms::cycles_to_ticks(20))
      mem.load({s, t, nullptr}, gms::Region{kProbeBase + (static_cast<gms::Addr>(s) * kProbeRing + k) * 128, 1, 4, 0, -1, 0},
               true, gms::EvictHint::kNormal);
  return t + gms::cycles_to_ticks(100000);
}

// When warp w of SM s first starts: the probe (w = 0) after the stagger, load warps anywhere in it.
gms::Tick first_start(gms::Tick start, int s, int w) {
  const std::uint64_t h = (static_cast<std::uint64_t>(s) * 131 + static_cast<std::uint64_t>(w)) * 0x9E3779B97F4A7C15ull;
  return start + gms::cycles_to_ticks(w == 0 ? kStaggerCycles : (h >> 33) % kStaggerCycles);
}

// The line of SM s's probe at hop `hop`: around its 64-line ring (L2 mode), or a pseudo-random line
// of the SM's 16 MiB, each once (dram mode).
gms::Addr probe_line(int s, int hop, bool dram) {
  const std::uint64_t mixed = (static_cast<std::uint64_t>(hop) * 0x9E3779B97F4A7C15ull) >> 40;
  return dram ? kProbeBase + (static_cast<gms::Addr>(s) * kDramRingLines + (mixed * kDramRingLines >> 24) % kDramRingLines) * 128
              : kProbeBase + (static_cast<gms::Addr>(s) * kProbeRing + (hop * 37) % kProbeRing) * 128;
}

// Each SM's probe: kProbeHops dependent hops around its ring, timed from the first (no warm-up
// hops: the load warps start at the same tick).
struct Probes {
  std::vector<int> hops;
  std::vector<gms::Tick> begin, end;
  int done = 0;
  explicit Probes(int sms) : hops(sms, 0), begin(sms, 0), end(sms, 0) {}
  // SM s's probe is ready for its next hop at `now`; false when it has made its last.
  bool next_hop(int s, gms::Tick now) {
    if (hops[s] == 0) begin[s] = now;
    if (hops[s] < kProbeHops) return true;
    end[s] = now;
    ++done;
    return false;
  }
};

// The probes' median cycles per hop, and the bandwidth over the probes' window: the loads that
// returned inside it (a saturated model queues requests into the future; counting what was issued
// would overstate what was delivered).
Point summarise(const gms::GpuConfig& gpu, gms::Tick start, const Probes& probes, const std::vector<gms::Tick>& load_done,
                int load_warps) {
  std::vector<double> per_hop;
  gms::Tick probe_last = start;
  for (size_t s = 0; s < probes.begin.size(); ++s) {
    per_hop.push_back(gms::ticks_to_cycles(probes.end[s] - probes.begin[s]) / kProbeHops);
    probe_last = std::max(probe_last, probes.end[s]);
  }
  std::sort(per_hop.begin(), per_hop.end());
  Point p;
  p.hop_cycles = per_hop[per_hop.size() / 2];
  const double seconds = gms::ticks_to_cycles(probe_last - start) / gpu.sm_clock;
  const auto delivered = std::count_if(load_done.begin(), load_done.end(), [&](gms::Tick d) { return d <= probe_last; });
  p.tb_per_s = load_warps ? static_cast<double>(delivered) * kLinesPerLoad * 128 / seconds / 1e12 : 0;
  return p;
}

Point measure(const gms::GpuConfig& gpu, int load_warps, bool dram) {
  gms::MemorySystem mem(gpu);
  const int sms = gpu.sm.count;
  const std::uint64_t windows = (dram ? kDramBufferLines : kBufferLines) / kLinesPerLoad;
  const gms::Tick start = warm(mem, sms, windows, dram);
  // Events: (time, sm, warp); warp 0 is the probe. Ties in (sm, warp) order: deterministic.
  using Ev = std::tuple<gms::Tick, int, int>;
  std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
  std::vector<std::uint64_t> next_window(static_cast<std::size_t>(sms) * (load_warps + 1));
  for (int s = 0; s < sms; ++s)
    for (int w = 0; w <= load_warps; ++w) {
      q.emplace(first_start(start, s, w), s, w);
      next_window[static_cast<std::size_t>(s) * (load_warps + 1) + w] = static_cast<std::uint64_t>(s) * load_warps + w;
    }
  Probes probes(sms);
  std::vector<gms::Tick> load_done;  // when each 64-line load returned
  const std::uint64_t total_warps = static_cast<std::uint64_t>(sms) * load_warps;
  while (!q.empty() && probes.done < sms) {
    auto [now, s, w] = q.top();
    q.pop();
    if (w == 0) {
      if (!probes.next_hop(s, now)) continue;
      const gms::Addr line = probe_line(s, probes.hops[s], dram);
      ++probes.hops[s];
      q.emplace(mem.load({s, now, nullptr}, gms::Region{line, 1, 4, 0, -1, 0}, true, gms::EvictHint::kNormal), s, 0);
      continue;
    }
    auto& nw = next_window[static_cast<std::size_t>(s) * (load_warps + 1) + w];
    const gms::Tick done = mem.load({s, now, nullptr}, buffer_window(nw, windows), true, gms::EvictHint::kNormal);
    nw += total_warps;
    load_done.push_back(done);
    q.emplace(done + gms::cycles_to_ticks(kThinkCycles), s, w);
  }
  return summarise(gpu, start, probes, load_done, load_warps);
}

// The hypothesis of the DRAM curve (validate/results/h100/l2_load/README.md): the SM keeps at most
// `cap` lines in flight and admits its warps' load instructions (4 lines each; the probe's, 1 line)
// round-robin as lines return, so a probe's request waits behind about one instruction per warp, not
// behind every line of every burst. The memory system's own MSHRs are left at their preset.
Point measure_admitted(const gms::GpuConfig& gpu, int load_warps, bool dram, int cap, int per_warp) {
  gms::MemorySystem mem(gpu);
  const int sms = gpu.sm.count, per_sm = load_warps + 1;
  const std::uint64_t windows = (dram ? kDramBufferLines : kBufferLines) / kLinesPerLoad;
  constexpr int kInstr = kLinesPerLoad / 4;  // a burst's 4-line instructions
  const gms::Tick start = warm(mem, sms, windows, dram);
  enum Kind { kDone = 0, kWake = 1 };
  using Ev = std::tuple<gms::Tick, int, int, int>;  // time, kind, sm, warp
  std::priority_queue<Ev, std::vector<Ev>, std::greater<>> q;
  const auto idx = [&](int s, int w) { return static_cast<std::size_t>(s) * per_sm + w; };
  std::vector<int> want(static_cast<std::size_t>(sms) * per_sm, 0), issued(want.size(), 0), completed(want.size(), 0);
  std::vector<std::uint64_t> window_of(want.size());
  std::vector<int> inflight(sms, 0), rr(sms, 0);
  Probes probes(sms);
  std::vector<gms::Tick> load_done;
  const std::uint64_t total_warps = static_cast<std::uint64_t>(sms) * load_warps;
  for (int s = 0; s < sms; ++s)
    for (int w = 0; w <= load_warps; ++w) {
      window_of[idx(s, w)] = static_cast<std::uint64_t>(s) * load_warps + w;
      q.emplace(first_start(start, s, w), kWake, s, w);
    }
  auto admit = [&](int s, gms::Tick now) {
    while (true) {
      int pick = -1;
      for (int k = 0; k < per_sm && pick < 0; ++k) {
        const int w = (rr[s] + k) % per_sm;
        const std::size_t j = idx(s, w);
        if (want[j] > 0 && (w == 0 || issued[j] - completed[j] < per_warp)) pick = w;
      }
      if (pick < 0) return;
      const int lines = pick == 0 ? 1 : 4;
      if (inflight[s] + lines > cap) return;
      rr[s] = (pick + 1) % per_sm;
      int& i = issued[idx(s, pick)];
      gms::Region r = pick == 0 ? gms::Region{probe_line(s, probes.hops[s], dram), 1, 4, 0, -1, 0}
                                : buffer_window(window_of[idx(s, pick)], windows);
      if (pick > 0) {  // the next 4 lines of the warp's window
        r.base += static_cast<gms::Addr>(i) * 512;
        r.row_bytes = 512;
      }
      --want[idx(s, pick)];
      ++i;
      inflight[s] += lines;
      q.emplace(mem.load({s, now, nullptr}, r, true, gms::EvictHint::kNormal), kDone, s, pick);
    }
  };
  while (!q.empty() && probes.done < sms) {
    auto [now, kind, s, w] = q.top();
    q.pop();
    const std::size_t k = idx(s, w);
    if (kind == kWake) {
      if (w == 0) {
        if (!probes.next_hop(s, now)) continue;
        want[k] = 1;
      } else {
        want[k] = kInstr;
        issued[k] = completed[k] = 0;
      }
    } else {
      inflight[s] -= w == 0 ? 1 : 4;
      if (w == 0) {
        ++probes.hops[s];
        q.emplace(now, kWake, s, 0);
      } else if (++completed[k] == kInstr) {
        load_done.push_back(now);
        window_of[k] += total_warps;
        q.emplace(now + gms::cycles_to_ticks(kThinkCycles), kWake, s, w);
      }
    }
    admit(s, now);
  }
  return summarise(gpu, start, probes, load_done, load_warps);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    const bool dram = !args.empty() && args[0] == "--dram";
    if (dram) args.erase(args.begin());
    int admit_cap = 0, per_warp = kLinesPerLoad / 4;  // --admit N [--per-warp K]: measure_admitted
    if (args.size() > 1 && args[0] == "--admit") {
      admit_cap = std::stoi(args[1]);
      args.erase(args.begin(), args.begin() + 2);
    }
    if (args.size() > 1 && args[0] == "--per-warp") {
      per_warp = std::stoi(args[1]);
      args.erase(args.begin(), args.begin() + 2);
      if (admit_cap == 0) admit_cap = 1 << 20;
    }
    const std::string gpu_file = !args.empty() ? args[0] : "configs/gpus/h100.yaml";
    std::vector<std::string> overrides;  // further arguments: gpu.KEY=VALUE
    for (size_t i = 2; i < args.size(); ++i) overrides.push_back(args[i]);
    const auto cfg = gms::load_configs(gms::ConfigInputs{gpu_file, "", overrides});
    std::map<int, nlohmann::json> silicon;
    if (args.size() > 1) {
      std::ifstream in(args[1]);
      for (std::string line; std::getline(in, line);)
        if (!line.empty()) {
          auto j = nlohmann::json::parse(line);
          silicon[j.at("load_warps_per_sm").get<int>()] = j;
        }
    }
    std::printf("load warps/SM | model TB/s | model cycles/hop | silicon TB/s | silicon cycles/hop\n");
    for (int w : {0, 1, 2, 4, 8, 12, 16, 24, 31}) {
      const Point p = admit_cap > 0 ? measure_admitted(cfg.gpu.value, w, dram, admit_cap, per_warp) : measure(cfg.gpu.value, w, dram);
      std::printf("%13d | %10.2f | %16.1f", w, p.tb_per_s, p.hop_cycles);
      if (silicon.count(w))
        std::printf(" | %12.2f | %18.1f", silicon[w].value(dram ? "dram_read_tb_per_s" : "l2_read_tb_per_s", 0.0),
                    silicon[w].value("probe_cycles_per_hop.median", 0.0));
      std::printf("\n");
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::cerr << "l2_load_curve: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

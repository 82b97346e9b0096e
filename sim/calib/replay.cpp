#include "calib/replay.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>

#include "common/error.h"
#include "common/parallel.h"
#include "config/param.h"
#include "config/workload_schema.h"
#include "stats/metrics.h"

namespace gms {

double replay_cost(const MeasuredCase& c) {
  auto get = [&c](const char* name) {
    const auto it = c.measured.find(name);
    return it == c.measured.end() ? -1.0 : it->second;
  };
  // A replay's host time follows its L2 sector lookups (docs/performance.md); silicon's counts
  // stand in for the model's, which do not exist yet.
  const double read = get("lts__t_sectors_op_read.sum");
  if (read >= 0) return read + std::max(0.0, get("lts__t_sectors_op_red.sum"));
  const double dram = get("dram__bytes_read.sum");
  if (dram >= 0) return dram / 32;
  return std::numeric_limits<double>::infinity();  // unknown: hand it out first
}

std::string launch_key(const LoadedConfigs& cfg) {
  WorkloadConfig w = cfg.workload.value;
  auto kernel = make_kernel(w, cfg.gpu.value);
  w.name.clear();
  w.gemm.cta_order = CtaOrderConfig{};
  std::string key = render_yaml(workload_schema(w.kind), w);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the launch sequence
  auto mix = [&h](std::int64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= static_cast<std::uint64_t>(v >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  const LaunchShape s = kernel->shape();
  for (std::int64_t i = 0; i < s.ctas; ++i) {
    TileCoord t = kernel->tile_of(i);
    mix(t.m);
    mix(t.n);
  }
  return key + "\nlaunches: " + std::to_string(s.ctas) + " " + std::to_string(h);
}

LoadedConfigs Replayer::configs(const MeasuredCase& c, const std::vector<std::string>& overrides) const {
  return load_configs(ConfigInputs{gpu_file_, c.workload_file, overrides, c.workload_from_record});
}

std::string Replayer::simulation_key(const LoadedConfigs& cfg, const std::vector<std::string>& overrides) const {
  std::string key = sample_waves_ > 0 ? "sample_waves " + std::to_string(sample_waves_) + "\n" : "";
  for (const auto& o : overrides) key += o + "\n";
  return key + cfg.gpu.value.name + "\n" + launch_key(cfg);
}

std::vector<std::string> Replayer::simulation_keys(const std::vector<MeasuredCase>& cases,
                                                   const std::vector<std::string>& overrides) const {
  std::vector<std::string> keys;
  for (const auto& c : cases) keys.push_back(simulation_key(configs(c, overrides), overrides));
  return keys;
}

std::vector<MetricValues> Replayer::run(const std::vector<MeasuredCase>& cases, const std::vector<std::string>& overrides,
                                        const std::function<void(size_t, size_t)>& progress,
                                        std::vector<std::string>* keys_out) {
  std::vector<std::string> keys(cases.size());
  std::vector<LoadedConfigs> cfgs(cases.size());
  std::map<std::string, size_t> todo;  // key -> first case with it
  for (size_t i = 0; i < cases.size(); ++i) {
    cfgs[i] = configs(cases[i], overrides);
    keys[i] = simulation_key(cfgs[i], overrides);
    if (!memo_.count(keys[i]) && !todo.count(keys[i])) todo.emplace(keys[i], i);
  }
  std::vector<size_t> work;
  for (const auto& [k, i] : todo) work.push_back(i);
  // Longest first: with a few long replays among many short ones (a full-size GEMM takes ~50 s of a
  // core, a GEMV ~1 s), handing out the long ones last leaves the other workers idle at the end.
  // The results do not depend on the order.
  std::stable_sort(work.begin(), work.end(),
                   [&](size_t a, size_t b) { return replay_cost(cases[a]) > replay_cost(cases[b]); });
  // Results cross process boundaries as text: name, NUL, the double's 8 bytes (exact).
  std::atomic<size_t> done{0};
  std::mutex progress_lock;
  const std::vector<std::string> packed = map_(work.size(), jobs_, [&](size_t j) {
    const LoadedConfigs& cfg = cfgs[work[j]];
    RunOptions opt;
    opt.sample_waves = sample_waves_;
    RunOutput run = simulate(cfg, opt);
    std::string text;
    for (const auto& m : compute_metrics(run.result, cfg.gpu.value, *run.kernel)) {
      text += m.name;
      text += '\0';
      text.append(reinterpret_cast<const char*>(&m.value), sizeof m.value);
    }
    if (progress) {
      std::lock_guard<std::mutex> lock(progress_lock);
      progress(++done, work.size());
    }
    return text;
  });
  std::vector<MetricValues> fresh(work.size());
  for (size_t j = 0; j < work.size(); ++j) {
    const std::string& text = packed[j];
    for (size_t at = 0; at < text.size();) {
      const size_t nul = text.find('\0', at);
      SIM_ASSERT(nul != std::string::npos && nul + 1 + sizeof(double) <= text.size(),
                 "packed metrics of case " << work[j] << " cut at byte " << at);
      double v = 0;
      std::memcpy(&v, text.data() + nul + 1, sizeof v);
      fresh[j][text.substr(at, nul - at)] = v;
      at = nul + 1 + sizeof v;
    }
  }
  for (size_t j = 0; j < work.size(); ++j) memo_[keys[work[j]]] = std::move(fresh[j]);
  simulations_ += work.size();
  std::vector<MetricValues> out;
  for (size_t i = 0; i < cases.size(); ++i) out.push_back(memo_.at(keys[i]));
  if (keys_out) *keys_out = std::move(keys);
  return out;
}

}  // namespace gms

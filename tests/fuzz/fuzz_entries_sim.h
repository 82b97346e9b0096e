#pragma once
// Fuzz entry points that need the whole simulator (YAML, engine): trace replay, ISA tables, the
// GPU/workload YAML loader and the ncu CSV reader. Like
// fuzz_entries.h, each takes arbitrary bytes and must end in success or ConfigError, never in an
// assertion or a crash. Driven by tests/fuzz/trace_replay_fuzz.cpp (libFuzzer) and the smoke test.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "api/simulation.h"
#include "calib/measured.h"
#include "calib/saved_scorecard.h"
#include "common/error.h"
#include "config/config_tree.h"
#include "config/gpu_config.h"
#include "model/dram.h"
#include "model/engine.h"
#include "trace/gms_trace.h"
#include "trace/isa_table.h"
#include "workload/recorded_kernel.h"
#include "workload/trace_kernel.h"

namespace gms::fuzz {

// For readers that take a path: one scratch file per entry (made once), rewritten per input.
class ScratchFile {
 public:
  explicit ScratchFile(const char* pattern) {
    std::string name(pattern);
    const int fd = mkstemp(name.data());
    SIM_ASSERT(fd >= 0, "mkstemp failed for " << pattern);
    close(fd);
    path_ = name;
  }
  ~ScratchFile() { std::remove(path_.c_str()); }  // the entries' statics: removed when the run ends
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  const std::string& write(const std::uint8_t* data, std::size_t size) {
    std::ofstream f(path_, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path_;
  }

 private:
  std::string path_;
};

// A kernel trace either fails with ConfigError or replays on a 9-SM GPU to the end: every CTA
// retires and every traced instruction issues once.
inline void trace_replay(const std::uint8_t* data, std::size_t size) {
  static const LoadedConfigs gpu = load_configs(ConfigInputs{std::string(GPUMEMSIM_SOURCE_DIR) + "/configs/gpus/seed000-9sm.yaml"});
  static const IsaTable isa = IsaTable::load(std::string(GPUMEMSIM_SOURCE_DIR) + "/configs/isa/sm_90.yaml");
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    TraceKernel k(std::make_unique<TraceKernelReader>(std::make_unique<std::istringstream>(text), "fuzz.traceg"), isa,
                  gpu.gpu.value, 16);
    if (k.shape().warps_per_cta * static_cast<std::int64_t>(k.shape().ctas) > 4096) return;  // keep an iteration cheap
    Engine e(gpu.gpu.value, k);
    SimResult r = e.run();
    SIM_ASSERT(static_cast<std::int64_t>(r.ctas.size()) == k.shape().ctas, "retired " << r.ctas.size() << " CTAs");
  } catch (const ConfigError&) {
  }
}

// An ISA table either fails with ConfigError or answers every lookup.
inline void isa_table(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    IsaTable t = IsaTable::from_document(read_yaml_text(text, "fuzz.yaml"));
    for (const char* op : {"FFMA", "LDG.E.128", "HMMA.16816.F32", "EXIT", "X"}) (void)t.find(op);
  } catch (const ConfigError&) {
  }
}

// A GPU or workload YAML (the first byte picks: 'g' = a GPU file, else a workload for the 9-SM GPU)
// either fails with ConfigError naming where, or loads into bound configs.
inline void config_yaml(const std::uint8_t* data, std::size_t size) {
  const std::string preset = std::string(GPUMEMSIM_SOURCE_DIR) + "/configs/gpus/seed000-9sm.yaml";
  const bool gpu = size > 0 && data[0] == 'g';
  std::string text(reinterpret_cast<const char*>(data) + (gpu ? 1 : 0), size - (gpu ? 1 : 0));
  ConfigInputs in(preset);
  if (text.empty()) text = " ";
  (gpu ? in.gpu_text : in.workload_text) = text;
  try {
    const LoadedConfigs c = load_configs(in);
    SIM_ASSERT(c.gpu.value.sm.count > 0, "a bound GPU without SMs");
  } catch (const ConfigError& e) {
    SIM_ASSERT(std::string(e.what()).size() > 0, "an empty error message");
  }
}

// A carve-out list (l1.carveouts) either says why it is malformed or gives ascending sizes >= 0. The same text as
// dram.latency_spread either says why or gives 2+ quantiles that never fall, whose draws are sorted with mean ~0.
inline void config_lists(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (const auto c = parse_carveouts(text, &why)) {
    for (std::size_t i = 0; i < c->size(); ++i)
      SIM_ASSERT((*c)[i] >= 0 && (i == 0 || (*c)[i] > (*c)[i - 1]), "carve-out " << i << " out of order: " << (*c)[i]);
  } else {
    SIM_ASSERT(!why.empty(), "a refused carve-out list without a reason");
  }
  why.clear();
  const auto q = parse_latency_spread(text, &why);
  if (!q) {
    SIM_ASSERT(!why.empty(), "a refused latency spread without a reason");
    return;
  }
  if (q->empty()) return;
  SIM_ASSERT(q->size() >= 2, "a spread of " << q->size() << " quantile");
  for (std::size_t i = 1; i < q->size(); ++i) SIM_ASSERT((*q)[i] >= (*q)[i - 1], "quantile " << i << " falls");
  const std::vector<std::int64_t> t = dram_spread_ticks(*q);
  SIM_ASSERT(static_cast<int>(t.size()) == DramTiming::kSpreadPoints, "spread of " << t.size() << " points");
  double sum = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    SIM_ASSERT(i == 0 || t[i] >= t[i - 1], "spread point " << i << " falls");
    sum += static_cast<double>(t[i]);
  }
  SIM_ASSERT(std::fabs(sum / static_cast<double>(t.size())) <= 1.0, "spread mean " << sum / static_cast<double>(t.size()));
}

// launch.sm_order (the first byte picks the SM count, 1-64) either is refused with a reason or names every SM once,
// and written back as plain ids it reads as itself; icnt.gpc_sms either is refused with a reason or is GPCs of 1+ SMs.
inline void sm_lists(const std::uint8_t* data, std::size_t size) {
  const int sms = size > 0 ? 1 + data[0] % 64 : 1;
  const std::string text = size > 0 ? std::string(reinterpret_cast<const char*>(data) + 1, size - 1) : "";
  std::string why;
  if (const auto order = parse_sm_order(text, sms, &why)) {
    SIM_ASSERT(order->empty() || static_cast<int>(order->size()) == sms, "an order of " << order->size() << " for " << sms);
    std::vector<char> seen(static_cast<std::size_t>(sms), 0);
    std::string back;
    for (int id : *order) {
      SIM_ASSERT(id >= 0 && id < sms && !seen[static_cast<std::size_t>(id)], "SM " << id << " out of range or twice");
      seen[static_cast<std::size_t>(id)] = 1;
      back += (back.empty() ? "" : ",") + std::to_string(id);
    }
    SIM_ASSERT(*parse_sm_order(back, sms, &why) == *order, "sm order round trip: " << back);
  } else {
    SIM_ASSERT(!why.empty(), "a refused SM order without a reason");
  }
  why.clear();
  if (const auto gpcs = parse_gpc_sms(text, &why)) {
    for (int n : *gpcs) SIM_ASSERT(n >= 1, "a GPC of " << n << " SMs");
  } else {
    SIM_ASSERT(!why.empty(), "refused GPC sizes without a reason");
  }
}

// A raw Nsight Compute CSV export either fails with ConfigError or gives cases with finite numbers.
inline void ncu_csv(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("/tmp/gms_ncu_fuzz_XXXXXX");
  const std::string& path = scratch.write(data, size);
  try {
    for (const MeasuredCase& c : load_ncu_csv(path, std::string(GPUMEMSIM_SOURCE_DIR) + "/configs/workloads/gemm-8192-grouped8.yaml"))
      for (const auto& [name, v] : c.measured) SIM_ASSERT(!std::isnan(v), "NaN measured for " << name);
  } catch (const ConfigError&) {
  }
}

// A validate record either fails with ConfigError or gives cases with finite measurements and
// positive repeated rounds (the "repeat" lists compare scores silicon's ranking noise with).
inline void record_json(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("/tmp/gms_record_fuzz_XXXXXX");
  const std::string& path = scratch.write(data, size);
  try {
    for (const MeasuredCase& c : load_records({path})) {
      for (const auto& [name, v] : c.measured) SIM_ASSERT(std::isfinite(v), "non-finite measured " << name << " = " << v);
      for (double t : c.time_rounds) SIM_ASSERT(t > 0 && std::isfinite(t), "a repeated round of " << t);
    }
  } catch (const ConfigError&) {
  }
}

// A saved scorecard (compare --json) either fails with ConfigError or loads with a measured and a
// simulated value for every metric of every case.
inline void saved_scorecard_json(const std::uint8_t* data, std::size_t size) {
  static ScratchFile scratch("/tmp/gms_scorecard_fuzz_XXXXXX");
  const std::string& path = scratch.write(data, size);
  try {
    const SavedScorecard card = load_saved_scorecard(path);
    SIM_ASSERT(!card.cases.empty(), "a card without cases loaded");
    for (const auto& [key, c] : card.cases)
      SIM_ASSERT(c.measured.size() == c.simulated.size(),
                 key.first << "/" << key.second << ": " << c.measured.size() << " measured, " << c.simulated.size() << " simulated");
  } catch (const ConfigError&) {
  }
}

// A .gmstrace (either kernel encoding) either fails with ConfigError or replays on a 9-SM GPU to
// the end (at most 16 CTAs per kernel).
inline void gms_trace(const std::uint8_t* data, std::size_t size) {
  static const LoadedConfigs gpu = load_configs(ConfigInputs{std::string(GPUMEMSIM_SOURCE_DIR) + "/configs/gpus/seed000-9sm.yaml"});
  static const IsaTable isa = IsaTable::load(std::string(GPUMEMSIM_SOURCE_DIR) + "/configs/isa/sm_90.yaml");
  static ScratchFile scratch("/tmp/gms_trace_fuzz_XXXXXX");
  const std::string& path = scratch.write(data, size);
  try {
    for (const GmsCommand& c : scan_gms_trace(path)) {
      if (c.kind != GmsCommand::Kind::kKernel) continue;
      std::unique_ptr<Kernel> k;
      if (c.encoding == GmsKernelEncoding::kEngine)
        k = std::make_unique<RecordedKernel>(path, c, 16);
      else
        k = std::make_unique<TraceKernel>(std::make_unique<GmsSassCtaSource>(path, c), isa, gpu.gpu.value, 16);
      if (k->shape().warps_per_cta * static_cast<std::int64_t>(k->shape().ctas) > 4096) continue;
      Engine e(gpu.gpu.value, *k);
      SimResult r = e.run();
      SIM_ASSERT(static_cast<std::int64_t>(r.ctas.size()) == k->shape().ctas, "retired " << r.ctas.size() << " CTAs");
    }
  } catch (const ConfigError&) {
  }
}

}  // namespace gms::fuzz

#pragma once
// Fuzz entry points that need the whole simulator (YAML, engine): trace replay and ISA tables. Like
// fuzz_entries.h, each takes arbitrary bytes and must end in success or ConfigError, never in an
// assertion or a crash. Driven by tests/fuzz/trace_replay_fuzz.cpp (libFuzzer) and the smoke test.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "api/simulation.h"
#include "common/error.h"
#include "config/config_tree.h"
#include "model/engine.h"
#include "trace/isa_table.h"
#include "workload/trace_kernel.h"

namespace gms::fuzz {

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

}  // namespace gms::fuzz

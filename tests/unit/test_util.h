#pragma once
// Helpers for tests that need configuration files on disk.
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "api/simulation.h"
#include "common/error.h"

namespace gms::test {

inline std::string source_path(const std::string& rel) { return std::string(GPUMEMSIM_SOURCE_DIR) + "/" + rel; }

// A public Accel-Sim trace folder (GPUMEMSIM_SHARED_TRACES, ../shared/traces by default).
inline std::string shared_trace(const std::string& rel) { return std::string(GPUMEMSIM_SHARED_TRACES) + "/" + rel; }
inline bool have_shared_traces() { return std::filesystem::exists(shared_trace("SOURCES.md")); }
// Tests that read the public traces skip (saying where they looked) when the folder is absent.
#define NEED_SHARED_TRACES()                                                                                     \
  if (!::gms::test::have_shared_traces())                                                                        \
  GTEST_SKIP() << "public traces not found at " << ::gms::test::shared_trace("") << " (set -DGPUMEMSIM_SHARED_TRACES=...)"

// A fresh directory under the system temp dir, removed by the caller or left for inspection. The
// process id keeps tests that ctest runs in parallel processes (one per TEST) out of each other's way.
inline std::filesystem::path temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("gpumemsim_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// What load_configs refuses `in` with (its ConfigError's message); "" when it loads.
inline std::string config_error(const ConfigInputs& in) {
  try {
    load_configs(in);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

inline std::string write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace gms::test

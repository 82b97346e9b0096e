#include "config/install_paths.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "config/param.h"

// Both set by sim/CMakeLists.txt: the source tree's configs (a build used in place) and the
// installed copy (a build used after `cmake --install`).
#ifndef GPUMEMSIM_CONFIGS_DIR
#define GPUMEMSIM_CONFIGS_DIR ""
#endif
#ifndef GPUMEMSIM_INSTALLED_CONFIGS_DIR
#define GPUMEMSIM_INSTALLED_CONFIGS_DIR ""
#endif

namespace gms {
namespace fs = std::filesystem;

std::string configs_dir() {
  if (const char* env = std::getenv("GPUMEMSIM_CONFIGS"); env && *env) return env;
  // The source tree first: a developer's build must read the tables it was built with, not an
  // older installed copy.
  for (const char* dir : {GPUMEMSIM_CONFIGS_DIR, GPUMEMSIM_INSTALLED_CONFIGS_DIR}) {
    std::error_code ec;
    if (*dir && fs::is_directory(fs::path(dir) / "gpus", ec)) return dir;
  }
  // An installed tree moved elsewhere (cmake --install --prefix P): P/bin/gpumemsim next to
  // P/share/gpumemsim/configs.
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path().parent_path() / "share" / "gpumemsim" / "configs";
    if (fs::is_directory(dir / "gpus", ec)) return dir.string();
  }
  return "";
}

std::vector<std::string> gpu_preset_names() {
  std::vector<std::string> names;
  const std::string dir = configs_dir();
  std::error_code ec;
  if (dir.empty() || !fs::is_directory(fs::path(dir) / "gpus", ec)) return names;
  for (const auto& e : fs::directory_iterator(fs::path(dir) / "gpus"))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string resolve_gpu_preset(const std::string& name_or_path) {
  const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                               name_or_path.ends_with(".yaml") || name_or_path.ends_with(".yml");
  if (looks_like_path) return name_or_path;
  const auto names = gpu_preset_names();
  if (std::find(names.begin(), names.end(), name_or_path) != names.end())
    return (fs::path(configs_dir()) / "gpus" / (name_or_path + ".yaml")).string();
  std::string msg = "unknown GPU preset '" + name_or_path + "'";
  if (std::string hint = did_you_mean(name_or_path, names); !hint.empty()) msg += " (did you mean '" + hint + "'?)";
  if (names.empty()) {
    msg += "; no configs folder found (set GPUMEMSIM_CONFIGS)";
  } else {
    msg += "; presets:";
    for (const auto& n : names) msg += " " + n;
  }
  throw ConfigError(msg);
}

}  // namespace gms

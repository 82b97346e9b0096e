#pragma once
// Where the shipped data lives (configs/gpus, configs/isa, configs/workloads) for the CLI, the
// library and the Python module alike: $GPUMEMSIM_CONFIGS, else the source tree the build came
// from, else the installed share/gpumemsim/configs. And GPU presets by name ("h100") or by path.
#include <string>
#include <vector>

namespace gms {

// The configs folder; "" when none of the candidates exists.
std::string configs_dir();

// "h100" -> <configs>/gpus/h100.yaml; a path (anything with '/' or ending in .yaml) is returned as
// it is. ConfigError naming the known presets (with a did-you-mean) for an unknown name.
std::string resolve_gpu_preset(const std::string& name_or_path);

// The preset names under <configs>/gpus, sorted.
std::vector<std::string> gpu_preset_names();

}  // namespace gms

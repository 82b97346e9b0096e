#pragma once
#include <string>

#include "config/gpu_config.h"
#include "config/param.h"

namespace gms {

const Schema<GpuConfig>& gpu_schema();
// Cross-field checks; throws ConfigError pointing at the offending key.
void validate_gpu(const Bound<GpuConfig>& bound, const std::string& file);

}  // namespace gms

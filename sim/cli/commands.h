#pragma once
#include <string>
#include <vector>

namespace gms::cli {

// Each returns the process exit code; user errors throw gms::ConfigError.
int cmd_run(const std::vector<std::string>& args);
int cmd_config(const std::vector<std::string>& args);
int cmd_heatmap(const std::vector<std::string>& args);
int cmd_order_from_asm(const std::vector<std::string>& args);
int cmd_issue(const std::vector<std::string>& args);
int cmd_sweep(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_calibrate(const std::vector<std::string>& args);
int cmd_access(const std::vector<std::string>& args);
int cmd_trace(const std::vector<std::string>& args);
int cmd_recommend(const std::vector<std::string>& args);

}  // namespace gms::cli

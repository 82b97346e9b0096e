#pragma once
// Running the real gpumemsim binary from CLI tests: exit code and combined stdout+stderr.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include "../unit/test_util.h"

namespace {

struct Result {
  int code;
  std::string out;
};

// Runs a shell command line, capturing stdout and stderr.
inline Result run_shell(const std::string& command) {
  std::string cmd = command + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline Result run(const std::string& args) { return run_shell(std::string(GPUMEMSIM_BINARY) + " " + args); }
inline Result run_in(const std::string& dir, const std::string& args) {
  return run_shell("cd " + dir + " && " + GPUMEMSIM_BINARY + " " + args);
}

inline std::string src(const std::string& rel) { return gms::test::source_path(rel); }
inline std::string seed_args(const std::string& order) {
  return "run --gpu " + src("configs/gpus/seed000-9sm.yaml") + " --workload " +
         src("configs/workloads/seed000-" + order + ".yaml");
}

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

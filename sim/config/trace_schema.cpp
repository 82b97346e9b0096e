// Schema and cross-field checks of `kind: trace` (kernels replayed from an Accel-Sim trace).
#include <filesystem>

#include "common/error.h"
#include "config/workload_schema.h"

namespace gms {
namespace {

using Q = Quantity;
using W = WorkloadConfig;

}  // namespace

Schema<WorkloadConfig> make_trace_schema() {
  Schema<WorkloadConfig> s;
  s.name = "workload(trace)";
  auto& p = s.params;
  p.push_back(choice_param<W>("kind", workload_kinds(), "trace", "workload type", [](W& c) -> auto& { return c.kind; }));
  p.push_back(text_param<W>("name", "", false, "label used in reports", [](W& c) -> auto& { return c.name; }));
  p.push_back(text_param<W>("path", "", true,
                            "Accel-Sim trace: kernelslist.g, the folder holding it, or one kernel-N.traceg "
                            "(relative to the workload file)",
                            [](W& c) -> auto& { return c.trace.path; }));
  p.push_back(text_param<W>("kernels", "all", false, "kernels of the list to replay, in order: all, or kernel ids \"1,3\"",
                            [](W& c) -> auto& { return c.trace.kernels; }));
  p.push_back(choice_param<W>("l2_between_kernels", {"keep", "flush"}, "keep",
                              "keep = L2 contents carry over to the next kernel (as the program runs); flush = empty "
                              "before each kernel (as Nsight Compute profiles by default)",
                              [](W& c) -> auto& { return c.trace.l2_between_kernels; }));
  p.push_back(text_param<W>("isa", "auto", false,
                            "ISA table (opcode -> pipe, latency, interval); auto = configs/isa/sm_<binary version>.yaml",
                            [](W& c) -> auto& { return c.trace.isa; }));
  p.push_back(bool_param<W>("memcpy_to_l2", true,
                            "the list's MemcpyHtoD copies write their bytes through L2 before the next kernel (the copy "
                            "engine's writes stay there, as Accel-Sim's perf_sim_memcpy models); false = cold L2",
                            [](W& c) -> auto& { return c.trace.memcpy_to_l2; }));
  p.push_back(quantity_param<W>("cta_limit", Q::kInteger, "0", 0, kUnboundedCount,
                                "per kernel, replay only the first N thread blocks of the trace (0 = all)",
                                [](W& c) -> auto& { return c.trace.cta_limit; }));
  return s;
}

void validate_trace(Bound<WorkloadConfig>& b, const std::string& file) {
  namespace fs = std::filesystem;
  TraceWorkloadConfig& t = b.value.trace;
  auto fail = [&](const std::string& key, const std::string& why) {
    throw ConfigError(where(b.origins, key, file) + ": workload key '" + key + "': " + why);
  };
  // Paths are relative to the workload file, as a user writing one next to the trace expects.
  auto resolve = [&](std::string& path) {
    fs::path p(path);
    if (p.is_relative() && !b.value.source_dir.empty()) path = (fs::path(b.value.source_dir) / p).lexically_normal().string();
  };
  resolve(t.path);
  if (!fs::exists(t.path)) fail("path", "'" + t.path + "' does not exist");
  if (t.isa != "auto") {
    resolve(t.isa);
    if (!fs::exists(t.isa)) fail("isa", "'" + t.isa + "' does not exist");
  }
  if (!trace_kernel_ids(t.kernels))
    fail("kernels", "'" + t.kernels + "': expected all or a comma-separated list of kernel ids");
}

std::optional<std::set<int>> trace_kernel_ids(const std::string& text) {
  std::set<int> ids;
  if (text == "all") return ids;
  std::size_t pos = 0;
  while (true) {
    std::size_t comma = text.find(',', pos);
    std::string id = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    id.erase(0, id.find_first_not_of(' '));
    id.erase(id.find_last_not_of(' ') + 1);
    if (id.empty() || id.size() > 9 || id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    ids.insert(std::stoi(id));
    if (comma == std::string::npos) return ids;
    pos = comma + 1;
  }
}

}  // namespace gms

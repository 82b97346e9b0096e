// gpumemsim._core: the simulator library seen from Python. Thin on purpose: configurations arrive as
// YAML text (gpumemsim/__init__.py turns dicts into YAML), results leave as JSON text that Python
// parses, so the module adds no second path from configuration to result. The GIL is released while
// simulating; ConfigError becomes gpumemsim.ConfigError with the library's file:line:col message.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <thread>
#include <vector>

#include "api/simulation.h"
#include "common/error.h"
#include "common/parallel.h"
#include "common/version.h"
#include "config/install_paths.h"
#include "stats/metrics.h"
#include "stats/report.h"
#include "sweep/sweep.h"

namespace py = pybind11;

namespace {

// A GPU or workload given either as a file / preset name or as YAML text.
struct Source {
  std::string path;
  std::string text;
};

gms::ConfigInputs inputs(const Source& gpu, const Source& workload, const std::vector<std::string>& set) {
  gms::ConfigInputs in(gpu.path, workload.path, set);
  in.gpu_text = gpu.text;
  in.workload_text = workload.text;
  return in;
}

// Everything stats.json holds, with the metrics also at the top level (by Nsight name) and the
// per-CTA table as columns.
std::string run_json(const Source& gpu, const Source& workload, const std::vector<std::string>& set, bool ctas) {
  const gms::LoadedConfigs cfg = gms::load_configs(inputs(gpu, workload, set));
  const gms::RunOutput run = gms::simulate(cfg);
  const auto metrics = gms::compute_metrics(run.result, cfg.gpu.value, *run.kernel);
  nlohmann::ordered_json j;
  for (const auto& m : metrics) j[m.name] = m.value;
  const nlohmann::ordered_json stats = gms::stats_json(cfg, run, metrics);  // named: items() does not extend its life
  for (const auto& [k, v] : stats.items()) j[k] = v;
  if (ctas) j["ctas"] = gms::cta_table_json(run.result);
  return j.dump();
}

// One JSON object per point, in grid order: the axis values, every metric, "error".
std::string sweep_json(const Source& gpu, const Source& workload, const std::vector<std::string>& set,
                       const std::vector<std::pair<std::string, std::vector<std::string>>>& grid, unsigned jobs) {
  gms::SweepSpec spec;
  spec.base = inputs(gpu, workload, set);
  for (const auto& [key, values] : grid) spec.axes.push_back({key, values});
  const auto points = gms::sweep_points(spec);
  std::vector<gms::SweepRow> rows(points.size());
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  gms::parallel_for(
      points.size(), jobs, [&](std::size_t i) { rows[i] = gms::run_sweep_point(spec, points[i]); }, [](std::size_t) {});
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& r : rows) {
    nlohmann::ordered_json p;
    for (std::size_t k = 0; k < spec.axes.size(); ++k) p[spec.axes[k].key] = r.values[k];
    for (const auto& [name, v] : r.all) p[name] = v;
    p["error"] = r.error.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(r.error);
    out.push_back(p);
  }
  return out.dump();
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "gpumemsim simulator core (use the gpumemsim package)";
  py::register_exception<gms::ConfigError>(m, "ConfigError", PyExc_ValueError);
  m.attr("__version__") = gms::version_string();
  m.attr("__commit__") = gms::version_commit();
  m.def(
      "run_json",
      [](const std::string& gpu_path, const std::string& gpu_text, const std::string& wl_path, const std::string& wl_text,
         const std::vector<std::string>& set, bool ctas) {
        py::gil_scoped_release unlocked;
        return run_json({gpu_path, gpu_text}, {wl_path, wl_text}, set, ctas);
      },
      py::arg("gpu_path"), py::arg("gpu_text"), py::arg("workload_path"), py::arg("workload_text"), py::arg("set"),
      py::arg("ctas"));
  m.def(
      "sweep_json",
      [](const std::string& gpu_path, const std::string& gpu_text, const std::string& wl_path, const std::string& wl_text,
         const std::vector<std::string>& set, const std::vector<std::pair<std::string, std::vector<std::string>>>& grid,
         unsigned jobs) {
        py::gil_scoped_release unlocked;
        return sweep_json({gpu_path, gpu_text}, {wl_path, wl_text}, set, grid, jobs);
      },
      py::arg("gpu_path"), py::arg("gpu_text"), py::arg("workload_path"), py::arg("workload_text"), py::arg("set"),
      py::arg("grid"), py::arg("jobs"));
  m.def("presets", &gms::gpu_preset_names, "GPU preset names under the configs folder");
  m.def("configs_dir", &gms::configs_dir, "the configs folder the module reads presets and ISA tables from");
}

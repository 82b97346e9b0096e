#include "report/report_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "common/files.h"
#include "report/plots.h"

namespace gms {
namespace {

namespace fs = std::filesystem;

std::string base64(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                 static_cast<unsigned char>(in[i + 2]);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i + 1 == in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += {t[v >> 18], t[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], '='};
  }
  return out;
}

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

std::string subtitle(const RunData& r) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s on %s - %.2f us, DRAM read %.3g GB, L2 hit %.1f %%", r.workload.c_str(),
                r.gpu.c_str(), r.metric("gpu__time_duration.sum") / 1e3, r.metric("dram__bytes_read.sum") / 1e9,
                r.metric("lts__t_sector_hit_rate.pct"));
  return buf;
}

struct Renderer {
  fs::path dir;
  const ReportOptions& opt;
  std::vector<std::string> files;
  std::vector<std::pair<std::string, std::string>> figures;  // caption, png file

  template <class Draw>
  void figure(const std::string& stem, const std::string& caption, Draw draw) {
    if (opt.png || opt.html) {
      draw((dir / (stem + ".png")).string(), ImageFormat::kPng);
      files.push_back(stem + ".png");
      figures.emplace_back(caption, stem + ".png");
    }
    if (opt.svg) {
      draw((dir / (stem + ".svg")).string(), ImageFormat::kSvg);
      files.push_back(stem + ".svg");
    }
  }
};

std::string html_page(const RunData& run, const RunData* cmp, const Renderer& r) {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>gpumemsim report: " << escape(run.workload)
    << "</title>\n<style>body{font-family:sans-serif;margin:24px;max-width:1560px}table{border-collapse:collapse}"
       "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left;font-family:monospace}"
       "img{max-width:100%;border:1px solid #eee;margin:8px 0}pre{background:#f6f6f6;padding:8px;font-size:12px}</style>"
       "</head><body>\n";
  h << "<h1 id=\"title\">gpumemsim report</h1>\n<p>" << escape(run.workload) << " on " << escape(run.gpu) << "</p>\n";
  h << "<h2>Summary</h2>\n<table><tr><th>metric</th><th>" << escape(run.dir) << "</th>";
  if (cmp) h << "<th>" << escape(cmp->dir) << "</th>";
  h << "<th>unit</th></tr>\n";
  for (const char* name :
       {"gpu__time_duration.sum", "sm__cycles_elapsed.max", "dram__bytes_read.sum", "dram__bytes_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct",
        "lts__t_sectors_op_read.sum", "lts__t_sectors_op_read_lookup_hit.sum", "lts__t_sectors_srcunit_ltcfabric.sum",
        "l1tex__t_sector_hit_rate.pct", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "gpumemsim__flop_rate.pct_of_peak", "launch__grid_size", "gpumemsim__ctas_simulated"}) {
    char a[64], b[64];
    std::snprintf(a, sizeof a, "%.6g", run.metric(name));
    h << "<tr><td>" << name << "</td><td>" << a << "</td>";
    if (cmp) {
      std::snprintf(b, sizeof b, "%.6g", cmp->metric(name));
      h << "<td>" << b << "</td>";
    }
    std::string unit;
    if (run.stats.contains("metric_info") && run.stats["metric_info"].contains(name))
      unit = run.stats["metric_info"][name].value("unit", "");
    h << "<td>" << escape(unit) << "</td></tr>\n";
  }
  h << "</table>\n";
  for (const auto& [caption, file] : r.figures)
    h << "<h2>" << escape(caption) << "</h2>\n<img alt=\"" << escape(caption) << "\" src=\"data:image/png;base64,"
      << base64(read_file(r.dir / file)) << "\">\n";
  h << "<h2>Resolved configuration</h2>\n<pre>" << escape(run.stats.at("config").dump(2)) << "</pre>\n";
  h << "</body></html>\n";
  return h.str();
}

}  // namespace

std::vector<std::string> write_report(const RunData& run, const RunData* cmp, const std::string& out_dir,
                                      const ReportOptions& opt) {
  fs::path out(out_dir);
  fs::path scratch = out.string() + ".partial";
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  Renderer r{scratch, opt, {}, {}};
  bool annotate = opt.annotate || (run.tiles_m <= 16 && run.tiles_n <= 16);
  Grid tiles = tile_hit_rate_grid(run, annotate);
  Figure f{"L2 hit rate of each CTA's loads, by output tile", subtitle(run), "tile column (n)", "tile row (m)"};
  r.figure("tiles_l2_hit", "L2 hit rate by output tile", [&](const std::string& p, ImageFormat fmt) {
    draw_grid_figure(p, fmt, f, tiles, ColorScale{0, 100, false, "L2 hit %"});
  });
  if (!run.timeline.empty()) {
    TimeBins bins = time_bins(run, 300);
    char xl[96];
    std::snprintf(xl, sizeof xl, "time (us; one column = %.3g us)", bins.column_us);
    Grid hit = sm_time_grid(run, false, bins), dram = sm_time_grid(run, true, bins);
    r.figure("sm_time_l2_hit", "L2 hit rate per SM over time", [&](const std::string& p, ImageFormat fmt) {
      draw_grid_figure(p, fmt, Figure{"L2 hit rate per SM over time", subtitle(run), xl, "SM", bins.column_us}, hit,
                       ColorScale{0, 100, false, "L2 hit %"});
    });
    double peak = 1;
    for (double v : dram.v) {
      if (!std::isnan(v)) peak = std::max(peak, v);
    }
    r.figure("sm_time_dram", "DRAM read bandwidth per SM over time", [&](const std::string& p, ImageFormat fmt) {
      draw_grid_figure(p, fmt, Figure{"DRAM read bandwidth caused by each SM over time", subtitle(run), xl, "SM", bins.column_us},
                       dram, ColorScale{0, peak, false, "GB/s"});
    });
    r.figure("timeline", "DRAM bandwidth and L2 hit rate over time", [&](const std::string& p, ImageFormat fmt) {
      draw_timeline_figure(p, fmt, Figure{"DRAM read bandwidth and L2 hit rate over time", subtitle(run), "time (us)", ""},
                           run);
    });
  }
  if (cmp) {
    Grid other = tile_hit_rate_grid(*cmp, false);
    Grid mine = tile_hit_rate_grid(run, false);
    r.figure("compare_tiles", "Side by side: L2 hit rate by tile, and the difference",
             [&](const std::string& p, ImageFormat fmt) {
               draw_compare_figure(p, fmt, Figure{"L2 hit rate by output tile: A, B and B - A", run.gpu, "tile column (n)", "tile row (m)"},
                                   mine, other, run.workload + " (" + run.dir + ")", cmp->workload + " (" + cmp->dir + ")");
             });
  }
  if (opt.html) {
    std::ofstream(scratch / "report.html") << html_page(run, cmp, r);
    r.files.push_back("report.html");
  }
  if (!opt.png && opt.html) {  // PNGs were only drawn to be embedded
    for (auto it = r.files.begin(); it != r.files.end();) {
      if (it->size() > 4 && it->substr(it->size() - 4) == ".png") {
        fs::remove(scratch / *it);
        it = r.files.erase(it);
      } else {
        ++it;
      }
    }
  }
  fs::create_directories(out);
  for (const auto& f : r.files) fs::rename(scratch / f, out / f);
  fs::remove_all(scratch);
  return r.files;
}

}  // namespace gms

#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "common/error.h"
#include "report/report_writer.h"

namespace gms::cli {

int cmd_heatmap(const std::vector<std::string>& args) {
  po::options_description desc("gpumemsim heatmap options");
  po::variables_map vm;
  std::string run_dir, compare_dir, out, format;
  bool annotate = false, no_html = false;
  desc.add_options()("run,r", po::value(&run_dir)->required(), "a `gpumemsim run --out` directory")(
      "compare,c", po::value(&compare_dir), "a second run directory to put side by side (B) with its difference")(
      "out,o", po::value(&out), "where to write the images and report.html (default: RUN/report)")(
      "format,f", po::value(&format)->default_value("both"), "png | svg | both")(
      "annotate", po::bool_switch(&annotate), "write launch index and SM into each tile (automatic up to 16x16)")(
      "no-html", po::bool_switch(&no_html), "images only, no report.html");
  if (!parse_options(args, desc, vm, "usage: gpumemsim heatmap --run DIR [--compare DIR2] [--out DIR] [--format png|svg|both]"))
    return 0;
  if (format != "png" && format != "svg" && format != "both")
    throw ConfigError("--format " + format + ": expected png, svg or both");
  ReportOptions opt;
  opt.png = format != "svg";
  opt.svg = format != "png";
  opt.annotate = annotate;
  opt.html = !no_html;
  RunData run = load_run(run_dir);
  RunData other;
  if (!compare_dir.empty()) other = load_run(compare_dir);
  if (out.empty()) out = run_dir + "/report";
  auto files = write_report(run, compare_dir.empty() ? nullptr : &other, out, opt);
  std::cout << "wrote " << files.size() << " files to " << out << ":";
  for (const auto& f : files) std::cout << " " << f;
  std::cout << "\n";
  return 0;
}

}  // namespace gms::cli

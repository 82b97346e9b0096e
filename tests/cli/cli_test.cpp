// Runs the real binary: exit codes, messages, files written (and not written).
#include <gtest/gtest.h>

#include <cairo.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <set>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>
#include <sstream>
#include <sys/wait.h>

#include "../unit/test_util.h"
#include "cli_util.h"
#include "stats/statistics.h"

namespace {

TEST(Cli, HelpOnEverySubcommand) {
  for (const char* c : {"--help", "run --help", "recommend --help", "config --help", "config show --help", "config docs --help",
                        "heatmap --help", "sweep --help", "compare --help", "calibrate --help", "order-from-asm --help",
                        "trace info --help", "trace convert --help", "trace export --help"}) {
    auto r = run(c);
    EXPECT_EQ(r.code, 0) << c << r.out;
    EXPECT_NE(r.out.find("usage"), std::string::npos) << c;
  }
}

// A kernelslist.g with a 256-byte copy and one kernel of one warp (an LDG and an EXIT); returns the list.
std::string write_one_warp_trace(const std::filesystem::path& dir) {
  gms::test::write_file(dir / "kernel-1.traceg",
                        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-nregs = 8\n"
                        "-binary version = 90\n-accelsim tracer version = 5\n#BEGIN_TB\nthread block = 0,0,0\n"
                        "warp = 0\ninsts = 2\n0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n"
                        "0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
  return gms::test::write_file(dir / "kernelslist.g", "MemcpyHtoD,0x1000,256\nkernel-1.traceg\n");
}

TEST(Cli, TraceInfoSummarisesAnAccelSimTraceAndRejectsBrokenOnes) {
  auto dir = gms::test::temp_dir("trace_info");
  auto list = write_one_warp_trace(dir);
  auto r = run("trace info " + list + " --json " + (dir / "info.json").string());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 CTAs, 1 warps, 2 warp instructions (64 thread instructions)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("128 bytes requested, 4 distinct 32-byte sectors"), std::string::npos) << r.out;
  EXPECT_NE(slurp(dir / "info.json").find("\"smsp__inst_executed.sum\": 2"), std::string::npos);
  gms::test::write_file(dir / "kernel-1.traceg", "-kernel name = k\n-accelsim tracer version = 7\n");
  std::filesystem::remove(dir / "info2.json");
  r = run("trace info " + list + " --json " + (dir / "info2.json").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("kernel-1.traceg:2: accelsim tracer version 7 is not supported"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "info2.json"));
  EXPECT_EQ(run("trace info " + (dir / "missing").string()).code, 2);
}

// trace convert (Accel-Sim text -> .gmstrace), trace info on it, trace export of a generated GEMM
// and its replay through the CLI to the same stats.json metrics; bad requests exit 2 with no file.
TEST(Cli, TraceConvertExportAndReplay) {
  auto dir = gms::test::temp_dir("trace_convert");
  auto list = write_one_warp_trace(dir);
  const std::string bin = (dir / "k.gmstrace").string();
  auto r = run("trace convert " + list + " " + bin);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 kernel(s), 1 CTAs, 2 warp instructions"), std::string::npos) << r.out;
  r = run("trace info " + bin);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("1 CTAs, 1 warps, 2 warp instructions (64 thread instructions)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("256 bytes copied host-to-device"), std::string::npos) << r.out;

  const std::string gemm = (dir / "gemm.gmstrace").string();
  r = run("trace export --gpu " + src("configs/gpus/seed000-9sm.yaml") + " --workload " +
          src("configs/workloads/seed000-grouped.yaml") + " " + gemm);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("9 CTAs"), std::string::npos) << r.out;
  r = run("trace info " + gemm);
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("9 CTAs, 36 warps"), std::string::npos) << r.out;
  auto wl = gms::test::write_file(dir / "replay.yaml", "kind: trace\npath: gemm.gmstrace\n");
  ASSERT_EQ(run(seed_args("grouped") + " -q --out " + (dir / "gen").string()).code, 0);
  r = run("run --gpu " + src("configs/gpus/seed000-9sm.yaml") + " --workload " + wl + " -q --out " + (dir / "rep").string());
  ASSERT_EQ(r.code, 0) << r.out;
  auto metrics = [](const std::string& stats) { return stats.substr(stats.find("\"metrics\""), stats.find("\"metric_info\"") - stats.find("\"metrics\"")); };
  EXPECT_EQ(metrics(slurp(dir / "gen" / "stats.json")), metrics(slurp(dir / "rep" / "stats.json")));

  r = run("trace export --gpu " + src("configs/gpus/seed000-9sm.yaml") + " --workload " + wl + " " + (dir / "x.gmstrace").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("already a trace"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.gmstrace"));
  EXPECT_FALSE(std::filesystem::exists(dir / "x.gmstrace.partial"));
  EXPECT_EQ(run("trace convert " + (dir / "missing").string() + " " + (dir / "y.gmstrace").string()).code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir / "y.gmstrace"));
  gms::test::write_file(dir / "bad.gmstrace", std::string("GMSTRACE\x02\x00\x00\x00", 12));
  r = run("trace info " + (dir / "bad.gmstrace").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("trace format version 2"), std::string::npos) << r.out;
}

TEST(Cli, RunPrintsSummaryAndWritesStatsAndCtaCsv) {
  auto dir = gms::test::temp_dir("cli_run");
  auto r = run(seed_args("grouped") + " --out " + (dir / "o").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("DRAM            read 442.37 KB"), std::string::npos) << r.out;
  std::string stats = slurp(dir / "o" / "stats.json");
  for (const char* name : {"gpu__time_duration.sum", "sm__cycles_elapsed.max", "dram__bytes_read.sum",
                           "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct", "lts__t_sectors_op_read.sum",
                           "lts__t_sectors_op_read_lookup_hit.sum", "l1tex__t_sector_hit_rate.pct",
                           "dram__throughput.avg.pct_of_peak_sustained_elapsed"})
    EXPECT_NE(stats.find(std::string("\"") + name + "\""), std::string::npos) << name;
  EXPECT_NE(stats.find("\"config\""), std::string::npos);
  std::string csv = slurp(dir / "o" / "ctas.csv");
  EXPECT_EQ(csv.rfind("launch_index,tile_m,tile_n,sm,start_cycle,end_cycle,l2_hit_sectors,l2_miss_sectors,"
                      "first_barrier_cycle,first_store_cycle,first_special_read_cycle\n", 0),
            0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 10);  // header + 9 CTAs
}

TEST(Cli, TwoRunsWriteIdenticalStats) {
  auto dir = gms::test::temp_dir("cli_determinism");
  std::string args = seed_args("row-major") + " --set workload.cta_limit=0 --timeline-bucket 500";
  ASSERT_EQ(run(args + " --out " + (dir / "a").string()).code, 0);
  ASSERT_EQ(run(args + " --out " + (dir / "b").string()).code, 0);
  for (const char* f : {"stats.json", "ctas.csv", "timeline.csv"}) {
    EXPECT_FALSE(slurp(dir / "a" / f).empty()) << f;
    EXPECT_EQ(slurp(dir / "a" / f), slurp(dir / "b" / f)) << f;
  }
}

// One row of warps.csv (sm,warp_slot,launch_index,state,start_cycle,end_cycle).
struct SegmentRow {
  int sm = -1, slot = -1;
  long cta = -1;
  std::string state;
  double from = 0, to = 0;
};
bool parse_segment(const std::string& line, SegmentRow& r) {
  char state[32] = {};
  if (std::sscanf(line.c_str(), "%d,%d,%ld,%31[^,],%lf,%lf", &r.sm, &r.slot, &r.cta, state, &r.from, &r.to) != 6) return false;
  r.state = state;
  return true;
}

// Tracing an SM's warps (--warp-timeline) observes and changes nothing: the same stats.json and ctas.csv as without it
// (the engine adds a warp's stall time by another path when no SM is traced), and each traced warp's segments follow
// one another without overlapping, as its time is classified once.
TEST(Cli, WarpTimelineChangesNoNumberAndItsSegmentsDoNotOverlap) {
  auto dir = gms::test::temp_dir("cli_warp_timeline");
  const std::string args = seed_args("row-major") + " --set workload.cta_limit=0";
  ASSERT_EQ(run(args + " --out " + (dir / "plain").string()).code, 0);
  ASSERT_EQ(run(args + " --warp-timeline 3 --out " + (dir / "traced").string()).code, 0);
  for (const char* f : {"stats.json", "ctas.csv"}) EXPECT_EQ(slurp(dir / "plain" / f), slurp(dir / "traced" / f)) << f;
  EXPECT_FALSE(std::filesystem::exists(dir / "plain" / "warps.csv"));
  std::istringstream csv(slurp(dir / "traced" / "warps.csv"));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  EXPECT_EQ(line, "sm,warp_slot,launch_index,state,start_cycle,end_cycle");
  std::map<std::pair<int, long>, double> end_of;  // (warp slot, CTA) -> its last segment's end
  int rows = 0;
  while (std::getline(csv, line)) {
    SegmentRow seg;
    ASSERT_TRUE(parse_segment(line, seg)) << line;
    EXPECT_EQ(seg.sm, 3) << line;
    EXPECT_LT(seg.from, seg.to) << line;
    auto [it, fresh] = end_of.try_emplace({seg.slot, seg.cta}, seg.to);
    if (!fresh) {
      EXPECT_GE(seg.from, it->second) << "overlaps the warp's previous segment: " << line;
      it->second = seg.to;
    }
    ++rows;
  }
  EXPECT_GT(rows, 100);
}

// barriers.csv beside warps.csv: every barrier a traced CTA waited at released within the wait (a warp waits from its
// arrival to the release, or past it for copies still on their way), in time order per CTA.
TEST(Cli, WarpTimelineListsTheBarrierReleasesItsWaitsEndAt) {
  auto dir = gms::test::temp_dir("cli_barriers");
  ASSERT_EQ(run(seed_args("row-major") + " --set workload.cta_limit=0 --warp-timeline 3 --out " + dir.string()).code, 0);
  std::istringstream rel_csv(slurp(dir / "barriers.csv"));
  std::string line;
  ASSERT_TRUE(std::getline(rel_csv, line));
  EXPECT_EQ(line, "sm,launch_index,release_cycle");
  std::map<long, std::vector<double>> releases;
  while (std::getline(rel_csv, line)) {
    int sm = -1;
    long cta = -1;
    double at = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "%d,%ld,%lf", &sm, &cta, &at), 3) << line;
    EXPECT_EQ(sm, 3) << line;
    auto& v = releases[cta];
    if (!v.empty()) EXPECT_GT(at, v.back()) << line;
    v.push_back(at);
  }
  ASSERT_FALSE(releases.empty());
  std::istringstream csv(slurp(dir / "warps.csv"));
  ASSERT_TRUE(std::getline(csv, line));
  int waits = 0;
  while (std::getline(csv, line)) {
    SegmentRow seg;
    ASSERT_TRUE(parse_segment(line, seg)) << line;
    if (seg.state != "barrier") continue;
    ++waits;
    const auto& v = releases[seg.cta];
    EXPECT_TRUE(std::any_of(v.begin(), v.end(), [&](double r) { return r >= seg.from - 1e-3 && r <= seg.to + 1e-3; }))
        << "no release of CTA " << seg.cta << " within its wait: " << line;
  }
  EXPECT_GT(waits, 0);
}

// Every kind of bad input: one clear line naming file and key, exit code 2, no output directory.
TEST(Cli, BadInputIsExitCode2WithOneClearLineAndNothingWritten) {
  auto dir = gms::test::temp_dir("cli_bad");
  auto gpu = src("configs/gpus/seed000-9sm.yaml");
  auto w = [&](const std::string& name, const std::string& text) { return gms::test::write_file(dir / name, text); };
  std::string good_wl = "kind: gemm\nm: 576\nn: 576\nk: 576\ntile: {m: 64, n: 64, k: 64}\n";
  struct Case {
    std::string args, expect;
  };
  std::vector<Case> cases = {
      {"--workload " + w("malformed.yaml", "kind: gemm\nm: [1, 2\n"), "malformed.yaml:"},
      {"--workload " + w("unknown.yaml", good_wl + "stagse: 3\n"), "unknown.yaml:6:1: unknown workload(gemm) key 'stagse' (did you mean 'stages'?)"},
      {"--workload " + w("type.yaml", good_wl + "warps: four\n"), "type.yaml:6:8: workload(gemm) key 'warps': 'four' is not a number"},
      {"--workload " + w("zero.yaml", "kind: gemm\nm: 0\nn: 64\nk: 64\n"), "zero.yaml:2:4: workload(gemm) key 'm': value 0 is out of range"},
      {"--workload " + w("negative.yaml", "kind: gemm\nm: 64\nn: -64\nk: 64\n"), "key 'n': value -64 is out of range"},
      {"--workload " + w("tile.yaml", "kind: gemm\nm: 64\nn: 64\nk: 64\ntile: {m: 128}\n"), "tile.yaml:5:11: workload key 'tile.m': tile.m = 128 exceeds m = 64"},
      {"--workload " + w("nofit.yaml", good_wl + "stages: 16\n"), "kernel cannot fit on an SM"},
      {"--workload " + w("kind.yaml", "kind: gemmv\n"), "'gemmv' is not a workload kind (did you mean 'gemm'?)"},
      {"--workload " + w("ok.yaml", good_wl) + " --set gpu.l2.szie=1MiB", "--set gpu.l2.szie=1MiB: unknown gpu key 'l2.szie' (did you mean 'l2.size'?)"},
      {"--workload " + w("ok2.yaml", good_wl) + " --set gpu.l2.size=banana", "gpu key 'l2.size': 'banana' is not a number"},
      {"--workload " + (dir / "missing.yaml").string(), "missing.yaml: cannot open file"},
      {"--workload " + w("ok3.yaml", good_wl) + " --bogus", "unrecognised option '--bogus'"},
      {"--workload " + w("ok4.yaml", good_wl) + " --sample-waves 1", "--sample-waves 1: at least 2"},
  };
  for (const auto& c : cases) {
    auto out = dir / "out";
    auto r = run("run --gpu " + gpu + " " + c.args + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
  auto bad_gpu = w("gpu.yaml", "name: g\nclock: {sm: 1GHz}\nsm: {count: 2, shared_mem: 64KiB, fma_flops_per_cycle: 128, "
                               "tensor_fp16_flops_per_cycle: 256}\nl1: {size: 0B, hit_latency: 30}\nicnt: {latency: 40}\n"
                               "l2: {size: 1MiB, slices: 4, hit_latency: 200}\ndram: {bandwidth: 100, channels: 2, latency: 400}\n");
  auto r = run("config show --gpu " + bad_gpu);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("gpu.yaml:7:19: gpu key 'dram.bandwidth': '100' needs a unit"), std::string::npos) << r.out;
}

// The approximate mode announces itself: a note on stderr and a "sampling" block in stats.json.
TEST(Cli, SampledRunSaysItIsApproximate) {
  auto dir = gms::test::temp_dir("cli_sampled");
  auto r = run(seed_args("grouped") + " --set workload.cta_limit=0 --set workload.m=1536 --set workload.n=1536"
               " --sample-waves 4 --out " + (dir / "o").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("note: approximate: 36 of 576 CTAs simulated (4 waves)"), std::string::npos) << r.out;
  const std::string stats = slurp(dir / "o" / "stats.json");
  EXPECT_NE(stats.find("\"sampling\""), std::string::npos);
  EXPECT_NE(stats.find("\"approximate\": true"), std::string::npos);
  auto exact = run(seed_args("grouped") + " --out " + (dir / "e").string());
  ASSERT_EQ(exact.code, 0) << exact.out;
  EXPECT_EQ(slurp(dir / "e" / "stats.json").find("\"sampling\""), std::string::npos);
}

TEST(Cli, MeasuredTimeGivesTheSeedsArithmetic) {
  auto r = run("run --gpu " + src("configs/gpus/z100.yaml") + " --workload " +
               src("configs/workloads/seed001-gemv-llcc.yaml") + " --measured-time 0.294ms");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("58742784 compulsory bytes / 0.294 ms = 199.8 GB/s (186.1 GiB/s) = 33.3 % of 600 GB/s"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(run("run --gpu " + src("configs/gpus/z100.yaml") + " --workload " +
                src("configs/workloads/seed001-gemv-llcc.yaml") + " --measured-time soon")
                .code,
            2);
}

TEST(Cli, ConfigShowAndDocs) {
  auto r = run("config show --gpu " + src("configs/gpus/h100.yaml") + " --set gpu.l2.size=40MiB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("  size: 40MiB"), std::string::npos) << r.out;
  auto d = run("config docs");
  ASSERT_EQ(d.code, 0);
  EXPECT_NE(d.out.find("| `l2.partition_mode` |"), std::string::npos);
  EXPECT_NE(d.out.find("| `cta_order.group_m` |"), std::string::npos);
}

TEST(Cli, CommittedConfigReferenceIsCurrent) {
  auto d = run("config docs");
  EXPECT_EQ(d.out, slurp(src("docs/config-reference.md")))
      << "docs/config-reference.md is stale: regenerate with `gpumemsim config docs > docs/config-reference.md`";
}

}  // namespace

namespace {

// The HTML report opens in a real browser: headless Chromium renders it to a screenshot that must
// show the page (many colours, the heatmap's yellow among them) and its DOM must hold the summary.
TEST(Cli, HtmlReportRendersInHeadlessChromium) {
  const char* chromium = "/usr/bin/chromium";
  if (!std::filesystem::exists(chromium)) {
    if (std::getenv("CI")) FAIL() << "chromium is missing in CI: scripts/setup.sh installs it";
    GTEST_SKIP() << "chromium not installed (scripts/setup.sh installs it)";
  }
  auto dir = gms::test::temp_dir("cli_html");
  auto r = run(seed_args("grouped") + " --report " + (dir / "rep").string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::string page = "file://" + (dir / "rep" / "report.html").string();
  std::string flags = std::string(chromium) +
                      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                      "--disable-background-networking --disable-component-update --disable-sync "
                      "--hide-scrollbars --user-data-dir=" + (dir / "profile").string();
  std::string shot = (dir / "shot.png").string();
  std::string cmd = flags + " --window-size=1280,1400 --screenshot=" + shot + " " + page + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  cairo_surface_t* s = cairo_image_surface_create_from_png(shot.c_str());
  ASSERT_EQ(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  EXPECT_EQ(cairo_image_surface_get_width(s), 1280);
  EXPECT_EQ(cairo_image_surface_get_height(s), 1400);
  std::set<std::uint32_t> colours;
  bool yellow = false;
  auto* data = cairo_image_surface_get_data(s);
  for (int y = 0; y < 1400; y += 2)
    for (int x = 0; x < 1280; x += 2) {
      std::uint32_t px = reinterpret_cast<std::uint32_t*>(data + y * cairo_image_surface_get_stride(s))[x] & 0xffffff;
      colours.insert(px);
      int rr = (px >> 16) & 255, gg = (px >> 8) & 255, bb = px & 255;
      if (std::abs(rr - 253) < 6 && std::abs(gg - 231) < 6 && std::abs(bb - 37) < 8) yellow = true;
    }
  cairo_surface_destroy(s);
  EXPECT_GT(colours.size(), 50u) << "the screenshot looks blank";
  EXPECT_TRUE(yellow) << "the heatmap (100 % cells are yellow) is not visible";
  std::string dump_cmd = flags + " --dump-dom " + page + " 2>/dev/null";
  FILE* p = popen(dump_cmd.c_str(), "r");
  std::string html;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) html.append(buf.data(), n);
  pclose(p);
  EXPECT_NE(html.find("gpumemsim report"), std::string::npos);
  EXPECT_NE(html.find("dram__bytes_read.sum"), std::string::npos);
  EXPECT_NE(html.find("442368"), std::string::npos) << "the summary table should hold the 54-block DRAM read";
}

}  // namespace

namespace {

TEST(Cli, SweepWritesAGridInOrderAndRejectsBadAxes) {
  auto dir = gms::test::temp_dir("cli_sweep");
  std::string args = "sweep --gpu " + src("configs/gpus/seed000-9sm.yaml") + " --workload " +
                     src("configs/workloads/seed000-grouped.yaml") +
                     " --grid workload.cta_order.group_m=1,3 --grid workload.stages=1,2 --jobs 2 --metrics dram__bytes_read.sum";
  auto r = run(args + " --out " + (dir / "a").string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::string csv = slurp(dir / "a" / "sweep.csv");
  EXPECT_EQ(csv,
            "workload.cta_order.group_m,workload.stages,dram__bytes_read.sum,error\n"
            "1,1,737280,\n1,2,737280,\n3,1,442368,\n3,2,442368,\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "a" / "sweep.partial.csv"));
  EXPECT_NE(slurp(dir / "a" / "sweep.md").find("| 3 | 2 | 442368 |"), std::string::npos);
  ASSERT_EQ(run(args + " --out " + (dir / "b").string()).code, 0);
  EXPECT_EQ(slurp(dir / "a" / "sweep.csv"), slurp(dir / "b" / "sweep.csv"));
  auto bad = run("sweep --gpu " + src("configs/gpus/seed000-9sm.yaml") + " --workload " +
                 src("configs/workloads/seed000-grouped.yaml") + " --grid workload.stagse=1,2 --out " + (dir / "c").string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("did you mean 'stages'"), std::string::npos) << bad.out;
}

}  // namespace

namespace {

TEST(Cli, CompareReplaysRecordsAndSummarisesErrors) {
  auto dir = gms::test::temp_dir("cli_compare");
  auto r = run("compare --gpu " + src("configs/gpus/h100.yaml") + " " +
               src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc.json") + " " +
               src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_lclc.json") + " " +
               src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w8_lclc.json") + " " +
               src("validate/results/h100/ubench/dram_bandwidth.json") + " --csv " + (dir / "c.csv").string() +
               " --json " + (dir / "c.json").string() + " --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("summary over 3 cases"), std::string::npos) << r.out;  // the microbenchmark has no workload
  EXPECT_NE(r.out.find("dram__bytes_read.sum"), std::string::npos);
  EXPECT_NE(r.out.find("Spearman rank correlation of time, gemv 1x4096x7168"), std::string::npos) << r.out;
  std::string csv = slurp(dir / "c.csv");
  EXPECT_EQ(csv.rfind("case,metric,measured,simulated,error,error_unit\n", 0), 0u);
  EXPECT_NE(csv.find("gemv_1x4096x7168_bn256_bk64_w4_llcc,lts__t_sector_hit_rate.pct,"), std::string::npos);
  EXPECT_NE(slurp(dir / "c.json").find("\"spearman_time\""), std::string::npos);
  EXPECT_EQ(run("compare --gpu " + src("configs/gpus/h100.yaml") + " " + (dir / "c.csv").string()).code, 2);
}

// The SMs' read sectors the L2 tag stage looks up beside those the SMs receive, scored wherever a record carries them:
// their ratio is what the request coalescer merged (docs/calibration.md, "Merged where silicon looks up").
TEST(Cli, CompareScoresTheTagStagesReadSectorsBesideTheDelivered) {
  auto dir = gms::test::temp_dir("cli_compare_merged");
  auto r = run("compare --gpu " + src("configs/gpus/h100.yaml") + " " +
               src("validate/results/h100/triton_gemm/triton_gemm_4096x4096x4096_64x128x32_w4_s4_grouped8.json") +
               " --sample-waves 2 --csv " + (dir / "c.csv").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const std::string csv = slurp(dir / "c.csv");
  auto simulated = [&](const std::string& metric) {
    const std::string key = "triton_gemm_4096x4096x4096_64x128x32_w4_s4_grouped8," + metric + ",";
    const auto at = csv.find(key);
    EXPECT_NE(at, std::string::npos) << csv;
    if (at == std::string::npos) return 0.0;
    const auto sim = csv.find(',', at + key.size()) + 1;  // after the measured value
    return std::stod(csv.substr(sim));
  };
  const double looked_up = simulated("lts__t_sectors_srcunit_tex_op_read.sum");
  const double delivered = simulated("l1tex__m_xbar2l1tex_read_sectors.sum");
  EXPECT_GT(looked_up, 0.0);
  EXPECT_LT(looked_up, delivered);  // some sectors merged into open requests
}

TEST(Cli, CompareTakesRawNcuCsvAndChecksTargets) {
  const std::string base = "compare --gpu " + src("configs/gpus/h100.yaml") + " --ncu " + src("tests/data/ncu/gemv_small.csv") +
                           " --workload " + src("tests/data/ncu/gemv_small.yaml") + " --kernel gemv_splitk";
  auto r = run(base + " --require 'dram__bytes_read.sum:mape<=5' --require 'lts__t_sector_hit_rate.pct:mae<=50'");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("gemv_small#0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ok   dram__bytes_read.sum:mape<=5"), std::string::npos) << r.out;
  auto miss = run(base + " --require 'gpu__time_duration.sum:mape<=0.01'");
  EXPECT_EQ(miss.code, 1) << miss.out;  // a missed target is a failed check, not a user error
  EXPECT_NE(miss.out.find("MISS gpu__time_duration.sum:mape<=0.01"), std::string::npos) << miss.out;
  EXPECT_EQ(run(base + " --require 'time<=3'").code, 2);
  EXPECT_EQ(run("compare --gpu " + src("configs/gpus/h100.yaml") + " --ncu " + src("tests/data/ncu/gemv_small.csv")).code, 2);
}

// Synthetic silicon: records whose times come from the simulator itself at dram.efficiency 0.70.
// Calibrating from the preset (0.92) must find 0.70 again, and say so in the written file.
TEST(Cli, CalibrateRecoversAKnownParameterAndWritesProvenance) {
  auto dir = gms::test::temp_dir("cli_calibrate");
  std::filesystem::create_directories(dir / "records");
  for (int warps : {1, 2, 4, 8}) {
    const std::string name = "gemv_1x4096x4096_w" + std::to_string(warps);
    const std::string wl = gms::test::write_file(
        dir / (name + ".yaml"), "kind: gemv\nname: " + name + "\nm: 1\nk: 4096\nn: 4096\nwarps: " + std::to_string(warps) + "\n");
    auto sim = run("run --gpu " + src("configs/gpus/h100.yaml") + " --workload " + wl +
                   " --set gpu.dram.efficiency=0.70 -q --out " + (dir / name).string());
    ASSERT_EQ(sim.code, 0) << sim.out;
    std::string stats = slurp(dir / name / "stats.json");
    auto at = stats.find("\"gpu__time_duration.sum\": ");
    ASSERT_NE(at, std::string::npos);
    double ns = std::stod(stats.substr(at + 26));
    gms::test::write_file(dir / "records" / (name + ".json"),
                          "{\"case\": \"" + name + "\", \"kind\": \"gemv\", \"workload\": {\"kind\": \"gemv\", \"m\": 1, "
                          "\"k\": 4096, \"n\": 4096, \"warps\": " + std::to_string(warps) +
                          "}, \"measured\": {\"gpu__time_duration.sum\": " + std::to_string(ns) + "}}");
  }
  const std::string out = (dir / "h100-cal.yaml").string();
  // A GPU value fixed with --set (a GEMV has no mma.sync: the fit is the same) is written into the file too.
  auto r = run("calibrate --gpu " + src("configs/gpus/h100.yaml") + " --fit dram.efficiency=0.5:1 --max-evals 20 --jobs 2 " +
               (dir / "records").string() + " --out " + out + " --report " + (dir / "fit.json").string() +
               " --set gpu.sm.mma_sync_holds_dispatch=false");
  ASSERT_EQ(r.code, 0) << r.out;
  std::string yaml = slurp(out);
  auto at = yaml.find("\n  efficiency: ");
  ASSERT_NE(at, std::string::npos) << yaml;
  EXPECT_NEAR(std::stod(yaml.substr(at + 14)), 0.70, 0.02) << yaml.substr(at, 120);
  EXPECT_NE(yaml.find("# calibrated (see header); was 0.905"), std::string::npos);
  const auto fixed_line = yaml.find("  mma_sync_holds_dispatch: false ");
  ASSERT_NE(fixed_line, std::string::npos) << yaml;
  const std::string fixed_note = "# calibrated (see header); was true:";
  EXPECT_EQ(yaml.compare(yaml.find('#', fixed_line), fixed_note.size(), fixed_note), 0) << yaml.substr(fixed_line, 120);
  EXPECT_NE(yaml.find("# Set sm.mma_sync_holds_dispatch: true -> false (--set, not fitted)"), std::string::npos);
  EXPECT_NE(yaml.find("# Training cases (3)"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("# Held-out cases (1)"), std::string::npos) << yaml;
  EXPECT_NE(slurp(dir / "fit.json").find("\"held_out\""), std::string::npos);
  // The calibrated file is a GPU description like any other.
  EXPECT_EQ(run("config show --gpu " + out).code, 0);
  // User errors: unknown key (with a hint), a non-numeric key, nothing written.
  const std::string bad_out = (dir / "bad.yaml").string();
  auto bad = run("calibrate --gpu " + src("configs/gpus/h100.yaml") + " --fit dram.eficiency " + (dir / "records").string() +
                 " --out " + bad_out);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("did you mean 'dram.efficiency'"), std::string::npos) << bad.out;
  EXPECT_EQ(run("calibrate --gpu " + src("configs/gpus/h100.yaml") + " --fit l2.hash " + (dir / "records").string() +
                " --out " + bad_out).code, 2);
  // A --set value the file has no line for could not be written: refused before anything runs.
  auto unset = run("calibrate --gpu " + src("configs/gpus/h100.yaml") + " --fit dram.efficiency " + (dir / "records").string() +
                   " --set gpu.sm.copy_waits_per_warp=2 --out " + bad_out);
  EXPECT_EQ(unset.code, 2);
  EXPECT_NE(unset.out.find("add the key there first"), std::string::npos) << unset.out;
  EXPECT_FALSE(std::filesystem::exists(bad_out));
}

}  // namespace

TEST(Compare, SpearmanOfRanks) {
  EXPECT_DOUBLE_EQ(gms::spearman({1, 2, 3, 4}, {10, 20, 30, 40}), 1.0);
  EXPECT_DOUBLE_EQ(gms::spearman({1, 2, 3, 4}, {4, 3, 2, 1}), -1.0);
  EXPECT_NEAR(gms::spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}), 0.8, 1e-12);
  EXPECT_NEAR(gms::spearman({1, 1, 2}, {5, 6, 7}), 0.866025403784, 1e-9);  // ties share ranks
}

namespace {

TEST(Cli, ProgressGoesToStderrOnlyWhenAsked) {
  auto dir = gms::test::temp_dir("cli_progress");
  std::string base = std::string(GPUMEMSIM_BINARY) + " " + seed_args("grouped") + " --set workload.cta_limit=0 -q";
  ASSERT_EQ(std::system((base + " --progress 2> " + (dir / "on.txt").string()).c_str()), 0);
  ASSERT_EQ(std::system((base + " 2> " + (dir / "off.txt").string()).c_str()), 0);  // stderr is a file: no terminal
  std::string on = slurp(dir / "on.txt");
  EXPECT_NE(on.find("% of CTAs retired"), std::string::npos) << on;
  EXPECT_NE(on.find("ETA"), std::string::npos) << on;
  EXPECT_TRUE(slurp(dir / "off.txt").empty());
}

}  // namespace

// gpumemsim access: the seed's copies from the command line, errors, JSON, lane lists, pictures.
TEST(CliAccess, SeedCopiesJsonLanesAndReport) {
  auto dir = gms::test::temp_dir("access");
  auto r = run("access --tensor \"(64,16):(1,64)\" --threads \"(16,4):(1,16)\" --values \"(4,1)\" --width 16B --op st");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum                   32"), std::string::npos) << r.out;
  std::string lanes = (dir / "tCsA.csv").string();
  r = run("access --tensor \"(64,16):(1,64)\" --partition \"(8,8)\" --step 1,X --json " + (dir / "a.json").string() +
          " --emit-lanes " + lanes + " --report " + (dir / "pic").string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream j(dir / "a.json");
  std::stringstream js;
  js << j.rdbuf();
  EXPECT_NE(js.str().find("\"smsp__sass_inst_executed_op_shared_ld.sum\": 256"), std::string::npos);
  EXPECT_TRUE(std::filesystem::file_size(dir / "pic" / "access.svg") > 1000);
  EXPECT_TRUE(std::filesystem::file_size(dir / "pic" / "access.png") > 1000);
  // The emitted lane list replays to the same counts.
  r = run("access --lanes " + lanes + " --threads-per-cta 64 --width 4B --json -");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\": 256"), std::string::npos) << r.out;
}

TEST(CliAccess, MistakesAreExitCode2AndWriteNothing) {
  auto dir = gms::test::temp_dir("access_err");
  std::string out = " --json " + (dir / "x.json").string() + " --emit-lanes " + (dir / "x.csv").string();
  struct Case {
    std::string args, expect;
  } cases[] = {
      {"access --tensor \"(64,16:(1,64)\" --partition \"(64,1)\"", "--tensor '(64,16:(1,64)': expected ',' or ')', found ':' at column 7"},
      {"access --tensor \"(64,16):(1,64)\" --threads \"(16,4):(1,8)\" --values \"(4,1)\"", "is not a bijection"},
      {"access --tensor \"(64,16):(16,1)\" --threads \"(16,4)\" --values \"(4,1)\" --width 16B", "are not contiguous in memory"},
      {"access --tensor \"(64,16):(1,64)\" --partition \"(64,1)\" --space texture", "--space 'texture': expected shared or global"},
      {"access --tensor \"(64,16):(1,64)\" --partition \"(64,1)\" --width 12B", "--width 12B: a lane accesses 1, 2, 4, 8 or 16 bytes"},
      {"access --tensor \"(64,16):(1,64)\" --partition \"(64,1)\" --swizzle 3,3,1", "CuTe requires |S| >= B"},
      {"access --lanes /nonexistent.csv --threads-per-cta 32 --width 4B", "cannot read the lane list"},
      {"access --tensor \"(64,16):(1,64)\"", "a TiledCopy needs --threads and --values"},
  };
  for (const auto& c : cases) {
    auto r = run(c.args + out);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.out;
    EXPECT_NE(r.out.find(c.expect), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_FALSE(std::filesystem::exists(dir / "x.json"));
    EXPECT_FALSE(std::filesystem::exists(dir / "x.csv"));
  }
}

// The lane lists the GPU replayed are what `gpumemsim access` makes of validate/access/patterns.txt today.
TEST(CliAccess, CommittedLaneListsAreCurrent) {
  auto dir = gms::test::temp_dir("access_lanes");
  std::ifstream patterns(src("validate/access/patterns.txt"));
  std::string line;
  int compared = 0;
  while (std::getline(patterns, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto bar = line.find('|');
    std::string name = line.substr(0, line.find_first_of(" |"));
    std::string args;  // each token quoted: the layouts hold parentheses
    std::istringstream tokens(line.substr(bar + 1));
    for (std::string tok; tokens >> tok;) args += " '" + tok + "'";
    std::string fresh = (dir / (name + ".csv")).string();
    // --lanes paths in the file are relative to validate/access.
    Result r = run_in(src("validate/access"), "access" + args + " --emit-lanes " + fresh);
    ASSERT_EQ(r.code, 0) << name << "\n" << r.out;
    std::ifstream a(fresh), b(src("validate/access/lanes/" + name + ".csv"));
    std::stringstream sa, sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    EXPECT_EQ(sa.str(), sb.str()) << name << ": run validate/scripts/make_access_lanes.sh";
    ++compared;
  }
  EXPECT_GE(compared, 60);
}

namespace {

// `gpumemsim issue` with an export that has warp-state samples: the replay line and the YAML carry
// the measured wait, dispatch and branch stalls; the JSON has them per K tile.
TEST(Cli, IssueReadsTheMeasuredStallsFromTheExport) {
  const std::string sass = gms::test::source_path("validate/results/h100/issue/gms-validate.sm90.sass.xz");
  const std::string src = gms::test::source_path("validate/results/h100/issue/wmma_source.csv.xz");
  auto r = run("issue " + sass + " --kernel gemm_fp16_kernelILi32ELi3ELi8E --executed " + src);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("--set workload.issue.measured.dispatch_stall=125cycles"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  measured:\n    wait: 701cycles\n"), std::string::npos) << r.out;
  auto j = run("issue " + sass + " --kernel gemm_fp16_kernelILi32ELi3ELi8E --executed " + src + " --json");
  ASSERT_EQ(j.code, 0) << j.out;
  EXPECT_NE(j.out.find("\"measured_per_k_tile\": {\"selected\": 353."), std::string::npos) << j.out;
  auto s = run("issue " + sass + " --kernel gemm_fp16_kernelILi32ELi3ELi8E");  // no export: no samples
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_EQ(s.out.find("measured"), std::string::npos) << s.out;
}

// An export of two launches of the WMMA GEMM - two CTAs per SM, then one (validate/results/h100/cta_occupancy):
// --section picks the launch; the measured cycles split by instruction class show where the second CTA's
// dispatch stalls sit (on the HMMAs: 49.7 cycles per K tile shared, 0.4 alone).
TEST(Cli, IssueReadsTheSectionAskedForAndSplitsTheMeasuredStallsByClass) {
  const std::string sass = gms::test::source_path("validate/results/h100/issue/gms-validate.sm90.sass.xz");
  const std::string src = gms::test::source_path("validate/results/h100/cta_occupancy/cta_occupancy_source.csv.xz");
  const std::string base = "issue " + sass + " --kernel gemm_fp16_kernelILi32ELi3ELi8E --executed " + src;
  auto shared = run(base + " --json");
  ASSERT_EQ(shared.code, 0) << shared.out;
  EXPECT_NE(shared.out.find("\"mma\": {\"instructions\": 64.000, \"stall_cycles\": 336.000, \"measured\": {\"selected\": 63.690, \"wait\": 333.746, \"dispatch_stall\": 49.717"),
            std::string::npos) << shared.out;
  EXPECT_NE(shared.out.find("\"dispatch_stall\": 125.2"), std::string::npos) << shared.out;  // the records' 125
  auto alone = run(base + " --section 2");
  ASSERT_EQ(alone.code, 0) << alone.out;
  EXPECT_NE(alone.out.find("--set workload.issue.measured.dispatch_stall=15cycles"), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("#   mma                64.0        336.0     5.25                 63.8    276.2      0.4"),
            std::string::npos) << alone.out;
  auto past = run(base + " --section 3");
  EXPECT_EQ(past.code, 2);
  EXPECT_NE(past.out.find("section 3 asked for, but only 2"), std::string::npos) << past.out;
}

// The ladder's 128-thread rung uses its shared reads a few instructions after loading them: issue
// prints the walk's two numbers as replay settings (and the loop's register-bank conflict cycles);
// a setting without the loop's instruction count is a user error.
TEST(Cli, IssueGivesTheLoopsSharedReadWait) {
  const std::string sass = gms::test::source_path("validate/results/h100/issue/gms-ladder.sm90.sass.xz");
  const std::string src = gms::test::source_path("validate/results/h100/issue/ladder_source.csv.xz");
  auto r = run("issue " + sass + " --kernel sgemm_ladderILi64ELi64ELi16ELi16ELi8ELi4ELb0ELi1ELi0ELi1EE --executed " + src);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("  shared_reads:\n    exposed: 58.0\n    hidden: 4cycles\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--set workload.issue.shared_reads.exposed=58.0"), std::string::npos) << r.out;
  // 207 since the reuse cache outlives the LDS between two FFMAs (209 before: docs/issue-model.md).
  EXPECT_NE(r.out.find("  register_bank_conflicts: 207cycles\n"), std::string::npos) << r.out;
  auto j = run("issue " + sass + " --kernel sgemm_ladderILi64ELi64ELi16ELi16ELi8ELi4ELb0ELi1ELi0ELi1EE --json");
  ASSERT_EQ(j.code, 0) << j.out;
  EXPECT_NE(j.out.find("\"shared_reads_per_k_tile\": {\"exposed\": "), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"register_bank_conflict_cycles_per_k_tile\": "), std::string::npos) << j.out;
  auto bad = run("run -g " + gms::test::source_path("configs/gpus/h100.yaml") + " -w " +
                 gms::test::source_path("configs/workloads/seed002/r0-naive.yaml") +
                 " -s workload.issue.shared_reads.exposed=58 -q -o " + ::testing::TempDir() + "/exposed_without_count");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("issue.shared_reads.exposed"), std::string::npos) << bad.out;
}

// One SM of a preset: its per-SM lists (the SMs' L2 partitions, the dispatch order) name all its SMs: cleared.
const std::string kOneSmOfThePreset = " --set gpu.sm.count=1 --set gpu.l2.sm_partitions= --set gpu.launch.sm_order=";
// ... and without the DRAM's latency spread: a read draws its access time by its arrival tick, and the two booking
// orders do not bring every read to its channel at the same tick (with the spread they agree within 0.01 %).
const std::string kOneSmNoSpread = kOneSmOfThePreset + " --set gpu.dram.latency_spread=";

// l2.reads_in_arrival_order hands a load's lines to the slices when they leave their SM, not when the warp
// issues it. On one SM the two orders are the same (its port serves in issue order), so a cp.async GEMM (the
// WMMA record: copies past L1, fills queued at arrival, barriers) must simulate to the same numbers either way;
// with every SM of the GPU the outboxes interleave and the time moves.
TEST(Cli, ReadsInArrivalOrderChangeNothingOnOneSm) {
  auto dir = gms::test::temp_dir("cli_reads_in_order");
  const std::string base = "run -q -g " + src("configs/gpus/h100.yaml") + " --record " +
                           src("validate/results/h100/gemm/gemm_8192x8192x8192_grouped8.json");
  const std::string args = base + " --set workload.cta_limit=6" + kOneSmNoSpread;
  ASSERT_EQ(run(args + " -o " + (dir / "at_issue").string()).code, 0);
  ASSERT_EQ(run(args + " --set gpu.l2.reads_in_arrival_order=true -o " + (dir / "in_order").string()).code, 0);
  auto metrics = [](const std::filesystem::path& p) {
    const std::string s = slurp(p / "stats.json");
    return s.substr(s.find("\"metrics\""), s.find("\"metric_info\"") - s.find("\"metrics\""));
  };
  EXPECT_EQ(metrics(dir / "at_issue"), metrics(dir / "in_order"));
  EXPECT_EQ(slurp(dir / "at_issue" / "ctas.csv"), slurp(dir / "in_order" / "ctas.csv"));
  const std::string many = base + " --set workload.cta_limit=264";  // one wave on every SM
  ASSERT_EQ(run(many + " -o " + (dir / "many_at_issue").string()).code, 0);
  ASSERT_EQ(run(many + " --set gpu.l2.reads_in_arrival_order=true -o " + (dir / "many_in_order").string()).code, 0);
  EXPECT_NE(slurp(dir / "many_at_issue" / "ctas.csv"), slurp(dir / "many_in_order" / "ctas.csv"));
}

// With l2.writes_in_arrival_order too, every request an SM sends (loads, stores, reductions, a spill's write-backs)
// reaches the slices in its departure order; on one SM that is issue order again, so the GEMV (reductions at the
// end of each CTA, which its warps' exits wait for) and the WMMA record (its epilogue's stores) must simulate to
// the same numbers as when everything is booked at issue - the exits' deferred drains included. With loads' data on
// the shared-memory data path (sm.load_data_bytes_per_cycle) this also needs an L1 hit on sectors whose miss is still
// in the outbox to wait for that miss's data (model/l1_in_flight.h): reading the unloaded estimate instead, the GEMV's
// hits took the path 29 of 1,045,120 cycles sooner.
TEST(Cli, WritesInArrivalOrderChangeNothingOnOneSm) {
  auto dir = gms::test::temp_dir("cli_writes_in_order");
  const std::string both = " --set gpu.l2.reads_in_arrival_order=true --set gpu.l2.writes_in_arrival_order=true";
  const std::string runs[] = {
      "run -q -g " + src("configs/gpus/h100.yaml") + " -w " + src("configs/workloads/seed001-gemv-llcc.yaml") +
          kOneSmNoSpread,
      "run -q -g " + src("configs/gpus/h100.yaml") + " --record " +
          src("validate/results/h100/gemm/gemm_8192x8192x8192_grouped8.json") + " --set workload.cta_limit=6" +
          kOneSmNoSpread};
  auto metrics = [](const std::filesystem::path& p) {
    const std::string s = slurp(p / "stats.json");
    return s.substr(s.find("\"metrics\""), s.find("\"metric_info\"") - s.find("\"metrics\""));
  };
  int k = 0;
  for (const std::string& args : runs) {
    const auto at_issue = dir / ("at_issue" + std::to_string(k)), in_order = dir / ("in_order" + std::to_string(k++));
    ASSERT_EQ(run(args + " -o " + at_issue.string()).code, 0) << args;
    ASSERT_EQ(run(args + both + " -o " + in_order.string()).code, 0) << args;
    EXPECT_EQ(metrics(at_issue), metrics(in_order)) << args;
    EXPECT_EQ(slurp(at_issue / "ctas.csv"), slurp(in_order / "ctas.csv")) << args;
  }
}

}  // namespace

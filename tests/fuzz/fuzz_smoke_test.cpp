// The fuzz entry points on seeded mutations of valid inputs, in every test run (no clang needed):
// byte flips, insertions, deletions and splices of layout strings and lane lists.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/files.h"

#include "fuzz_entries.h"
#include "fuzz_entries_sim.h"

namespace {

std::string mutate(std::string s, std::mt19937& rng) {
  static const std::string alphabet = "0123456789(),:_-X# \n\r\tSwizzle<>abc\x00\xff";
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    char c = alphabet[rng() % alphabet.size()];
    switch (rng() % 3) {
      case 0: if (pos < s.size()) s[pos] = c; break;
      case 1: s.insert(s.begin() + static_cast<std::ptrdiff_t>(pos), c); break;
      default: if (pos < s.size()) s.erase(pos, 1 + rng() % 3); break;
    }
  }
  return s;
}

template <class Fn>
void run_corpus(const std::vector<std::string>& seeds, Fn fn, int iterations) {
  std::mt19937 rng(20261123);
  for (int i = 0; i < iterations; ++i) {
    std::string s = mutate(seeds[rng() % seeds.size()], rng);
    if (rng() % 8 == 0) s += seeds[rng() % seeds.size()];  // splice
    fn(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  }
}

TEST(FuzzSmoke, LayoutAndSwizzleStrings) {
  run_corpus({"(16,4):(1,16)", "((4,2),8):((2,16),1)", "(64,16)", "8:1", "((_4,_1),_1,_4):((_1,_0),_0,_256)", "3,3,3",
              "Swizzle<2,0,-2>", "(2147483647,2147483647):(1,1)", "((((1))))"},
             gms::fuzz::layout_string, 20000);
}

TEST(FuzzSmoke, LocalPrograms) {
  run_corpus({"C90 X3 C6 X4 C63 S62+2/1 C2 S64+4/2~2 D8 L0+48/24.5", "X_ W64._ F12 D63", "W128.1 S4194303+1/1"},
             gms::fuzz::local_program_text, 20000);
}

TEST(FuzzSmoke, LaneLists) {
  run_corpus({"thread,instruction,byte_offset\n0,0,0\n1,0,16\n2,1,32\n",
              "# c\nthread,instruction,byte_offset\n63,3,4096\n0,0,0\n",
              "thread,instruction,byte_offset\n5,0,128\n6,0,128\n7,0,256\r\n"},
             gms::fuzz::lane_list, 20000);
}

TEST(FuzzSmoke, SassListings) {
  run_corpus({"        /*0a30*/                   HMMA.16816.F32 R4, R8, R12, R4 ;   /* 0x0000000c0804723c */\n"
              "                                                                      /* 0x004fe40000001804 */\n"
              "        /*0a40*/              @!P0 BRA 0xa30 ;                      /* 0xfffffffc00f88947 */\n"
              "                                                                      /* 0x000fea000383ffff */\n",
              "\"Kernel Name\",\"k\"\n\"Address\",\"Source\",\"Instructions Executed\"\n\"0x1\",\"  HMMA.16816.F32 R4 ;\",\"5\"\n"},
             gms::fuzz::sass_listing, 20000);
}

TEST(FuzzSmoke, AccelSimTraces) {
  const std::string head =
      "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-accelsim tracer version = 5\n#c\n";
  run_corpus({head + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                     "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n",
              head + "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 1\n"
                     "0870 0000000b 1 R28 LDL 1 R6 4 2 0xfffc50 8 -4 0\n#END_TB\n",
              head + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                     "00a0 00000003 0 STG.E 2 R6 R9 8 0 0x7f00 0x7f08 0\n#END_TB\n"},
             gms::fuzz::accelsim_trace, 20000);
}

TEST(FuzzSmoke, TraceReplay) {
  const std::string head =
      "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-nregs = 32\n-binary version = 90\n"
      "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n-accelsim tracer version = 5\n";
  run_corpus({head + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 4\n"
                     "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n0008 ffffffff 1 R3 FFMA 2 R1 R1 0 0\n"
                     "0009 ffffffff 0 BAR.SYNC 0 0 0\n0010 ffffffff 0 EXIT 0 0 0\nwarp = 1\ninsts = 1\n"
                     "0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n",
              head + "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 3\n"
                     "0870 0000000b 1 R28 LDL 1 R6 4 2 0xfffc50 8 -4 0\n0880 ffffffff 0 STS 2 R1 R28 4 1 0x0 4 0\n"
                     "0890 ffffffff 1 R2 LDS.128 1 R1 16 1 0x0 16 0\n#END_TB\n",
              head + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                     "00a0 00000003 0 LDGSTS.E.128 2 R6 R9 16 0 0x7f00 0x7f10 0\n00b0 ffffffff 0 LDGDEPBAR 0 0 0\n"
                     "00c0 ffffffff 0 DEPBAR.LE 0 0 0\n#END_TB\n"},
             gms::fuzz::trace_replay, 400);  // each replay builds a GPU: ~9 ms
}

TEST(FuzzSmoke, IsaTables) {
  run_corpus({"arch: sm_90\ncompute_capability: 90\nclasses:\n  a: {kind: alu, pipe: fma, latency: 4cycles}\n"
              "opcodes:\n  FFMA: a\n",
              "arch: x\ncompute_capability: 80\nclasses: {l: {kind: global_load, l1: bypass}}\nopcodes: {LDG.E: l}\n"},
             gms::fuzz::isa_table, 3000);
}

TEST(FuzzSmoke, ConfigYaml) {
  run_corpus({"kind: gemm\nm: 256\nn: 256\nk: 64\ntile: {m: 64, n: 64, k: 32}\ncta_order: {kind: grouped, group_m: 4}\n",
              "kind: gemv\nn: 4096\nk: 4096\nblock: {n: 128, k: 32}\norder: lclc\n",
              "gname: x\nsm: {count: 4, warp_size: 32}\nl2: {size: 4MiB, slices: 8}\nclock: {sm: 1GHz}\n"},
             gms::fuzz::config_yaml, 3000);
}

TEST(FuzzSmoke, CarveOutAndLatencySpreadLists) {
  run_corpus({"0KiB,8KiB,16KiB,32KiB,64KiB,100KiB,132KiB,164KiB,196KiB,228KiB", "0, 1KB ,2MiB", "4096",
              "-90cycles, -68cycles, 0cycles, 269cycles, 576cycles", "-5, 5"},
             gms::fuzz::config_lists, 20000);
}

TEST(FuzzSmoke, SmOrdersAndGpcSizes) {
  run_corpus({"\x03" "124-131,0-1,16-17", "\x07" "7-0", "\x03" "0,1,2,3", "\x0b" "12,12,18", "\x00" "", "\x3f" "63-0"},
             gms::fuzz::sm_lists, 20000);
}

TEST(FuzzSmoke, NcuCsv) {
  run_corpus({"\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\"\n"
              "\"\",\"\",\"ns\",\"byte\"\n\"0\",\"matmul_kernel\",\"1,234\",\"5678\"\n"},
             gms::fuzz::ncu_csv, 1500);
}

TEST(FuzzSmoke, RecordJson) {
  run_corpus({R"({"case": "g", "kind": "gemv", "workload": {"kind": "gemv", "n": 256, "k": 256, "block": {"n": 128, "k": 32}},
"measured": {"gpu__time_duration.sum": 1000}, "ncu": {"counters": {"gpu__time_duration.sum": 990, "dram__bytes_read.sum": 1e6}},
"repeat": {"ncu_gpu__time_duration.sum": [980, 1001.5, 995], "events_gpu__time_duration.sum": [1000]}})",
              R"({"case": 7, "workload": {"kind": "gemm"}, "measured": {"gpu__time_duration.sum": "x"}, "repeat": []})"},
             gms::fuzz::record_json, 3000);
}

TEST(FuzzSmoke, SavedScorecardJson) {
  run_corpus({R"j({"gpu": "NVIDIA H100 SXM5 80GB", "sample_waves": 2, "overrides": ["gpu.dram.efficiency=0.9"], "cases": [
{"case": "gemv_a", "group": "gemv 1x4096x7168 (warps x order)", "record_set": "gemv", "metrics": {
"gpu__time_duration.sum": {"measured": 26874.5, "simulated": 26874.24245, "error": -0.001, "unit": "%"},
"lts__t_sector_hit_rate.pct": {"measured": 51.2, "simulated": 50.9, "error": -0.3, "unit": "pp"}}}]})j",
              R"j({"gpu": "x", "cases": [{"case": 1, "record_set": [], "metrics": {"m": {"measured": "a"}}}]})j"},
             gms::fuzz::saved_scorecard_json, 3000);
}

// Seeds: a small exported GEMM (stored raw, so mutations reach the decoders, not only zlib) and a
// converted SASS trace.
TEST(FuzzSmoke, GmsTrace) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "gpumemsim_fuzz_gms";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string src = GPUMEMSIM_SOURCE_DIR;
  gms::LoadedConfigs cfg = gms::load_configs(gms::ConfigInputs(
      src + "/configs/gpus/seed000-9sm.yaml", src + "/configs/workloads/seed000-grouped.yaml", {"workload.cta_limit=2"}));
  auto k = gms::make_kernel(cfg.workload.value, cfg.gpu.value);
  {
    gms::GmsTraceWriter w((dir / "gemm.gmstrace").string(), 0);
    gms::export_kernel(*k, false, w);
    w.finish();
  }
  gms::write_file_atomically((dir / "k.traceg").string(),
                             "-kernel name = k\n-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-nregs = 32\n-binary version = 90\n"
                             "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007e0000000000\n"
                             "-accelsim tracer version = 5\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                             "0000 ffffffff 1 R1 LDG.E 1 R2 4 1 0x1000 4 0\n0008 ffffffff 1 R3 FFMA 2 R1 R1 0 0\n"
                             "0010 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
  gms::convert_accelsim_trace((dir / "k.traceg").string(), (dir / "sass.gmstrace").string());
  run_corpus({gms::read_file((dir / "gemm.gmstrace").string()), gms::read_file((dir / "sass.gmstrace").string())},
             gms::fuzz::gms_trace, 3000);
}

}  // namespace

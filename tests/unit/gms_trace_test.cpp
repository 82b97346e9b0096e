// The project's own trace format (.gmstrace): the byte codec, lossless SASS conversion of Accel-Sim
// traces, the bit-identical round trip of exported generated workloads, xz-compressed text traces,
// and corrupt or truncated files ending in clear errors.
#include <gtest/gtest.h>
#include <lzma.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "api/simulation.h"
#include "common/error.h"
#include "common/files.h"
#include "stats/metrics.h"
#include "test_util.h"
#include "trace/gms_trace.h"
#include "workload/recorded_kernel.h"

namespace gms {
namespace {

TEST(GmsTrace, BytesRoundTrip) {
  std::mt19937_64 rng(7);
  ByteWriter w;
  std::vector<std::uint64_t> u;
  std::vector<std::int64_t> z;
  std::vector<double> d;
  for (int i = 0; i < 2000; ++i) {
    u.push_back(i < 3 ? (i == 0 ? 0 : ~std::uint64_t{0} >> (i - 1)) : rng() >> (rng() % 64));
    z.push_back(i == 0 ? INT64_MIN : i == 1 ? INT64_MAX : static_cast<std::int64_t>(rng()) >> (rng() % 64));
    d.push_back(std::ldexp(static_cast<double>(rng() % 1000003), static_cast<int>(rng() % 80) - 40));
    w.varint(u.back());
    w.zigzag(z.back());
    w.f64(d.back());
    w.str(std::string(i % 7, static_cast<char>('a' + i % 26)));
  }
  ByteReader r(w.bytes(), "test");
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(r.varint(), u[i]);
    ASSERT_EQ(r.zigzag(), z[i]);
    ASSERT_EQ(r.f64(), d[i]);
    ASSERT_EQ(r.str(), std::string(i % 7, static_cast<char>('a' + i % 26)));
  }
  EXPECT_TRUE(r.at_end());
  EXPECT_THROW(r.u8(), ConfigError);
  ByteWriter huge;
  huge.varint(1ull << 40);  // a count the block cannot hold
  ByteReader h(huge.bytes(), "test");
  EXPECT_THROW(h.count(), ConfigError);
}

// Random thread blocks, with strided and scattered lane addresses, survive encode -> decode.
TEST(GmsTrace, SassCtasRoundTrip) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    TraceCta cta;
    cta.x = static_cast<int>(rng() % 100);
    cta.y = static_cast<int>(rng() % 3);
    cta.z = 0;
    cta.warps.resize(rng() % 4 + 1);
    for (std::size_t w = 0; w < cta.warps.size(); ++w) {
      cta.warps[w].warp = static_cast<int>(w);
      for (int i = 0; i < 40; ++i) {
        TraceInstr in;
        in.pc = 0x10 * static_cast<std::uint64_t>(i) + (rng() % 3 == 0 ? 0x1000 : 0);
        in.mask = static_cast<std::uint32_t>(rng());
        in.opcode = std::vector<std::string>{"LDG.E.128", "FFMA", "STS.64", "BAR.SYNC"}[rng() % 4];
        for (int k = 0; k < static_cast<int>(rng() % 3); ++k)
          in.dests.push_back({static_cast<TraceRegister::Kind>(rng() % 4), static_cast<std::uint16_t>(rng() % 256)});
        for (int k = 0; k < static_cast<int>(rng() % 4); ++k)
          in.srcs.push_back({TraceRegister::Kind::kR, static_cast<std::uint16_t>(rng() % 256)});
        if (rng() % 2) {
          in.mem_width = 4u << (rng() % 3);
          const int lanes = static_cast<int>(rng() % 32) + 1;
          const std::uint64_t base = 0x7f0000000000ull + (rng() % 100000) * 4;
          for (int l = 0; l < lanes; ++l) in.addresses.push_back(rng() % 3 ? base + 16ull * l : base + rng() % 4096);
        }
        in.immediate = static_cast<std::int64_t>(rng() % 200) - 100;
        cta.warps[w].instrs.push_back(in);
      }
    }
    const std::string bytes = encode_sass_cta(cta);
    ByteReader r(bytes, "test");
    TraceCta back;
    decode_sass_cta(r, back);
    ASSERT_EQ(back.x, cta.x);
    ASSERT_EQ(back.warps.size(), cta.warps.size());
    for (std::size_t w = 0; w < cta.warps.size(); ++w) ASSERT_EQ(back.warps[w].instrs, cta.warps[w].instrs) << trial;
  }
}

// Converting a public trace keeps every instruction of every thread block.
TEST(GmsTrace, ConvertKeepsEveryInstruction) {
  NEED_SHARED_TRACES();
  auto dir = test::temp_dir("gms_convert");
  const std::string src = test::shared_trace("rodinia-b+tree-128-1000");
  const std::string out = (dir / "btree.gmstrace").string();
  ConvertStats st = convert_accelsim_trace(src, out);
  EXPECT_EQ(st.kernels, 2);
  EXPECT_LT(st.file_bytes * 5, st.raw_bytes);  // compresses
  auto cmds = scan_gms_trace(out);
  auto text = read_trace_commands(src);
  ASSERT_EQ(cmds.size(), text.size());
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    if (text[i].kind == TraceCommand::Kind::kMemcpyHtoD) {
      EXPECT_EQ(cmds[i].address, text[i].address);
      EXPECT_EQ(cmds[i].bytes, text[i].bytes);
      continue;
    }
    TraceKernelReader a(text[i].path);
    GmsSassCtaSource b(out, cmds[i]);
    EXPECT_EQ(b.header().name, a.header().name);
    EXPECT_EQ(b.header().grid.x, a.header().grid.x);
    EXPECT_EQ(b.header().shmem_base, a.header().shmem_base);
    TraceCta x, y;
    int n = 0;
    while (a.next_cta(x)) {
      ASSERT_TRUE(b.next_cta(y));
      ASSERT_EQ(x.warps.size(), y.warps.size());
      for (std::size_t w = 0; w < x.warps.size(); ++w) ASSERT_EQ(x.warps[w].instrs, y.warps[w].instrs);
      ++n;
    }
    EXPECT_FALSE(b.next_cta(y));
    EXPECT_EQ(n, cmds[i].ctas);
  }
}

struct Run {
  RunOutput out;
  std::vector<Metric> metrics;
};

Run run(const std::string& gpu, const std::string& workload, const std::vector<std::string>& sets = {}) {
  LoadedConfigs cfg = load_configs(ConfigInputs(gpu, workload, sets));
  Run r;
  r.out = simulate(cfg);
  r.metrics = compute_metrics(r.out.result, cfg.gpu.value, *r.out.kernel);
  return r;
}

void expect_identical(const Run& a, const Run& b) {
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_EQ(a.metrics[i].name, b.metrics[i].name);
    EXPECT_EQ(a.metrics[i].value, b.metrics[i].value) << a.metrics[i].name;  // bit for bit
  }
  ASSERT_EQ(a.out.result.ctas.size(), b.out.result.ctas.size());
  for (std::size_t i = 0; i < a.out.result.ctas.size(); ++i) {
    const CtaRecord &x = a.out.result.ctas[i], &y = b.out.result.ctas[i];
    ASSERT_TRUE(x.sm == y.sm && x.start == y.start && x.end == y.end && x.tile.m == y.tile.m && x.tile.n == y.tile.n &&
                x.mem.l2_hit_sectors == y.mem.l2_hit_sectors && x.mem.l2_miss_sectors == y.mem.l2_miss_sectors)
        << "CTA record " << i;
  }
}

// Exported generated workloads replay to the generated run's statistics, bit for bit: a tensor-core
// GEMM (power-model clock), a GEMV with reductions, a SIMT tiled GEMM.
TEST(GmsTrace, ExportedWorkloadsReplayBitIdentical) {
  auto dir = test::temp_dir("gms_export");
  struct Case {
    std::string gpu, workload;
    std::vector<std::string> sets;
  };
  const std::vector<Case> cases = {
      {"h100", test::source_path("configs/workloads/gemm-8192-grouped8.yaml"), {"workload.cta_limit=150"}},
      {"h100", test::source_path("configs/workloads/seed001-gemv-llcc.yaml"), {}},
      {"a100", test::source_path("configs/workloads/seed000-grouped.yaml"), {}},
      {"h100", test::source_path("configs/workloads/seed002/r0-naive.yaml"), {"workload.cta_limit=40"}},
  };
  int i = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.workload);
    const std::string trace = (dir / ("k" + std::to_string(i++) + ".gmstrace")).string();
    LoadedConfigs cfg = load_configs(ConfigInputs(c.gpu, c.workload, c.sets));
    auto kernel = make_kernel(cfg.workload.value, cfg.gpu.value);
    {
      GmsTraceWriter w(trace);
      export_kernel(*kernel, runs_at_tensor_clock(cfg.workload.value, cfg.gpu.value), w);
      w.finish();
    }
    const std::string wl = test::write_file(dir / ("k" + std::to_string(i) + ".yaml"), "kind: trace\npath: " + trace + "\n");
    expect_identical(run(c.gpu, c.workload, c.sets), run(c.gpu, wl));
  }
}

// A converted trace replays exactly as its text.
TEST(GmsTrace, ConvertedTraceReplaysAsText) {
  NEED_SHARED_TRACES();
  auto dir = test::temp_dir("gms_convert_replay");
  const std::string src = test::shared_trace("rodinia-b+tree-128-1000");
  const std::string out = (dir / "btree.gmstrace").string();
  convert_accelsim_trace(src, out);
  expect_identical(run("h100-pcie", test::write_file(dir / "t.yaml", "kind: trace\npath: " + src + "\n")),
                   run("h100-pcie", test::write_file(dir / "b.yaml", "kind: trace\npath: " + out + "\n")));
}

std::string xz(const std::string& data) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  std::size_t pos = 0;
  EXPECT_EQ(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()),
                                    data.size(), reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size()),
            LZMA_OK);
  out.resize(pos);
  return out;
}

// kernelslist.g naming kernel-1.traceg finds kernel-1.traceg.xz and replays it as the plain file.
TEST(GmsTrace, XzCompressedTextTraces) {
  NEED_SHARED_TRACES();
  auto dir = test::temp_dir("gms_xz");
  const std::string src = test::shared_trace("vectoradd");
  std::filesystem::create_directories(dir / "vxz");
  for (const auto& e : std::filesystem::directory_iterator(src)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".traceg")
      write_file_atomically((dir / "vxz" / (name + ".xz")).string(), xz(read_file(e.path().string())));
    else
      std::filesystem::copy_file(e.path(), dir / "vxz" / name);
  }
  expect_identical(run("h100-pcie", test::write_file(dir / "t.yaml", "kind: trace\npath: " + src + "\n")),
                   run("h100-pcie", test::write_file(dir / "x.yaml", "kind: trace\npath: " + (dir / "vxz").string() + "\n")));
  // A corrupt .xz ends in a clear error.
  write_file_atomically((dir / "bad.traceg.xz").string(), "\xfd" "7zXZ not really");
  EXPECT_THROW(TraceKernelReader((dir / "bad.traceg.xz").string()), ConfigError);
}

// Every truncation of a valid file, and corrupted bytes, end in ConfigError (or, for a flipped byte
// that still decodes, a replayable trace) - never in a crash or an assertion.
TEST(GmsTrace, TruncatedAndCorruptFilesAreErrors) {
  auto dir = test::temp_dir("gms_corrupt");
  const std::string good = (dir / "good.gmstrace").string();
  {
    LoadedConfigs cfg = load_configs(ConfigInputs("seed000-9sm", test::source_path("configs/workloads/seed000-grouped.yaml")));
    auto k = make_kernel(cfg.workload.value, cfg.gpu.value);
    GmsTraceWriter w(good, 0);  // stored raw: flipped bytes reach the decoders, not only zlib
    export_kernel(*k, false, w);
    w.finish();
  }
  const std::string bytes = read_file(good);
  auto read_all = [&](const std::string& data) {
    const std::string path = (dir / "x.gmstrace").string();
    write_file_atomically(path, data);
    for (const GmsCommand& c : scan_gms_trace(path)) {
      if (c.kind != GmsCommand::Kind::kKernel) continue;
      RecordedKernel k(path, c);
      for (std::int64_t cta = 0; cta < k.shape().ctas; ++cta) {
        for (int w = 0; w < k.shape().warps_per_cta; ++w) {
          WarpCursor cur;
          k.start_warp(cur, cta, w);
          Instr in;
          do k.next(cur, in);
          while (in.op != Op::kExit);
        }
      }
    }
  };
  EXPECT_NO_THROW(read_all(bytes));
  for (std::size_t n = 0; n < bytes.size(); n += std::max<std::size_t>(1, bytes.size() / 300))
    EXPECT_THROW(read_all(bytes.substr(0, n)), ConfigError) << "truncated to " << n;
  std::mt19937 rng(3);
  int errors = 0;
  for (int i = 0; i < 300; ++i) {
    std::string bad = bytes;
    bad[12 + rng() % (bad.size() - 12)] ^= static_cast<char>(1 + rng() % 255);
    try {
      read_all(bad);
    } catch (const ConfigError&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_THROW(scan_gms_trace(test::write_file(dir / "text.gmstrace", "kind: trace\n")), ConfigError);
}

// A writer that does not finish leaves nothing behind: no file under the name, no partial file.
TEST(GmsTrace, UnfinishedWriterLeavesNothing) {
  auto dir = test::temp_dir("gms_partial");
  const std::string path = (dir / "t.gmstrace").string();
  {
    GmsTraceWriter w(path);
    w.memcpy_htod(0x1000, 64);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
}

}  // namespace
}  // namespace gms

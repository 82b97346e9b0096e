// sm.copies_wait_for_shared_queue: a cp.async (LDGSTS) enters the LSU behind the shared instructions
// booked before it, so its line requests leave, and its warp's next instruction issues, only then.
// Nsight's source page shows the wait on the instruction after a copy that rewrites its address
// registers (the WMMA GEMM at pad 0: long_scoreboard 1.4 cycles per issued instruction on the MOV
// after the last cp.async with two CTAs per SM, none with one; validate/results/h100/cta_occupancy).
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "model/engine.h"
#include "one_cta_kernel.h"
#include "ticks.h"

namespace gms {
namespace {

using test_ticks::kCycle;

// Warp 1 (its own sub-partition) issues a block of `loads` shared loads of 32 wavefronts; warp 0 waits
// 64 cycles of math, so that the loads are booked first, then copies one line into shared memory,
// issues a block of other instructions and waits for the copy.
class CopyAfterQueuedLoads final : public test::OneCtaKernel {
 public:
  explicit CopyAfterQueuedLoads(int loads) : OneCtaKernel("copy_after_queued_loads", 2), loads_(loads) {}
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (c.warp == 0) {
      if (test::wait_then_exit(step, 3, 2, out)) return;
      switch (step) {
        case 0:
          out.op = Op::kCompute;
          out.pipe = Pipe::kFma;
          out.flops = 64.0 * 64;  // 64 cycles of the sub-partition's FMA pipe
          out.issue_cycles = 1;
          return;
        case 1: test::copy_past_l1(Region{0x7f0000000000ull, 1, 128, 128, 0, 128}, 2, out); return;
        default:
          out.op = Op::kCompute;  // the loop's other instructions: the first rewrites the copy's address
          out.pipe = Pipe::kAlu;
          out.issue_cycles = 8;
          return;
      }
    }
    if (test::wait_then_exit(step, loads_ > 0 ? 1 : 0, 1, out)) return;
    out.op = Op::kSharedLoad;  // one block, booked as it issues (the MIO queue counts single loads only)
    out.wavefronts = 32 * static_cast<std::uint32_t>(loads_);
    out.conflicts = 31 * static_cast<std::uint32_t>(loads_);
    out.issue_cycles = static_cast<std::uint32_t>(loads_);
    out.slot = 1;
  }

 private:
  int loads_;
};

SimResult run(int loads, bool queue) {
  return test::run_on_h100(CopyAfterQueuedLoads(loads),
                           {std::string("gpu.sm.copies_wait_for_shared_queue=") + (queue ? "true" : "false")});
}

TEST(Engine, ACopyEntersTheLsuBehindTheSharedLoadsQueuedBeforeIt) {
  // 50 loads of 32 wavefronts: 1,600 cycles of the data path booked before the copy issues.
  const SimResult free_entry = run(50, false), queued = run(50, true);
  // Entering as it issues, the copy's data is back (a DRAM read, ~480 cycles) while warp 1's loads
  // are still being served: warp 1 ends the kernel (~1,660 cycles). Behind them, the copy's request
  // leaves at ~1,660 cycles and the kernel ends when its data is back (~2,150).
  EXPECT_GT(queued.end, free_entry.end + 300 * kCycle);
  // Its warp waits for the LSU to take the copy (long_scoreboard) before its next instruction: the
  // queued run's long_scoreboard covers ~1,500 cycles more of warp 0's time.
  EXPECT_GT(queued.stalls.total(WarpState::kLongScoreboard),
            free_entry.stalls.total(WarpState::kLongScoreboard) + 1000 * kCycle);
  // The same work either way.
  EXPECT_EQ(queued.shared.ldgsts_wavefronts, free_entry.shared.ldgsts_wavefronts);
  EXPECT_EQ(queued.shared.ld_wavefronts, free_entry.shared.ld_wavefronts);
}

TEST(Engine, ACopyIssuedWithTheSharedPathIdleEntersAtOnce) {
  const SimResult free_entry = run(0, false), queued = run(0, true);
  EXPECT_EQ(queued.end, free_entry.end);
  EXPECT_EQ(queued.stalls.total(WarpState::kLongScoreboard), free_entry.stalls.total(WarpState::kLongScoreboard));
}

// gms-fill-ubench's probe (validate/results/h100/fill, validate/results/h200/fill_probe): reader warps
// (those of `readers`, a mask over warps 0-15; warp i sits on sub-partition i % 4) repeat 8 independent
// ldmatrix.x4 of `wavefronts` wavefronts and a wait for them (the ubench's loop: the next 8 reuse the
// registers); warp 16 (sub-partition 0) copies 512 bytes (in L2 after the first time) and waits for
// them, 64 times.
// `depth`: the ldmatrix a reader issues before it waits for them (the --probe-grid's 8 or 2; the
// --probes and the H100's fill probe had ptxas merge some of theirs: 9 per two steps of 8, README there).
class FillProbe final : public test::OneCtaKernel {
 public:
  FillProbe(std::uint32_t wavefronts, std::uint32_t readers, int depth = 8)
      : OneCtaKernel("fill_probe", 17), wavefronts_(wavefronts), readers_(readers), depth_(depth) {}
  static constexpr int kProbes = 64;
  static constexpr std::uint32_t kAll = 0xFFFF, kCopiersSubPartition = 0x1111, kOtherSubPartitions = kAll & ~kCopiersSubPartition;
  void next(WarpCursor& c, Instr& out) const override {
    out = Instr{};
    const int step = static_cast<int>(c.step++);
    if (c.warp == 16) {
      out.slot = 2;
      if (step >= 2 * kProbes) {
        out.op = Op::kExit;
      } else if (step % 2 == 1) {
        out.op = Op::kWait;
      } else {
        test::copy_past_l1(Region{0x7f0000000000ull, 4, 128, 128, 0, 128}, 2, out);  // one LDGSTS.128: 512 bytes
      }
      return;
    }
    const bool reads = wavefronts_ > 0 && ((readers_ >> c.warp) & 1u);
    if (!reads || step >= (depth_ + 1) * (3200 / depth_)) {  // 3,200 ldmatrix: longer than the probes
      out.op = Op::kExit;
      return;
    }
    out.slot = 1;
    if (step % (depth_ + 1) == depth_) {
      out.op = Op::kWait;
      return;
    }
    out.op = Op::kSharedLoad;
    out.ldmatrix = true;
    out.wavefronts = wavefronts_;
    out.issue_cycles = 1;
  }

 private:
  std::uint32_t wavefronts_, readers_;
  int depth_;
};

// One copy's latency per probe of validate/results/h100/fill/fill_run.jsonl (`fill_probe`: the
// ldmatrix rows' pitch - 64 bytes: 16 wavefronts, 80: 4 - and the reader warps).
struct Probe {
  std::uint32_t wavefronts;
  int readers;
  double cycles;
};
std::vector<Probe> silicon_probes() {
  std::ifstream in(test::source_path("validate/results/h100/fill/fill_run.jsonl"));
  const std::regex probe(R"re("measure": "fill_probe", "pitch": (\d+), "readers": (\d+), "copy_latency_cycles": (\d+))re");
  std::vector<Probe> out;
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, probe))
      out.push_back({std::stoi(m[1]) == 64 ? 16u : 4u, std::stoi(m[2]), std::stod(m[3])});
  return out;
}

double cycles_per_probe(std::uint32_t wavefronts, bool queue, std::uint32_t readers = FillProbe::kAll, int depth = 8,
                        int per_warp = 0) {
  const SimResult r = test::run_on_h100(FillProbe(wavefronts, readers, depth),
                                        {std::string("gpu.sm.copies_wait_for_shared_queue=") + (queue ? "true" : "false"),
                                         "gpu.sm.copy_waits_per_warp=" + std::to_string(per_warp)});
  // Its wait on the copy, and the copy's own issue cycle.
  return static_cast<double>(r.stalls.total(WarpState::kLongScoreboard)) / FillProbe::kProbes / kCycle + 1;
}

TEST(Engine, AProbedCopyWaitsBehindTheQueuedLdmatrixAsSiliconsDoes) {
  const std::vector<Probe> probes = silicon_probes();
  ASSERT_EQ(probes.size(), 4u);
  double beside_16 = 0;
  for (const Probe& p : probes) {
    if (p.readers > 0 && p.wavefronts == 16) beside_16 = p.cycles;
    // Alone, or beside 16 warps of 4- or 16-wavefront ldmatrix: 307, 416 and 1,083 cycles on the H100;
    // the model 283, 487 and 1,239 (it queues the copy behind the SM's path bookings, which the MIO
    // queue bounds at 61 instructions: ~60 ldmatrix ahead where silicon has ~48).
    const double model = cycles_per_probe(p.readers > 0 ? p.wavefronts : 0, true);
    EXPECT_NEAR(model / p.cycles, 1.0, 0.2) << p.wavefronts << " wavefronts, " << p.readers << " readers: " << model;
  }
  // A copy that enters as it issues waits only for its data: a quarter of silicon's time beside the
  // 16-wavefront readers.
  EXPECT_LT(cycles_per_probe(16, false), 0.35 * beside_16);
}

// The H200's probe beside readers on chosen sub-partitions (validate/results/h200/fill_probe,
// gms-fill-ubench --probes): readers only on the other three sub-partitions still hold a copy up
// (pitch 64: 602 cycles, alone 307, beside all 16 readers 1,082), so the queue a copy enters behind is
// the SM's, as the model has it. The model's waits are longer than silicon's, the more so the fewer
// readers (pitch 64: 1,239 / 1,227 / 711 with all, the other sub-partitions', the copier's own four;
// silicon 1,082 / 602 / 402): silicon's copy overtakes part of the queue the model puts ahead of it.
TEST(Engine, ACopyWaitsBehindTheWholeSmsQueueAsOnTheH200) {
  std::ifstream in(test::source_path("validate/results/h200/fill_probe/fill_probe_run.jsonl"));
  const std::regex line(R"re("pitch": (\d+), "readers": "(\w+)", "reader_warps": \d+, "copy_latency_cycles": (\d+))re");
  std::map<std::pair<int, std::string>, double> silicon;
  std::smatch m;
  for (std::string l; std::getline(in, l);)
    if (std::regex_search(l, m, line)) silicon[{std::stoi(m[1]), m[2]}] = std::stod(m[3]);
  ASSERT_EQ(silicon.size(), 15u);
  auto at = [&](int pitch, const char* set) { return silicon[std::make_pair(pitch, std::string(set))]; };
  const std::map<int, std::uint32_t> wavefronts = {{64, 16}, {80, 4}, {96, 8}};
  for (const auto& [pitch, wf] : wavefronts) {
    const double alone = cycles_per_probe(wf, true, 0), others = cycles_per_probe(wf, true, FillProbe::kOtherSubPartitions);
    const double all = cycles_per_probe(wf, true, FillProbe::kAll), own = cycles_per_probe(wf, true, FillProbe::kCopiersSubPartition);
    EXPECT_GT(at(pitch, "other_subpartitions"), 1.15 * at(pitch, "none")) << pitch;
    EXPECT_GT(others, 1.15 * alone) << pitch << ": the other sub-partitions' readers hold the copy up";
    EXPECT_GT(all, own) << pitch;
    EXPECT_GT(at(pitch, "all"), at(pitch, "copier_subpartition")) << pitch;
    // The wait beyond the copy alone never short of silicon's (entering as it issues, it is ~0). Its
    // excess is what is still wrong: up to 3.2x silicon's (pitch 64, the other sub-partitions' readers:
    // 944 cycles against 295), 1.1-1.3x beside all 16 readers.
    for (const auto& [set, model] : {std::pair<const char*, double>{"all", all}, {"other_subpartitions", others},
                                     {"copier_subpartition", own}}) {
      const double s_wait = at(pitch, set) - at(pitch, "none"), m_wait = model - alone;
      EXPECT_GE(m_wait, 0.9 * s_wait) << pitch << " " << set;
    }
  }
}

// The H200's --probe-grid (validate/results/h200/fill_probe/fill_probe_grid_run.jsonl): the copy's wait
// beside 2-16 readers with 8 (or 2) ldmatrix in flight each grows by ~2-2.5 ldmatrix a reader, not by
// the 8 it issued: one warp has about two shared instructions in the data path at once (a lone reader's
// 8 independent ldmatrix take 35 cycles each at 16 wavefronts, their latency 59), and a copy waits
// behind those alone. With sm.copy_waits_per_warp = 2 the model's wait stays within 45 % (+80 cycles) of
// silicon's; behind every booked instruction (0) it is up to 5x silicon's.
TEST(Engine, ACopyWaitsBehindTwoOfEachReadersLdmatrixAsTheProbeGridMeasured) {
  std::ifstream in(test::source_path("validate/results/h200/fill_probe/fill_probe_grid_run.jsonl"));
  const std::regex line(R"re("pitch": (\d+), "depth": (\d+), "layout": "(\w+)", "reader_warps": (\d+), "copy_latency_cycles": (\d+))re");
  std::smatch m;
  int checked = 0, far_behind_all = 0;
  for (std::string l; std::getline(in, l);) {
    if (!std::regex_search(l, m, line)) continue;
    const int pitch = std::stoi(m[1]), depth = std::stoi(m[2]), n = std::stoi(m[4]);
    const std::string layout = m[3];
    // The ubench's readers in the model's warps 0-15 (warp i on sub-partition i % 4; the copier, warp 16, on 0).
    std::uint32_t mask = 0;
    for (int i = 0; i < 16; ++i) {
      const int sp = i % 4, k = i / 4;
      if ((layout == "spread" && i < n) || (layout == "own" && sp == 0 && k < n) || (layout == "others" && sp != 0 && k < n / 3))
        mask |= 1u << i;
    }
    const std::uint32_t wavefronts = pitch == 64 ? 16 : 8;
    const double silicon = std::stod(m[5]) - 307;  // beyond the copy alone (the record's 307 cycles)
    const double alone = cycles_per_probe(wavefronts, true, 0, depth, 2);
    const double first_two = cycles_per_probe(wavefronts, true, mask, depth, 2) - alone;
    const double all = cycles_per_probe(wavefronts, true, mask, depth, 0) - alone;
    EXPECT_NEAR(first_two, silicon, 0.45 * silicon + 80) << pitch << " " << layout << " " << n << ": " << first_two;
    if (depth == 8 && all > 2 * silicon + 80) ++far_behind_all;
    ++checked;
  }
  EXPECT_EQ(checked, 64);
  EXPECT_GE(far_behind_all, 20) << "behind every booked instruction the copy should wait far longer than silicon's";
}

}  // namespace
}  // namespace gms

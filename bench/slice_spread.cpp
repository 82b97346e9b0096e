// The model's side of validate/scripts/red_slices.py: how gms-red-ubench's reductions fall on the L2
// slices as Nsight counts them (lts__t_sectors_op_red per slice: each line at its home slice and, for the
// adds of SMs in the other partition, at the near slice it passes first when
// l2.far_reductions_in_both_partitions). Every SM adds to y; y is 1, 8, 112 or 16,384 blocks of 8 lines.
// Prints the busiest and the idlest slice over the mean, averaged over 64 bases of y (silicon's y has one,
// unknown: the spread of one base is in the min-max range printed beside it).
//   build/slice_spread [configs/gpus/h100.yaml] [gpu.KEY=V ...]
// e.g. build/slice_spread configs/gpus/h200.yaml gpu.l2.hash=xor gpu.l2.slice_interleave=512B
#include <algorithm>
#include <bit>
#include <cstdio>
#include <vector>

#include "api/simulation.h"
#include "curve_args.h"
#include "model/memory_system.h"

namespace {

struct Spread {
  double busiest = 0, idlest = 0;
};

Spread spread(const gms::MemorySystem& mem, const gms::GpuConfig& gpu, std::uint64_t first_line, std::uint64_t lines) {
  // Every SM adds to every line, routed as the model routes it (MemorySystem::route).
  std::vector<double> sectors(static_cast<std::size_t>(gpu.l2.slices), 0.0);
  for (std::uint64_t i = 0; i < lines; ++i)
    for (int sm = 0; sm < gpu.sm.count; ++sm) {
      const auto r = mem.route(sm, first_line + i, gpu.l2.far_reductions_in_both_partitions);
      sectors[r.home] += 1.0;
      if (r.passes_near) sectors[r.near] += 1.0;
    }
  double sum = 0;
  for (double s : sectors) sum += s;
  const double mean = sum / static_cast<double>(sectors.size());
  return {*std::max_element(sectors.begin(), sectors.end()) / mean, *std::min_element(sectors.begin(), sectors.end()) / mean};
}

}  // namespace

int run(const gms::bench::CurveArgs& args) {
  const auto cfg = gms::load_configs(gms::ConfigInputs{args.gpu_file, "", args.sets});
  const gms::GpuConfig& gpu = cfg.gpu.value;
  const gms::MemorySystem mem(gpu);
  const int line_shift = std::countr_zero(static_cast<unsigned>(gpu.l2.line));
  std::printf("%s: l2.hash %s, l2.slice_interleave %lld B, %d slices\n", gpu.name.c_str(), gpu.l2.hash.c_str(),
              static_cast<long long>(gpu.l2.slice_interleave), gpu.l2.slices);
  std::printf("| y blocks | lines | busiest slice / mean (min-max over bases) | idlest / mean |\n|---|---|---|---|\n");
  for (std::uint64_t blocks : {1, 8, 112, 16384}) {
    const std::uint64_t lines = blocks * 1024 >> line_shift;
    double busiest = 0, idlest = 0, lo = 1e30, hi = 0;
    const int bases = blocks > 1000 ? 4 : 64;
    for (int b = 0; b < bases; ++b) {  // 1 KB-aligned bases, as cudaMalloc's (and the blocks) are
      const std::uint64_t first = ((0x7f1000000000ull + static_cast<std::uint64_t>(b) * 997 * 1024) >> line_shift);
      const Spread s = spread(mem, gpu, first, lines);
      busiest += s.busiest / bases;
      idlest += s.idlest / bases;
      lo = std::min(lo, s.busiest);
      hi = std::max(hi, s.busiest);
    }
    std::printf("| %llu | %llu | %.2f (%.2f-%.2f) | %.2f |\n", static_cast<unsigned long long>(blocks),
                static_cast<unsigned long long>(lines), busiest, lo, hi, idlest);
  }
  return 0;
}

int main(int argc, char** argv) { return gms::bench::curve_main("slice_spread", argc, argv, run); }

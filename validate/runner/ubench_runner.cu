// Microbenchmarks: each writes records and prints the preset lines it determines, in the
// simulator's YAML syntax (preset_lines.yaml), e.g. `l2: {hit_latency: 273cycles}`.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <random>

#include "runner_common.cuh"
#include "../include/ubench_stats.h"

namespace gmsv {
namespace {

// Cycles per dependent load over a random cycle of 128-byte-spaced elements covering `bytes`.
double chase(size_t bytes, bool bypass_l1, unsigned* d_next, size_t max_elems) {
  const size_t stride = 32;  // uint32 elements in 128 bytes
  size_t slots = std::max<size_t>(2, bytes / 128);
  if (slots * stride > max_elems) throw std::invalid_argument("chase buffer too small");
  std::vector<unsigned> order(slots);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 rng(static_cast<unsigned>(bytes));
  std::shuffle(order.begin() + 1, order.end(), rng);
  std::vector<unsigned> next(slots * stride, 0);
  for (size_t i = 0; i < slots; ++i) next[order[i] * stride] = order[(i + 1) % slots] * stride;
  GPU_CHECK(gpuMemcpy(d_next, next.data(), next.size() * 4, gpuMemcpyHostToDevice));
  DeviceBuffer<unsigned long long> cycles(1);
  DeviceBuffer<unsigned> sink(1);
  int warm = static_cast<int>(std::min<size_t>(slots, 1u << 20));
  int iters = 20000;
  if (bypass_l1)
    chase_kernel<true><<<1, 1>>>(d_next, warm, iters, cycles.p, sink.p);
  else
    chase_kernel<false><<<1, 1>>>(d_next, warm, iters, cycles.p, sink.p);
  GPU_CHECK_LAUNCH();
  unsigned long long c = 0;
  GPU_CHECK(gpuMemcpy(&c, cycles.p, 8, gpuMemcpyDeviceToHost));
  return static_cast<double>(c) / iters;
}

using ubench::median;

void record(std::ofstream& out, const std::string& name, const std::map<std::string, double>& m, const Env& env) {
  out << make_record(name, "ubench", "", m, "", env.json) << "\n";
  out.flush();
}

}  // namespace

void run_ubench(const Options& o, const Env& env, std::ofstream& out, std::ofstream& yaml) {
  Timer t;
  const int sms = env.prop.multiProcessorCount;
  // --- latency against working set
  const std::vector<double> mib = {0.0078125, 0.03125, 0.125, 0.1875, 0.203125, 0.25, 0.5, 1, 4, 8, 16, 20, 24,
                                   28, 32, 36, 40, 48, 56, 64, 96, 128, 256, 512};
  const size_t max_elems = static_cast<size_t>(512.0 * 1048576 / 4);
  DeviceBuffer<unsigned> next(max_elems);
  std::map<double, double> ca, cg;
  for (double m : mib) {
    size_t bytes = static_cast<size_t>(m * 1048576);
    ca[m] = chase(bytes, false, next.p, max_elems);
    cg[m] = chase(bytes, true, next.p, max_elems);
    record(out, "chase_" + std::to_string(bytes) + "B",
           {{"working_set_bytes", static_cast<double>(bytes)}, {"cycles_per_load_ca", ca[m]},
            {"cycles_per_load_cg", cg[m]}},
           env);
    std::printf("chase %10.4f MiB: .ca %7.1f  .cg %7.1f cycles\n", m, ca[m], cg[m]);
  }
  // --- DRAM bandwidth on 2 GiB arrays
  const size_t n = (2ull << 30) / 16;
  DeviceBuffer<int4> a(n), b(n);
  DeviceBuffer<int> sink(1);
  GPU_CHECK(gpuMemset(a.p, 1, n * 16));
  const int grid = sms * 8, block = 256;
  auto best = [&](auto launch) {
    launch();
    std::vector<double> s;
    for (int r = 0; r < 10; ++r) s.push_back(t.ns(launch));
    return median(s);
  };
  double rd = best([&] { stream_read_kernel<<<grid, block>>>(a.p, n, sink.p); });
  double wr = best([&] { stream_write_kernel<<<grid, block>>>(b.p, n, 3); });
  double cp = best([&] { stream_copy_kernel<<<grid, block>>>(a.p, b.p, n); });
  GPU_CHECK_LAUNCH();
  double gb = n * 16.0;
  record(out, "dram_bandwidth",
         {{"bytes", gb}, {"read_gbps", gb / rd}, {"write_gbps", gb / wr}, {"copy_gbps_read_plus_write", 2 * gb / cp}},
         env);
  std::printf("DRAM read %.0f GB/s, write %.0f GB/s, copy %.0f GB/s (r+w)\n", gb / rd, gb / wr, 2 * gb / cp);
  // --- L2 bandwidth and the capacity all SMs see
  std::map<double, double> l2bw, l2disj;
  for (double m : {2.0, 4.0, 8.0, 16.0, 24.0, 32.0, 40.0, 48.0, 56.0, 64.0, 96.0, 128.0}) {
    size_t cnt = static_cast<size_t>(m * 1048576 / 16);
    // Each block reads the buffer `reps` times; the last partial stride still reads whole loads.
    int reps = std::max(1, static_cast<int>(8.0 * 1024 / m / (sms * 2)));
    double ns = best([&] { l2_read_kernel<<<sms * 2, 1024>>>(a.p, cnt, reps, sink.p); });
    const size_t step = 1024ull * kL2Unroll;
    double per_block = static_cast<double>((cnt + step - 1) / step * step) * 16;
    double bytes = per_block * reps * sms * 2;
    l2bw[m] = bytes / ns;
    // Disjoint: the blocks split the buffer; loads counted as issued (a tail load may repeat one).
    const int dreps = std::max(1, static_cast<int>(8.0 * 1024 / m));
    double dns = best([&] { l2_read_disjoint_kernel<<<sms * 2, 1024>>>(a.p, cnt, dreps, sink.p); });
    const size_t chunk = (cnt + sms * 2 - 1) / (sms * 2);
    double dbytes = static_cast<double>((chunk + step - 1) / step * step) * 16 * dreps * sms * 2;
    l2disj[m] = dbytes / dns;
    record(out, "l2_bandwidth_" + std::to_string(static_cast<int>(m)) + "MiB",
           {{"buffer_bytes", m * 1048576}, {"gbps", bytes / ns}, {"gbps_disjoint", dbytes / dns}}, env);
    std::printf("all-SM re-read of %6.1f MiB: %8.0f GB/s (every block reads all), %8.0f GB/s (blocks split it)\n", m,
                bytes / ns, dbytes / dns);
  }
  // --- math throughput (per SM per cycle at the 1.98 GHz the presets use; clocks may drop under load)
  DeviceBuffer<float> fsink(1);
  const int mblocks = sms * 8, mthreads = 256, fiters = 1 << 16;
  double fns = best([&] { ffma_kernel<<<mblocks, mthreads>>>(fiters, 1.0f, fsink.p); });
  double fflops = 2.0 * 8 * fiters * static_cast<double>(mblocks) * mthreads;
  std::printf("FFMA: %.1f TFLOP/s = %.0f FLOP/cycle/SM at 1.98 GHz\n", fflops / fns / 1e3, fflops / fns / 1.98 / sms);
  std::map<std::string, double> math = {{"ffma_tflops", fflops / fns / 1e3},
                                        {"ffma_flops_per_cycle_per_sm_at_1980mhz", fflops / fns / 1.98 / sms}};
  double tensor_per_cycle = 0;
#if !defined(__HIPCC__)
  const int witers = 1 << 14;
  double wns = best([&] { wmma_kernel<<<mblocks, 128>>>(witers, fsink.p); });
  double wflops = 2.0 * 16 * 16 * 16 * 4 * witers * static_cast<double>(mblocks) * (128 / 32);
  tensor_per_cycle = wflops / wns / 1.98 / sms;
  std::printf("WMMA fp16 (mma.sync): %.1f TFLOP/s = %.0f FLOP/cycle/SM at 1.98 GHz\n", wflops / wns / 1e3, tensor_per_cycle);
  math["wmma_fp16_tflops"] = wflops / wns / 1e3;
  math["wmma_fp16_flops_per_cycle_per_sm_at_1980mhz"] = tensor_per_cycle;
#endif
  GPU_CHECK_LAUNCH();
  record(out, "math_throughput", math, env);
  // --- launch overhead
  empty_kernel<<<1, 32>>>();
  GPU_CHECK(gpuDeviceSynchronize());
  double back_to_back = t.ns([&] {
                          for (int i = 0; i < 2000; ++i) empty_kernel<<<1, 32>>>();
                        }) / 2000;
  std::vector<double> single;
  for (int i = 0; i < 200; ++i) {
    auto h0 = std::chrono::steady_clock::now();
    empty_kernel<<<1, 32>>>();
    GPU_CHECK(gpuDeviceSynchronize());
    single.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - h0).count());
  }
  double empty_ns = best([&] { empty_kernel<<<1, 32>>>(); });
  record(out, "launch_overhead",
         {{"back_to_back_ns", back_to_back}, {"launch_and_sync_ns", median(single)}, {"empty_kernel_event_ns", empty_ns}},
         env);
  std::printf("launch: %.0f ns back-to-back, %.0f ns launch+sync, empty kernel %.0f ns between events\n", back_to_back,
              median(single), empty_ns);
  // --- preset lines
  auto avg = [](const std::map<double, double>& m, double lo, double hi) {
    double s = 0;
    int k = 0;
    for (auto [x, v] : m)
      if (x >= lo && x <= hi) s += v, ++k;
    return k ? s / k : 0;
  };
  double near = avg(cg, 1, 16), far = avg(cg, 36, 40), dram = avg(cg, 256, 512);
  yaml << "# Preset values determined by gms-validate on " << env.prop.name << " (" << o.command_line << ")\n";
  yaml << "l1: {hit_latency: " << static_cast<int>(avg(ca, 0.0078, 0.125) + 0.5) << "cycles}"
       << "   # ld.global.ca chase, 8-128 KiB\n";
  yaml << "l2: {hit_latency: " << static_cast<int>(near + 0.5) << "cycles, far_extra_latency: "
       << static_cast<int>(far - near + 0.5) << "cycles}   # .cg chase 1-16 MiB; far = 36-40 MiB\n";
  yaml << "dram: {latency: " << static_cast<int>(dram + 0.5) << "cycles}   # .cg chase 256-512 MiB\n";
  yaml << "# dram read " << static_cast<int>(gb / rd) << " GB/s, write " << static_cast<int>(gb / wr)
       << " GB/s: efficiency = read / dram.bandwidth\n";
  yaml << "# L2 re-read by all SMs: " << static_cast<int>(l2bw[8.0]) << " GB/s at 8 MiB, "
       << static_cast<int>(l2bw[32.0]) << " at 32 MiB, " << static_cast<int>(l2bw[64.0])
       << " at 64 MiB when every block reads all of it\n";
  yaml << "# L2 split among blocks: " << static_cast<int>(l2disj[8.0]) << " GB/s at 8 MiB, "
       << static_cast<int>(l2disj[32.0]) << " at 32 MiB, " << static_cast<int>(l2disj[64.0]) << " at 64 MiB\n";
  yaml << "# => l2.slice_bytes_per_cycle = " << static_cast<int>(l2disj[8.0] / 1.98) << " B/cycle (8 MiB, all slices, 1.98 GHz) / l2.slices\n";
  yaml << "sm: {fma_flops_per_cycle: " << static_cast<int>(math["ffma_flops_per_cycle_per_sm_at_1980mhz"] + 0.5);
  if (tensor_per_cycle > 0)
    yaml << ", tensor_fp16_flops_per_cycle: " << static_cast<int>(tensor_per_cycle + 0.5);
  yaml << "}   # register-only FFMA / WMMA (mma.sync) loops, per SM per cycle at 1.98 GHz\n";
  yaml << "launch: {kernel_overhead: " << static_cast<int>(empty_ns * 1e-9 * 1.98e9 + 0.5)
       << "cycles}   # empty kernel between events, at 1.98 GHz\n";
}

}  // namespace gmsv

// gms-gpc-ubench: do SMs get the same L2 bandwidth when all of them read at once? (issue 11)
// The WMMA GEMM's CTA stamps (validate/results/h100/cta_times, validate/scripts/cta_sm_speed.py) show
// 24 SMs (16-17, 34-43, 78-87, 124-125) running the row-major order's CTAs ~6 % faster than the others,
// in every run, while the grouped orders show no SM-level difference. Is it their share of the L2's
// bandwidth? The sets below take the 28 SMs 16-17, 34-45, 78-89, 124-125 (a first reading of the
// stamps, four SMs too many) as "fast28". Method: one CTA per SM (a shared-memory
// request above half an SM's), 1,024 threads reading their SM's own 128 KB window of a buffer the L2
// holds (16.5 MB in all, read once before) with 16-byte ld.global.cg, 64 passes; thread 0 reads
// %globaltimer after a barrier at the start and at the end. Sets of SMs take part (the others' CTAs
// exit at once): all of them, the 28, the other 104, single SMs, and each suspected group alone.
// Then the same from DRAM ("dram:" sets; "@N": N threads per CTA instead of 1,024): each SM reads its
// own 16 MB window of a 2.1 GB buffer once (2.1 GB streamed: the L2 holds almost none of it when an
// SM gets there).
// `gms-gpc-ubench contention` (2026-11-27): the DRAM sets again with more loads in flight per thread
// ("xN": N independent 16-byte loads; the sets above keep one, 16 KB per SM, and saw no split on four
// H100s of five - gms-fabric-ubench's x4 stream did, on an H100 and an H200 at 1,980 MHz), with fewer
// threads holding the same bytes in flight ("@T"), then the SMs the x4 stream finds ahead (over 1.06 x
// the median) alone and the others alone: when does the split appear, and is it the bytes in flight
// per SM, per GPC or in all?
// Output, JSON lines: per set and repetition, per SM its bytes per ns (GB/s).
#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/sm_span.h"
#include "../include/ubench_main.h"

namespace {

constexpr size_t kWindow = 128u << 10;       // bytes per SM, L2-resident
constexpr size_t kDramWindow = 16u << 20;    // bytes per SM, from DRAM
constexpr int kThreads = 1024, kPasses = 64;

// SMs lo..hi of each [lo, hi] range, in the order given.
std::vector<int> sm_ranges(std::initializer_list<std::pair<int, int>> ranges) {
  std::vector<int> out;
  for (const auto& [lo, hi] : ranges)
    for (int s = lo; s <= hi; ++s) out.push_back(s);
  return out;
}

// SMs 0..sms-1 not in `set`.
std::vector<int> other_sms(const std::vector<int>& set, int sms) {
  std::vector<int> out;
  for (int s = 0; s < sms; ++s)
    if (std::find(set.begin(), set.end(), s) == set.end()) out.push_back(s);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool contention = argc > 1 && std::string(argv[1]) == "contention";
  return ubench_main("gms-gpc-ubench", [&](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    int4 *buf, *big;
    unsigned char* active;
    unsigned long long* out;
    int* sink;
    GPU_CHECK(gpuMalloc(&buf, kWindow * static_cast<size_t>(sms)));
    GPU_CHECK(gpuMalloc(&big, kDramWindow * static_cast<size_t>(sms)));
    GPU_CHECK(gpuMemset(big, 1, kDramWindow * static_cast<size_t>(sms)));
    GPU_CHECK(gpuMemset(buf, 1, kWindow * static_cast<size_t>(sms)));  // written last: in L2
    GPU_CHECK(gpuMalloc(&active, 1024));
    GPU_CHECK(gpuMalloc(&out, 4 * 1024 * sizeof(unsigned long long)));
    GPU_CHECK(gpuMalloc(&sink, sizeof(int)));
    const size_t pad = prop.sharedMemPerMultiprocessor / 2 + 1024;
    for (auto* k : {window_stream<1>, window_stream<2>, window_stream<4>, window_stream<8>})
      GPU_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    const std::vector<int> fast = sm_ranges({{16, 17}, {124, 125}, {34, 45}, {78, 89}});
    // Returns the last repetition's GB/s per SM of `set`.
    auto run = [&](const std::string& name, const std::vector<int>& set, bool dram = false, int threads = kThreads,
                   int in_flight = 1) {
      std::vector<unsigned char> a(1024, 0);
      for (int s : set) a[static_cast<size_t>(s)] = 1;
      GPU_CHECK(gpuMemcpy(active, a.data(), a.size(), gpuMemcpyHostToDevice));
      std::vector<double> gbps(set.size());
      for (int rep = 0; rep < 3; ++rep) {
        // One CTA per SM (the pad admits one). From DRAM: what the previous repetition left in L2 are
        // the windows' last ~380 KB, evicted long before the SMs get there again.
        const int4* src = dram ? big : buf;
        const size_t window = dram ? kDramWindow : kWindow;
        const int passes = dram ? 1 : kPasses;
        switch (in_flight) {
          case 1: window_stream<1><<<sms, threads, pad>>>(src, window, passes, active, out, sink); break;
          case 2: window_stream<2><<<sms, threads, pad>>>(src, window, passes, active, out, sink); break;
          case 4: window_stream<4><<<sms, threads, pad>>>(src, window, passes, active, out, sink); break;
          default: window_stream<8><<<sms, threads, pad>>>(src, window, passes, active, out, sink); break;
        }
        GPU_CHECK_LAUNCH();
        GPU_CHECK(gpuDeviceSynchronize());
        std::vector<unsigned long long> t(4 * 1024);
        GPU_CHECK(gpuMemcpy(t.data(), out, t.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
        // The SM clock while it read: its clock64 cycles over the globaltimer's ns, the first SM's.
        const int s0 = set.front();
        const double mhz = static_cast<double>(t[4 * s0 + 3] - t[4 * s0 + 2]) * 1e3 / static_cast<double>(t[4 * s0 + 1] - t[4 * s0]);
        std::printf("{\"gpu\": \"%s\", \"set\": \"%s\", \"rep\": %d, \"sms\": %zu, \"sm_mhz\": %.0f, \"gbps\": {", prop.name,
                    name.c_str(), rep, set.size(), mhz);
        for (size_t k = 0; k < set.size(); ++k) {
          const int s = set[k];
          const double ns = static_cast<double>(t[4 * s + 1] - t[4 * s]);
          const double bytes = dram ? static_cast<double>(kDramWindow) : static_cast<double>(kWindow) * kPasses;
          gbps[k] = bytes / ns;
          std::printf("%s\"%d\": %.2f", k ? ", " : "", s, gbps[k]);
        }
        std::printf("}}\n");
      }
      return gbps;
    };
    const std::vector<int> all = sm_ranges({{0, sms - 1}});
    if (contention) {
      for (int n : {1, 2, 4, 8}) run("dram:all x" + std::to_string(n), all, true, kThreads, n);
      // The same 256 lines in flight per SM held by fewer threads (x2 above: 1,024 threads).
      run("dram:all x4@512", all, true, 512, 4);
      run("dram:all x8@256", all, true, 256, 8);
      std::vector<double> x4 = run("dram:all x4 again", all, true, kThreads, 4);
      std::vector<double> sorted(x4);
      std::sort(sorted.begin(), sorted.end());
      const double median = sorted[sorted.size() / 2];
      std::vector<int> ahead, rest;
      for (int s = 0; s < sms; ++s) (x4[static_cast<size_t>(s)] > 1.06 * median ? ahead : rest).push_back(s);
      std::printf("{\"gpu\": \"%s\", \"ahead_at_x4\": [", prop.name);
      for (size_t k = 0; k < ahead.size(); ++k) std::printf("%s%d", k ? ", " : "", ahead[k]);
      std::printf("], \"median_gbps\": %.2f}\n", median);
      if (!ahead.empty()) {
        run("dram:ahead x4", ahead, true, kThreads, 4);
        run("dram:rest x4", rest, true, kThreads, 4);
        run("dram:rest x8", rest, true, kThreads, 8);
      }
    } else {
      run("all", all);
      run("fast28", fast);
      run("other104", other_sms(fast, sms));
      run("sm0", {0});
      run("sm40", {40});
      run("sms34-45+16,17", sm_ranges({{16, 17}, {34, 45}}));
      run("sms0-13", sm_ranges({{0, 13}}));
      run("sms0-17", sm_ranges({{0, 17}}));
      run("dram:all", all, true);
      // The 24 SMs the first DRAM run found faster, then the other 108, each set alone.
      const std::vector<int> dram_fast = sm_ranges({{16, 17}, {26, 27}, {34, 41}, {72, 73}, {78, 85}, {124, 125}});
      run("dram:fast24", dram_fast, true);
      run("dram:other108", other_sms(dram_fast, sms), true);
      // Twelve of them, the other twelve, and twelve / eighteen of the rest, each alone.
      run("dram:16-17,26-27,34-41", sm_ranges({{16, 17}, {26, 27}, {34, 41}}), true);
      run("dram:72-73,78-85,124-125", sm_ranges({{72, 73}, {78, 85}, {124, 125}}), true);
      run("dram:0-11", sm_ranges({{0, 11}}), true);
      run("dram:0-15,18-19", sm_ranges({{0, 15}, {18, 19}}), true);
      // Fewer threads per SM (less in flight): does the split between the 24 and the 108 go away?
      for (int threads : {128, 256, 512, 768}) run("dram:all@" + std::to_string(threads), all, true, threads);
      run("dram:sm0", {0}, true);
      run("dram:sm40", {40}, true);
    }
    GPU_CHECK(gpuFree(buf));
    GPU_CHECK(gpuFree(big));
    GPU_CHECK(gpuFree(active));
    GPU_CHECK(gpuFree(out));
    GPU_CHECK(gpuFree(sink));
  });
}

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
// `gms-gpc-ubench burst` (2026-11-29, issue 11): how does the L2 share a burst between SMs that send theirs at
// different times - in arrival order (the model's bandwidth servers: a burst that comes second waits for the first
// to drain) or a share to each SM (both slowed alike while they overlap)? The model's WMMA grid stays in lockstep
// because of that queue (docs/sm-sharing.md). One CTA per SM; in each of 24 rounds 10,000 SM cycles apart every
// SM sends a burst of 64 KB from its own L2-resident window (1,024 threads x 4 16-byte ld.global.cg) and waits for
// it; the odd SMs start theirs `delay` cycles after the even ones (0, 250, 500, 1,000, 2,000, 4,000), and each half
// also bursts alone. Per SM and round: the burst's start (globaltimer ns) and its latency in SM cycles.
// Output, JSON lines: per set and repetition, per SM its bytes per ns (GB/s); burst: per set, per SM and round.
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

constexpr int kBurstRounds = 24, kBurstInFlight = 4;
constexpr unsigned kBurstPeriod = 10000;  // SM cycles between rounds: every burst's queue drains before the next

__global__ void timer_now(unsigned long long* t) { *t = globaltimer(); }

// One CTA per SM; the SMs flagged in `active` wait for the GPU's timer to reach `base_ns` (thread 0; the SMs
// meet within the timer's resolution), then run kBurstRounds rounds from that moment by their own clock: round r
// starts r x kBurstPeriod + delay[sm] cycles after it, every thread loads kBurstInFlight 16-byte pieces of the
// SM's window (ld.global.cg: from L2) and uses them before a barrier, whose end closes the burst. out[(sm x
// rounds + r) x 2]: the burst's start in globaltimer ns, and its cycles from the barrier before the loads to the
// barrier after them.
__global__ void burst_rounds(const int4* buf, size_t window, unsigned long long base_ns, const unsigned* delay,
                             const unsigned char* active, unsigned long long* out, int* sink) {
  extern __shared__ int pad[];
  __shared__ unsigned long long c_start;
  const unsigned sm = smid();
  if (!active[sm]) return;
  if (threadIdx.x == 0) {
    while (globaltimer() < base_ns) {
    }
    c_start = clock64();
  }
  __syncthreads();
  const int4* w = buf + static_cast<size_t>(sm) * (window / sizeof(int4));
  int acc = 0;
  for (int r = 0; r < kBurstRounds; ++r) {
    if (threadIdx.x == 0) {
      const unsigned long long at = c_start + static_cast<unsigned long long>(r) * kBurstPeriod + delay[sm];
      while (clock64() < static_cast<long long>(at)) {
      }
    }
    __syncthreads();
    const unsigned long long t0 = globaltimer(), c0 = clock64();
    int4 v[kBurstInFlight];
#pragma unroll
    for (int u = 0; u < kBurstInFlight; ++u)
      asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(v[u].x), "=r"(v[u].y), "=r"(v[u].z), "=r"(v[u].w)
                   : "l"(w + threadIdx.x + u * blockDim.x));
#pragma unroll
    for (int u = 0; u < kBurstInFlight; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    __syncthreads();
    const unsigned long long c1 = clock64();
    if (threadIdx.x == 0) {
      out[(static_cast<size_t>(sm) * kBurstRounds + r) * 2] = t0;
      out[(static_cast<size_t>(sm) * kBurstRounds + r) * 2 + 1] = c1 - c0;
    }
  }
  if (acc == 0x12345678) pad[0] = acc, *sink = pad[0];
}

// `burst`: the sets of rounds above, one launch each, three repetitions.
void run_bursts(const gpuDeviceProp& prop, const int4* buf, unsigned char* active, unsigned long long* out, int* sink,
                size_t pad) {
  const int sms = prop.multiProcessorCount;
  unsigned* delay;
  unsigned long long* now;
  GPU_CHECK(gpuMalloc(&delay, 1024 * sizeof(unsigned)));
  GPU_CHECK(gpuMalloc(&now, sizeof(unsigned long long)));
  GPU_CHECK(cudaFuncSetAttribute(burst_rounds, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
  auto run = [&](const std::string& name, int parity, unsigned odd_delay) {  // parity: -1 every SM, 0 even, 1 odd
    std::vector<unsigned char> a(1024, 0);
    std::vector<unsigned> d(1024, 0);
    for (int s = 0; s < sms; ++s) {
      a[static_cast<size_t>(s)] = parity < 0 || s % 2 == parity;
      d[static_cast<size_t>(s)] = s % 2 ? odd_delay : 0;
    }
    GPU_CHECK(gpuMemcpy(active, a.data(), a.size(), gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemcpy(delay, d.data(), d.size() * sizeof(unsigned), gpuMemcpyHostToDevice));
    for (int rep = 0; rep < 3; ++rep) {
      timer_now<<<1, 1>>>(now);
      GPU_CHECK_LAUNCH();
      unsigned long long t = 0;
      GPU_CHECK(gpuMemcpy(&t, now, sizeof(t), gpuMemcpyDeviceToHost));
      burst_rounds<<<sms, kThreads, pad>>>(buf, kWindow, t + 200000, delay, active, out, sink);  // 200 us to start
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuDeviceSynchronize());
      std::vector<unsigned long long> o(static_cast<size_t>(sms) * kBurstRounds * 2);
      GPU_CHECK(gpuMemcpy(o.data(), out, o.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
      std::printf("{\"gpu\": \"%s\", \"set\": \"%s\", \"rep\": %d, \"odd_delay_cycles\": %u, \"bytes\": %d, \"sms\": {",
                  prop.name, name.c_str(), rep, odd_delay, kThreads * kBurstInFlight * 16);
      bool first = true;
      for (int s = 0; s < sms; ++s) {
        if (!a[static_cast<size_t>(s)]) continue;
        std::printf("%s\"%d\": [", first ? "" : ", ", s);
        first = false;
        for (int r = 0; r < kBurstRounds; ++r) {
          const size_t k = (static_cast<size_t>(s) * kBurstRounds + r) * 2;
          std::printf("%s[%llu, %llu]", r ? ", " : "", o[k], o[k + 1]);
        }
        std::printf("]");
      }
      std::printf("}}\n");
    }
  };
  run("even alone", 0, 0);
  run("odd alone", 1, 0);
  for (unsigned dly : {0u, 250u, 500u, 1000u, 2000u, 4000u}) run("all, odd late " + std::to_string(dly), -1, dly);
  GPU_CHECK(gpuFree(delay));
  GPU_CHECK(gpuFree(now));
}

}  // namespace

int main(int argc, char** argv) {
  const bool contention = argc > 1 && std::string(argv[1]) == "contention";
  const bool burst = argc > 1 && std::string(argv[1]) == "burst";
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
    if (burst) {
      GPU_CHECK(gpuFree(out));  // per SM and round: two stamps
      GPU_CHECK(gpuMalloc(&out, static_cast<size_t>(sms) * kBurstRounds * 2 * sizeof(unsigned long long)));
      run_bursts(prop, buf, active, out, sink, pad);
    } else if (contention) {
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

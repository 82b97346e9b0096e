// gms-partition-ubench: which SMs share an L2 partition (issue 10/11). The presets' `l2.sm_partition_map`
// (halves: SMs 0..65 near partition 0) is an estimate, and the TMA replay showed that it decides where
// one SM's copies of far lines go. Method, two launches on lines nobody has touched (a 1 GiB buffer,
// the L2 flushed by writing 256 MiB elsewhere first):
//   1. one CTA (on SM R, recorded) reads 4,096 fresh lines one after another (each address depends
//      on the previous data) and times each: a miss whose home slice is in R's partition comes back
//      ~250 cycles sooner than one that crosses to the other partition;
//   2. the host keeps the fast half (lines homed in R's partition, now in L2) and gives each of 132
//      CTAs (one per SM: a shared-memory request that admits one per SM) its own 12 of them; each
//      CTA times its reads the same way. From an SM in R's partition they are near hits (~270
//      cycles), from the other partition far hits (~520): nobody else read them, so no copy is near.
// Output, JSON lines: the first launch's latency histogram (`probe`), then per SM its median latency
// (`sm`). An SM's partition is R's when its median is near.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/event_timer.h"
#include "../include/sm_span.h"
#include "../include/ubench_stats.h"

namespace {

constexpr size_t kBufBytes = 1ull << 30, kLine = 128;
constexpr int kProbe = 4096, kPerSm = 12;

// Reads lines[0..n) of `buf` one after another (the next address waits for this one's data, which is
// 0), timing each with clock64; the dynamic shared memory makes the CTA large enough that one fits an SM.
__global__ void chase(const unsigned* buf, const unsigned long long* lines, int n, int per_cta,
                      unsigned long long* cycles, unsigned* sms) {
  // The pad is dynamic shared memory; the loaded words go to its first bytes: the store needs the
  // load's data, so the clock read after it cannot happen before the data is back (Jia et al.'s way).
  extern __shared__ unsigned sink[];
  if (threadIdx.x != 0) return;
  const int first = blockIdx.x * per_cta;
  sms[blockIdx.x] = smid();
  unsigned dep = 0;
  for (int i = 0; i < per_cta && first + i < n; ++i) {
    const unsigned* p = buf + lines[first + i] * (kLine / sizeof(unsigned)) + dep;
    const unsigned long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sink[i & 7] = v;
    dep = v;  // 0 at run time: the next load also waits for this one
    const unsigned long long t1 = clock64();
    cycles[first + i] = t1 - t0;
  }
}

using ubench::median;

}  // namespace

int main() {
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  unsigned* buf = nullptr;
  unsigned char* flush = nullptr;
  unsigned long long *lines = nullptr, *cycles = nullptr;
  unsigned* smids = nullptr;
  GPU_CHECK(gpuMalloc(&buf, kBufBytes));
  GPU_CHECK(gpuMemset(buf, 0, kBufBytes));
  GPU_CHECK(gpuMalloc(&flush, 256ull << 20));
  GPU_CHECK(gpuMemset(flush, 1, 256ull << 20));  // the L2 now holds none of buf
  GPU_CHECK(gpuMalloc(&lines, kProbe * sizeof(unsigned long long)));
  GPU_CHECK(gpuMalloc(&cycles, kProbe * sizeof(unsigned long long)));
  GPU_CHECK(gpuMalloc(&smids, 4096 * sizeof(unsigned)));
  // Fresh lines spread over the buffer (a stride of 61 lines + 4 KB pages: no DRAM page reuse pattern).
  std::vector<unsigned long long> probe(kProbe);
  for (int i = 0; i < kProbe; ++i) probe[i] = static_cast<unsigned long long>(i) * 2053 % (kBufBytes / kLine);
  GPU_CHECK(gpuMemcpy(lines, probe.data(), kProbe * sizeof(unsigned long long), gpuMemcpyHostToDevice));
  chase<<<1, 32, 64>>>(buf, lines, kProbe, kProbe, cycles, smids);
  GPU_CHECK_LAUNCH();
  std::vector<unsigned long long> c(kProbe);
  GPU_CHECK(gpuMemcpy(c.data(), cycles, kProbe * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
  unsigned ref = 0;
  GPU_CHECK(gpuMemcpy(&ref, smids, sizeof(unsigned), gpuMemcpyDeviceToHost));
  // Split at the midpoint between the two modes: the median of the lower and upper halves.
  std::vector<double> sorted(c.begin(), c.end());
  std::sort(sorted.begin(), sorted.end());
  const double lo = sorted[kProbe / 4], hi = sorted[3 * kProbe / 4], cut = (lo + hi) / 2;
  std::vector<unsigned long long> near;
  for (int i = 0; i < kProbe; ++i)
    if (static_cast<double>(c[i]) < cut) near.push_back(probe[i]);
  std::printf("{\"gpu\": \"%s\", \"probe\": {\"sm\": %u, \"lines\": %d, \"p25_cycles\": %.0f, \"p75_cycles\": %.0f, "
              "\"cut_cycles\": %.0f, \"near_lines\": %zu}}\n",
              prop.name, ref, kProbe, lo, hi, cut, near.size());
  // Second launch: one CTA per SM (a shared-memory request above half an SM's), 12 near lines each.
  const int ctas = std::min<int>(sms, static_cast<int>(near.size()) / kPerSm);
  GPU_CHECK(gpuMemcpy(lines, near.data(), near.size() * sizeof(unsigned long long), gpuMemcpyHostToDevice));
  const size_t pad = prop.sharedMemPerMultiprocessor / 2 + 1024;
  GPU_CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
  chase<<<ctas, 32, pad>>>(buf, lines, static_cast<int>(near.size()), kPerSm, cycles, smids);
  GPU_CHECK_LAUNCH();
  std::vector<unsigned long long> c2(static_cast<size_t>(ctas) * kPerSm);
  std::vector<unsigned> s2(static_cast<size_t>(ctas));
  GPU_CHECK(gpuMemcpy(c2.data(), cycles, c2.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
  GPU_CHECK(gpuMemcpy(s2.data(), smids, s2.size() * sizeof(unsigned), gpuMemcpyDeviceToHost));
  for (int b = 0; b < ctas; ++b) {
    std::vector<double> v(c2.begin() + b * kPerSm, c2.begin() + (b + 1) * kPerSm);
    std::printf("{\"gpu\": \"%s\", \"sm\": %u, \"cta\": %d, \"median_cycles\": %.0f, \"min_cycles\": %.0f, \"max_cycles\": %.0f}\n",
                prop.name, s2[b], b, median(v), *std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  }
  (void)gpuFree(buf);
  (void)gpuFree(flush);
  (void)gpuFree(lines);
  (void)gpuFree(cycles);
  (void)gpuFree(smids);
  return 0;
}

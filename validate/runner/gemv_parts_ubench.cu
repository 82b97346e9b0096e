// gms-gemv-parts-ubench: what holds seed 001's split-K GEMV under the DRAM's bandwidth (issue 11).
// On the H200 the GEMV draws ~3.8 TB/s where the DRAM saturates at 4.55 (gms-l2-load-ubench dram), and
// a fitted dram.efficiency absorbed the difference. This runs the validated kernel and three variants
// of the same program (validate/kernels/gemv_kernel.cuh, GemvPart) on every case of the `gemv` set:
//   loads    the same loads in the same order, each step's data folded by XOR where compute uses it
//   compute  loads and the fp32 FMAs, no cross-warp reduction and no atomics
//   stores   everything but the atomics (plain stores of the reduced sums)
//   full     the kernel the records measure
// One JSON line per case and part: median / min kernel time over `reps` launches (event timing, input
// sets rotated as the runner does so that no launch finds its W in L2), achieved GB/s of the
// compulsory bytes, registers. Where `loads` already runs at the GEMV's rate the access pattern holds
// it (DRAM pages, the order of requests); where it runs at the DRAM's limit the SM side does.
// `gms-gemv-parts-ubench [REPS] [large|atomics|deep]`: REPS = 0 launches each case and part once, untimed
// (for a profiler); `large` runs only the 1x8192x28672 shape; `atomics` only that shape's stores and
// full kernels and the four that take the atomics apart (redspread, redcoalesced, redonce,
// redprivate: gemv_kernel.cuh); `deep` the stores and full kernels of a deep split, 1x131072x512
// (1,024 programs adding to each of y's 16 lines: configs/workloads/gemv-splitk-deep.yaml).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "../include/event_timer.h"
#include "../kernels/gemv_kernel.cuh"
#include "../kernels/ubench_kernels.cuh"

namespace {

using gmsv::GemvPart;
constexpr int kBn = 256, kBk = 64;
constexpr const char* kPartNames[] = {"full", "loads", "compute", "stores", "redspread", "redcoalesced", "redonce", "redprivate"};

#if defined(__HIPCC__)
constexpr int kWarp = 64;
#else
constexpr int kWarp = 32;
#endif

template <int THREADS, int ORDER, int PART>
void launch(int k, int n, const __half* x, const __half* w, float* y) {
  dim3 grid(n / kBn, k / (2 * kBk));
  if (PART == gmsv::kGemvFull)
    gmsv::gemv_splitk_kernel<kBn, kBk, THREADS, ORDER><<<grid, THREADS>>>(x, w, y, k, n);
  else
    gmsv::gemv_part_kernel<kBn, kBk, THREADS, ORDER, PART><<<grid, THREADS>>>(x, w, y, k, n);
  GPU_CHECK_LAUNCH();
}

template <int THREADS, int ORDER, int PART>
int registers() {
#if defined(__HIPCC__)
  hipFuncAttributes a{};
  const void* f = PART == gmsv::kGemvFull ? reinterpret_cast<const void*>(gmsv::gemv_splitk_kernel<kBn, kBk, THREADS, ORDER>)
                                          : reinterpret_cast<const void*>(gmsv::gemv_part_kernel<kBn, kBk, THREADS, ORDER, PART>);
  GPU_CHECK(hipFuncGetAttributes(&a, f));
#else
  cudaFuncAttributes a{};
  if (PART == gmsv::kGemvFull)
    GPU_CHECK(cudaFuncGetAttributes(&a, gmsv::gemv_splitk_kernel<kBn, kBk, THREADS, ORDER>));
  else
    GPU_CHECK(cudaFuncGetAttributes(&a, gmsv::gemv_part_kernel<kBn, kBk, THREADS, ORDER, PART>));
#endif
  return a.numRegs;
}

struct Variant {
  void (*run)(int, int, const __half*, const __half*, float*);
  int (*regs)();
};

template <int THREADS, int ORDER>
Variant variant(int part) {
  switch (part) {
    case gmsv::kGemvLoads: return {launch<THREADS, ORDER, gmsv::kGemvLoads>, registers<THREADS, ORDER, gmsv::kGemvLoads>};
    case gmsv::kGemvCompute: return {launch<THREADS, ORDER, gmsv::kGemvCompute>, registers<THREADS, ORDER, gmsv::kGemvCompute>};
    case gmsv::kGemvStores: return {launch<THREADS, ORDER, gmsv::kGemvStores>, registers<THREADS, ORDER, gmsv::kGemvStores>};
    case gmsv::kGemvRedSpread:
      return {launch<THREADS, ORDER, gmsv::kGemvRedSpread>, registers<THREADS, ORDER, gmsv::kGemvRedSpread>};
    case gmsv::kGemvRedCoalesced:
      return {launch<THREADS, ORDER, gmsv::kGemvRedCoalesced>, registers<THREADS, ORDER, gmsv::kGemvRedCoalesced>};
    case gmsv::kGemvRedOnce: return {launch<THREADS, ORDER, gmsv::kGemvRedOnce>, registers<THREADS, ORDER, gmsv::kGemvRedOnce>};
    case gmsv::kGemvRedPrivate:
      return {launch<THREADS, ORDER, gmsv::kGemvRedPrivate>, registers<THREADS, ORDER, gmsv::kGemvRedPrivate>};
    default: return {launch<THREADS, ORDER, gmsv::kGemvFull>, registers<THREADS, ORDER, gmsv::kGemvFull>};
  }
}

Variant pick(int warps, int order, int part) {
  const bool ll = order == gmsv::kLLCC;
  switch (warps) {
    case 1: return ll ? variant<kWarp, gmsv::kLLCC>(part) : variant<kWarp, gmsv::kLCLC>(part);
    case 2: return ll ? variant<2 * kWarp, gmsv::kLLCC>(part) : variant<2 * kWarp, gmsv::kLCLC>(part);
    case 4: return ll ? variant<4 * kWarp, gmsv::kLLCC>(part) : variant<4 * kWarp, gmsv::kLCLC>(part);
    default: return ll ? variant<8 * kWarp, gmsv::kLLCC>(part) : variant<8 * kWarp, gmsv::kLCLC>(part);
  }
}

template <class T>
struct Buffer {
  T* p = nullptr;
  explicit Buffer(size_t count) { GPU_CHECK(gpuMalloc(&p, count * sizeof(T))); }
  ~Buffer() { (void)gpuFree(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  const std::string only = argc > 2 ? argv[2] : "";
  const bool atomics = only == "atomics", deep = only == "deep", only_large = only == "large" || atomics;
  const std::vector<int> parts = deep    ? std::vector<int>{gmsv::kGemvStores, gmsv::kGemvFull}
                                 : atomics ? std::vector<int>{gmsv::kGemvStores, gmsv::kGemvFull, gmsv::kGemvRedSpread,
                                                            gmsv::kGemvRedCoalesced, gmsv::kGemvRedOnce,
                                                            gmsv::kGemvRedPrivate}
                                         : std::vector<int>{gmsv::kGemvLoads, gmsv::kGemvCompute, gmsv::kGemvStores,
                                                            gmsv::kGemvFull};
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  gmsv::Timer timer;
  const std::vector<std::pair<int, int>> shapes = deep ? std::vector<std::pair<int, int>>{{131072, 512}}
                                                       : std::vector<std::pair<int, int>>{{4096, 7168}, {8192, 28672}};  // the runner's `gemv` set
  for (const auto& shape : shapes) {
    const int k = shape.first, n = shape.second;  // not a structured binding: the lambdas below capture them
    if (only_large && k != 8192) continue;
    const size_t nw = static_cast<size_t>(k) * n;
    const int sets = nw * 2 >= 3ull * static_cast<size_t>(prop.l2CacheSize) ? 1 : 4;  // as the runner rotates
    std::vector<std::unique_ptr<Buffer<__half>>> X, W;
    for (int i = 0; i < sets; ++i) {
      X.push_back(std::make_unique<Buffer<__half>>(static_cast<size_t>(k)));
      W.push_back(std::make_unique<Buffer<__half>>(nw));
      gmsv::fill_random_half<<<1024, 256>>>(X.back()->p, static_cast<size_t>(k), 0x9abcull + i + k);
      gmsv::fill_random_half<<<1024, 256>>>(W.back()->p, nw, 0xdef0ull + 13 * i + n);
      GPU_CHECK_LAUNCH();
    }
    const size_t y_rows = std::max(8, k / (2 * kBk));  // redspread adds over 8 x N, redprivate over K / (2 BK) x N
    Buffer<float> y(static_cast<size_t>(n) * y_rows);
    const double bytes = (static_cast<double>(k) + static_cast<double>(nw)) * 2 + static_cast<double>(n) * 4;
    for (int warps : {1, 2, 4, 8})
      for (int order : {gmsv::kLLCC, gmsv::kLCLC})
        for (int part : parts) {
          const Variant v = pick(warps, order, part);
          if (reps <= 0) {  // one launch for a profiler
            v.run(k, n, X[0]->p, W[0]->p, y.p);
            GPU_CHECK(gpuDeviceSynchronize());
            continue;
          }
          std::vector<double> ns;
          for (int r = -3; r < reps; ++r) {
            GPU_CHECK(gpuMemset(y.p, 0, static_cast<size_t>(n) * 4 * y_rows));  // outside the timed window
            const int i = (r + 3) % sets;
            const double t = timer.ns([&] { v.run(k, n, X[i]->p, W[i]->p, y.p); });
            if (r >= 0) ns.push_back(t);
          }
          std::sort(ns.begin(), ns.end());
          const double median = ns[ns.size() / 2];
          std::printf(
              "{\"gpu\": \"%s\", \"case\": \"gemv_1x%dx%d_bn%d_bk%d_w%d_%s\", \"part\": \"%s\", \"median_ns\": %.1f, "
              "\"min_ns\": %.1f, \"achieved_gbps\": %.1f, \"registers\": %d, \"reps\": %d, \"input_sets_rotated\": %d}\n",
              prop.name, k, n, kBn, kBk, warps, order == gmsv::kLLCC ? "llcc" : "lclc", kPartNames[part], median, ns.front(),
              bytes / median, v.regs(), reps, sets);
          std::fflush(stdout);
        }
  }
  return 0;
}

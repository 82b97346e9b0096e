// gms-gemv-times: when every program of seed 001's split-K GEMV (validate/kernels/gemv_kernel.cuh,
// 1x8192x28672, BN 256, BK 64) starts and ends, and on which SM - with its atomics (`full`, the kernel
// the records measure) and with plain stores instead (`stores`). The model's reductions cost the 1-warp
// programs a third of what silicon's do (validate/results/h100/gemv_atomics): whether silicon's programs
// of a wave reach their reductions closer together than the model's (a denser burst of reductions at
// the slices) is what these stamps say. Thread 0 of every program writes %globaltimer at entry and after
// the program's last instruction before exit (after its atomics are issued), %smid, and - from inside the
// program (gemv_body's compute_done) - when its loads and FMAs are done, before the reduction: what lies
// between that and the end is the reduction's hand-over. The stamped kernel differs from the plain one
// only by these, and both are timed so their cost is on record.
//   gms-gemv-times [--out DIR] [--runs N] [--resident N,N...]  ->  DIR/gemv_times.jsonl (per case and part: plain and stamped
//                                              median times, registers) and
//                                              DIR/<case>_<part>_run<r>.csv: program,sm,gt_start_ns,gt_end_ns,
//                                              gt_compute_done_ns
// --resident: only the 1-warp lclc programs, each time with dynamic shared memory (unused) that lets at most
// N share an SM (`_resN` in the case names): the same reductions in smaller waves.
// CUDA only (%globaltimer, %smid).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "../include/event_timer.h"
#include "../include/sm_span.h"
#include "../kernels/gemv_kernel.cuh"
#include "../kernels/ubench_kernels.cuh"

namespace {

constexpr int kBn = 256, kBk = 64, kK = 8192, kN = 28672;

template <int THREADS, int ORDER, int PART>
__global__ void __launch_bounds__(THREADS) stamped_kernel(const __half* __restrict__ x, const __half* __restrict__ W,
                                                          float* __restrict__ y, int K, int N,
                                                          unsigned long long* __restrict__ stamps) {
  const unsigned long long start = globaltimer();
  const size_t p = static_cast<size_t>(blockIdx.y) * gridDim.x + blockIdx.x;
  gmsv::gemv_body<kBn, kBk, THREADS, ORDER, PART>(x, W, y, K, N, &stamps[4 * p + 3]);
  if (threadIdx.x == 0) {
    stamps[4 * p] = start;
    stamps[4 * p + 1] = globaltimer();
    stamps[4 * p + 2] = smid();
  }
}

struct Buffers {
  __half *x = nullptr, *w = nullptr;
  float* y = nullptr;
  unsigned long long* stamps = nullptr;
  size_t programs = static_cast<size_t>(kN / kBn) * (kK / (2 * kBk));
  Buffers() {
    GPU_CHECK(cudaMalloc(&x, sizeof(__half) * kK));
    GPU_CHECK(cudaMalloc(&w, sizeof(__half) * kK * static_cast<size_t>(kN)));
    GPU_CHECK(cudaMalloc(&y, sizeof(float) * kN));
    GPU_CHECK(cudaMalloc(&stamps, sizeof(unsigned long long) * 4 * programs));
    gmsv::fill_random_half<<<1024, 256>>>(x, kK, 0x9abcull + kK);
    gmsv::fill_random_half<<<1024, 256>>>(w, kK * static_cast<size_t>(kN), 0xdef0ull + kN);
    GPU_CHECK_LAUNCH();
  }
  ~Buffers() {
    (void)cudaFree(x), (void)cudaFree(w), (void)cudaFree(y), (void)cudaFree(stamps);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
};

// Dynamic shared memory (unused by the kernels) that lets at most `resident` programs share an SM; 0 for
// none (as the records run).
size_t smem_for(int resident) {
  if (resident <= 0) return 0;
  cudaDeviceProp prop{};
  GPU_CHECK(cudaGetDeviceProperties(&prop, 0));
  const size_t per_block = prop.sharedMemPerMultiprocessor / static_cast<size_t>(resident);
  return (per_block - prop.reservedSharedMemPerBlock) / 128 * 128;
}

template <class K>
int resident_per_sm(K kernel, int threads, size_t smem) {
  if (smem > 0) GPU_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int n = 0;
  GPU_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, smem));
  return n;
}

template <int THREADS, int ORDER, int PART>
void run_case(Buffers& b, const std::string& dir, const char* order_name, const char* part_name, int runs,
              std::ofstream& jsonl, int resident = 0) {
  const dim3 grid(kN / kBn, kK / (2 * kBk));
  const size_t smem = smem_for(resident);
  auto plain_kernel = PART == gmsv::kGemvFull ? gmsv::gemv_splitk_kernel<kBn, kBk, THREADS, ORDER>
                                              : gmsv::gemv_part_kernel<kBn, kBk, THREADS, ORDER, PART>;
  const int plain_resident = resident_per_sm(plain_kernel, THREADS, smem);
  const int stamped_resident = resident_per_sm(stamped_kernel<THREADS, ORDER, PART>, THREADS, smem);
  auto launch = [&](bool stamp) {
    GPU_CHECK(cudaMemset(b.y, 0, sizeof(float) * kN));
    if (stamp)
      stamped_kernel<THREADS, ORDER, PART><<<grid, THREADS, smem>>>(b.x, b.w, b.y, kK, kN, b.stamps);
    else
      plain_kernel<<<grid, THREADS, smem>>>(b.x, b.w, b.y, kK, kN);
    GPU_CHECK_LAUNCH();
  };
  gmsv::Timer timer;
  launch(false);  // warm-up
  GPU_CHECK(cudaDeviceSynchronize());
  std::vector<double> plain, stamped;
  for (int r = 0; r < 5; ++r) plain.push_back(timer.ns([&] { launch(false); }));
  const std::string name = "gemv_1x" + std::to_string(kK) + "x" + std::to_string(kN) + "_bn256_bk64_w" +
                           std::to_string(THREADS / 32) + "_" + order_name +
                           (resident > 0 ? "_res" + std::to_string(resident) : std::string());
  std::vector<unsigned long long> host(4 * b.programs);
  for (int r = 0; r < runs; ++r) {
    stamped.push_back(timer.ns([&] { launch(true); }));
    GPU_CHECK(cudaMemcpy(host.data(), b.stamps, host.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    std::ofstream csv(dir + "/" + name + "_" + part_name + "_run" + std::to_string(r) + ".csv");
    csv << "program,sm,gt_start_ns,gt_end_ns,gt_compute_done_ns\n";
    for (size_t p = 0; p < b.programs; ++p)
      csv << p << ',' << host[4 * p + 2] << ',' << host[4 * p] << ',' << host[4 * p + 1] << ',' << host[4 * p + 3] << '\n';
  }
  std::sort(plain.begin(), plain.end());
  std::sort(stamped.begin(), stamped.end());
  cudaFuncAttributes plain_attr{}, stamped_attr{};
  GPU_CHECK(cudaFuncGetAttributes(&plain_attr, plain_kernel));
  GPU_CHECK(cudaFuncGetAttributes(&stamped_attr, stamped_kernel<THREADS, ORDER, PART>));
  char line[640];
  std::snprintf(line, sizeof line,
                "{\"case\": \"%s\", \"part\": \"%s\", \"programs\": %zu, \"plain_ns.median\": %.1f, "
                "\"stamped_ns.median\": %.1f, \"stamped_runs\": %d, \"registers\": %d, \"stamped_registers\": %d, "
                "\"local_bytes\": %zu, \"stamped_local_bytes\": %zu, \"dynamic_smem_bytes\": %zu, "
                "\"resident_per_sm\": %d, \"stamped_resident_per_sm\": %d}\n",
                name.c_str(), part_name, b.programs, plain[plain.size() / 2], stamped[stamped.size() / 2], runs,
                plain_attr.numRegs, stamped_attr.numRegs, plain_attr.localSizeBytes, stamped_attr.localSizeBytes, smem,
                plain_resident, stamped_resident);
  jsonl << line;
  jsonl.flush();
  std::printf("%s", line);
}

template <int THREADS, int ORDER>
void both_parts(Buffers& b, const std::string& dir, const char* order_name, int runs, std::ofstream& jsonl,
                int resident = 0) {
  run_case<THREADS, ORDER, gmsv::kGemvFull>(b, dir, order_name, "full", runs, jsonl, resident);
  run_case<THREADS, ORDER, gmsv::kGemvStores>(b, dir, order_name, "stores", runs, jsonl, resident);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = ".";
  int runs = 3;
  std::vector<int> resident;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--out") dir = argv[i + 1];
    if (std::string(argv[i]) == "--runs") runs = std::atoi(argv[i + 1]);
    if (std::string(argv[i]) == "--resident") {
      for (const char* p = argv[i + 1]; *p;) {
        const int n = std::atoi(p);
        if (n < 1 || n > 32) {
          std::fprintf(stderr, "gms-gemv-times: --resident takes programs per SM, 1..32, comma-separated\n");
          return 2;
        }
        resident.push_back(n);
        while (*p && *p != ',') ++p;
        if (*p == ',') ++p;
      }
    }
  }
  if (runs < 1 || runs > 20) {
    std::fprintf(stderr, "gms-gemv-times: --runs takes 1..20\n");
    return 2;
  }
  std::ofstream jsonl(dir + "/gemv_times.jsonl");
  Buffers b;
  if (!resident.empty()) {  // the 1-warp lclc programs, at most N a SM: smaller waves of reductions
    for (int n : resident) both_parts<32, gmsv::kLCLC>(b, dir, "lclc", runs, jsonl, n);
    return 0;
  }
  both_parts<32, gmsv::kLCLC>(b, dir, "lclc", runs, jsonl);
  both_parts<32, gmsv::kLLCC>(b, dir, "llcc", runs, jsonl);
  both_parts<64, gmsv::kLCLC>(b, dir, "lclc", runs, jsonl);
  both_parts<128, gmsv::kLCLC>(b, dir, "lclc", runs, jsonl);
  both_parts<256, gmsv::kLCLC>(b, dir, "lclc", runs, jsonl);
  return 0;
}

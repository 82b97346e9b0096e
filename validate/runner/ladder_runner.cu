// gms-ladder: seed 002's ladder on the GPU. Each rung is checked against a one-thread-per-output
// reference (fresh random inputs, NaN-poisoned output), then timed (events, warm-up, median of 15);
// `--profile` runs each rung once for Nsight Compute instead ("profiled seed002_<rung>" per launch).
// `--rounds N` does either N times over, rung after rung (silicon's run-to-run spread:
// validate/scripts/device_repeat.sh). Prints one JSON object per rung and round.
//   gms-ladder [--size 4096] [--profile] [--only NAME] [--rounds N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../kernels/sgemm_ladder.cuh"

namespace {

struct Rung {
  const char* name;
  const char* params;  // the workload keys this rung corresponds to (for the records)
  void (*launch)(int, const float*, const float*, float*);
};

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
void launch_rung(int n, const float* A, const float* B, float* C) {
  using P = gmsv::SgemmLadder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  auto k = gmsv::sgemm_ladder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  if (P::smem_bytes() > 48 * 1024) GPU_CHECK(gpuFuncSetAttribute(k, gpuFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(P::smem_bytes())));
  k<<<dim3(n / BM, n / BN), P::kThreads, P::smem_bytes()>>>(n, n, n, A, B, C);
  GPU_CHECK_LAUNCH();
}

#define RUNG(name, BM, BN, BK, TCM, TCN, VEC, ASYNC, ST, PAD, RV)                                                      \
  Rung {                                                                                                               \
    name,                                                                                                              \
        "\"tile\": [" #BM ", " #BN ", " #BK "], \"threads\": [" #TCM ", " #TCN "], \"copy_vec\": " #VEC                \
        ", \"async\": " #ASYNC ", \"stages\": " #ST ", \"pad\": " #PAD ", \"read_vec\": " #RV,                          \
        launch_rung<BM, BN, BK, TCM, TCN, VEC, ASYNC, ST, PAD, RV>                                                     \
  }

const Rung kRungs[] = {
    RUNG("r0_naive", 64, 64, 16, 8, 8, 1, false, 1, 0, 1),
    RUNG("r1_tiledcopy128", 64, 64, 16, 8, 8, 4, false, 1, 0, 1),
    RUNG("r2_threads128", 64, 64, 16, 16, 8, 4, false, 1, 0, 1),
    RUNG("r2_threads256", 128, 128, 16, 16, 16, 4, false, 1, 0, 1),
    RUNG("r3_bk32", 128, 128, 32, 16, 16, 4, false, 1, 0, 1),
    RUNG("r3_bk64", 128, 128, 64, 16, 16, 4, false, 1, 0, 1),
    RUNG("r4_double_buffer", 128, 128, 32, 16, 16, 4, true, 2, 0, 1),
    RUNG("r5_padding", 128, 128, 32, 16, 16, 4, true, 2, 4, 1),
    RUNG("r6_register_blocking", 128, 128, 32, 16, 16, 4, true, 2, 0, 4),
};

}  // namespace

int main(int argc, char** argv) {
  int n = 4096;
  bool profile = false;
  std::string only;
  int rounds = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--size") && i + 1 < argc) n = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--profile")) profile = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: gms-ladder [--size N] [--profile] [--only NAME] [--rounds N]\n");
      return 2;
    }
  }
  if (n % 128 != 0 || n <= 0) {
    std::fprintf(stderr, "gms-ladder: --size must be a positive multiple of 128\n");
    return 2;
  }
  if (rounds < 1) {
    std::fprintf(stderr, "gms-ladder: --rounds takes a count >= 1\n");
    return 2;
  }
  try {
    const size_t elems = static_cast<size_t>(n) * n;
    std::vector<float> ha(elems), hb(elems);
    std::mt19937 rng(std::random_device{}());
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (auto& v : ha) v = u(rng);
    for (auto& v : hb) v = u(rng);
    float *A, *B, *C, *R;
    GPU_CHECK(gpuMalloc(&A, elems * 4));
    GPU_CHECK(gpuMalloc(&B, elems * 4));
    GPU_CHECK(gpuMalloc(&C, elems * 4));
    GPU_CHECK(gpuMalloc(&R, elems * 4));
    GPU_CHECK(gpuMemcpy(A, ha.data(), elems * 4, gpuMemcpyHostToDevice));
    GPU_CHECK(gpuMemcpy(B, hb.data(), elems * 4, gpuMemcpyHostToDevice));
    std::vector<float> ref(elems), out(elems);
    if (!profile) {
      gmsv::sgemm_reference<<<dim3(n / 128, n), 128>>>(n, n, n, A, B, R);
      GPU_CHECK_LAUNCH();
      GPU_CHECK(gpuMemcpy(ref.data(), R, elems * 4, gpuMemcpyDeviceToHost));
    }
    int failed = 0;
    gpuEvent_t e0, e1;
    GPU_CHECK(gpuEventCreate(&e0));
    GPU_CHECK(gpuEventCreate(&e1));
    for (int round = 0; round < rounds; ++round) {
    for (const Rung& r : kRungs) {
      if (!only.empty() && only != r.name) continue;
      if (profile) {
        std::printf("profiled seed002_%s\n", r.name);
        std::fflush(stdout);
        r.launch(n, A, B, C);
        GPU_CHECK(gpuDeviceSynchronize());
        continue;
      }
      GPU_CHECK(gpuMemset(C, 0xff, elems * 4));  // NaN: an unwritten output fails the check
      r.launch(n, A, B, C);
      GPU_CHECK(gpuDeviceSynchronize());
      GPU_CHECK(gpuMemcpy(out.data(), C, elems * 4, gpuMemcpyDeviceToHost));
      double num = 0, den = 0;
      bool nan = false;
      for (size_t i = 0; i < elems; ++i) {
        if (std::isnan(out[i])) nan = true;
        num += (static_cast<double>(out[i]) - ref[i]) * (static_cast<double>(out[i]) - ref[i]);
        den += static_cast<double>(ref[i]) * ref[i];
      }
      double rel = std::sqrt(num / den);
      bool ok = !nan && rel < 1e-5;
      failed += !ok;
      for (int w = 0; w < 3; ++w) r.launch(n, A, B, C);
      std::vector<float> ms;
      for (int rep = 0; rep < 15; ++rep) {
        GPU_CHECK(gpuEventRecord(e0));
        r.launch(n, A, B, C);
        GPU_CHECK(gpuEventRecord(e1));
        GPU_CHECK(gpuEventSynchronize(e1));
        float t = 0;
        GPU_CHECK(gpuEventElapsedTime(&t, e0, e1));
        ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      double flops = 2.0 * n * static_cast<double>(n) * n;
      std::printf("{\"rung\": \"%s\", \"size\": %d, %s, \"check\": \"%s\", \"rel_error\": %.3g, \"time_us_median\": %.2f, "
                  "\"time_us_min\": %.2f, \"time_us_max\": %.2f, \"tflops\": %.2f%s}\n",
                  r.name, n, r.params, ok ? "ok" : "FAILED", rel, ms[ms.size() / 2] * 1e3, ms.front() * 1e3,
                  ms.back() * 1e3, flops / (ms[ms.size() / 2] * 1e-3) / 1e12,
                  rounds > 1 ? (", \"round\": " + std::to_string(round)).c_str() : "");
    }
    }
    GPU_CHECK(gpuFree(A));
    GPU_CHECK(gpuFree(B));
    GPU_CHECK(gpuFree(C));
    GPU_CHECK(gpuFree(R));
    return failed ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms-ladder: %s\n", e.what());
    return 1;
  }
}

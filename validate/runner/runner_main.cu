// gms-validate: runs the named case sets on the GPU, checks every result against a reference,
// times with events (warm-up, median of many, inputs rotated when they would fit in L2) and writes
// one JSON record per case. With --profile each case runs exactly once, unchecked, for ncu.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../kernels/gemm_kernel.cuh"
#include "../kernels/gemv_kernel.cuh"
#include "../kernels/ubench_kernels.cuh"
#include "cases.h"
#include "record.h"
#include "runner_common.cuh"

namespace gmsv {
namespace {

// How many input sets to rotate so that consecutive timed runs do not find their inputs in L2.
int rotation(size_t input_bytes, const Env& env) {
  return input_bytes >= 3ull * env.prop.l2CacheSize ? 1 : 4;
}

std::string check_json(bool ok, double err, double tol, const std::string& what) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "{\"passed\": %s, \"relative_error\": %.3e, \"tolerance\": %.1e, \"method\": \"%s\"}",
                ok ? "true" : "false", err, tol, what.c_str());
  return buf;
}

// ---------------------------------------------------------------------------------------------------
template <int PAD>
void run_gemm_padded(const GemmCase& c, const Options& o, const Env& env, std::ofstream& out) {
  constexpr int BK = 32, STAGES = 3;
  if (c.m % kGemmBM || c.n % kGemmBN || c.k % BK) throw std::invalid_argument(c.name() + ": shape not tile-aligned");
  auto kernel = gemm_fp16_kernel<BK, STAGES, PAD>;
  const int smem = gemm_smem_bytes<BK, STAGES, PAD>();
  GPU_CHECK(gpuFuncSetAttribute(kernel, gpuFuncAttributeMaxDynamicSharedMemorySize, smem));
  const size_t na = static_cast<size_t>(c.m) * c.k, nb = static_cast<size_t>(c.k) * c.n, nc = static_cast<size_t>(c.m) * c.n;
  const int sets = o.profile ? 1 : rotation((na + nb) * 2, env);
  std::vector<std::unique_ptr<DeviceBuffer<__half>>> A, B;
  for (int s = 0; s < sets; ++s) {
    A.push_back(std::make_unique<DeviceBuffer<__half>>(na));
    B.push_back(std::make_unique<DeviceBuffer<__half>>(nb));
    fill_random(A.back()->p, na, 0x1234 + 7 * s + c.m);
    fill_random(B.back()->p, nb, 0x5678 + 11 * s + c.n);
  }
  DeviceBuffer<__half> C(nc);
  CtaOrderParams order{c.order_kind, c.group_m};
  const int grid = (c.m / kGemmBM) * (c.n / kGemmBN);
  auto launch = [&](int s) {
    kernel<<<grid, kGemmThreads, smem>>>(A[s]->p, B[s]->p, C.p, c.m, c.n, c.k, order, nullptr);
    GPU_CHECK_LAUNCH();
  };
  if (o.profile) {
    launch(0);
    GPU_CHECK(gpuDeviceSynchronize());
    std::printf("profiled %s\n", c.name().c_str());
    return;
  }
  // Correctness: NaN-poisoned output, every element must be written; sampled entries against a
  // double-precision reference on the host (round 0 only: the later rounds time the same code).
  const double tol = 5e-3;
  double err = 0;
  if (o.round == 0) {
  fill_half<<<1024, 256>>>(C.p, nc, 0x7e00);
  GPU_CHECK_LAUNCH();
  launch(0);
  GPU_CHECK(gpuDeviceSynchronize());
  std::vector<double> hc = to_host_half(C.p, nc), ha = to_host_half(A[0]->p, na), hb = to_host_half(B[0]->p, nb);
  bool all_written = std::all_of(hc.begin(), hc.end(), [](double v) { return std::isfinite(v); });
  std::mt19937_64 rng(c.m * 31 + c.n);
  std::vector<double> got, want;
  for (int s = 0; s < 256; ++s) {
    size_t i = rng() % c.m, j = rng() % c.n;
    double ref = 0;
    for (int k = 0; k < c.k; ++k) ref += ha[i * c.k + k] * hb[static_cast<size_t>(k) * c.n + j];
    got.push_back(hc[i * c.n + j]);
    want.push_back(ref);
  }
  err = all_written ? relative_error(got, want) : INFINITY;
  }
  Timer t;
  for (int w = 0; w < 3; ++w) launch(w % sets);
  std::vector<double> samples;
  for (int r = 0; r < o.reps; ++r) samples.push_back(t.ns([&] { launch(r % sets); }));
  Timing tm = summarize(samples);
  double flops = 2.0 * c.m * c.n * c.k;
  std::map<std::string, double> measured = {{"gpu__time_duration.sum", tm.median_ns},
                                            {"time_ns.min", tm.min_ns},
                                            {"time_ns.max", tm.max_ns},
                                            {"reps", static_cast<double>(tm.reps)},
                                            {"tflops", flops / tm.median_ns / 1e3},
                                            {"input_sets_rotated", static_cast<double>(sets)}};
  if (o.rounds > 1) measured["round"] = o.round;
  cudaFuncAttributes_compat attr = func_attributes(kernel);
  out << make_record(c.name(), "gemm", c.workload_json(attr.regs), measured,
                     check_json(err <= tol, err, tol,
                                o.round == 0 ? "256 sampled entries vs fp64 host reference; NaN-poisoned C"
                                             : "checked in round 0 of this call"),
                     env.json)
      << "\n";
  out.flush();
  std::printf("%-40s %9.1f us %7.1f TFLOP/s  err %.1e %s\n", c.name().c_str(), tm.median_ns / 1e3,
              flops / tm.median_ns / 1e3, err, err <= tol ? "ok" : "FAILED");
}

// The shared-row padding is a template parameter of the kernel: the pads the case sets use.
void run_gemm(const GemmCase& c, const Options& o, const Env& env, std::ofstream& out) {
  switch (c.pad) {
    case 0: return run_gemm_padded<0>(c, o, env, out);
    case 8: return run_gemm_padded<8>(c, o, env, out);
    case 16: return run_gemm_padded<16>(c, o, env, out);
    default: throw std::invalid_argument(c.name() + ": pad " + std::to_string(c.pad) + " not built (0, 8, 16)");
  }
}

// ---------------------------------------------------------------------------------------------------
template <int THREADS, int ORDER>
void launch_gemv(const GemvCase& c, const __half* x, const __half* W, float* y) {
  dim3 grid(c.n / 256, c.k / (2 * 64));
  gemv_splitk_kernel<256, 64, THREADS, ORDER><<<grid, THREADS>>>(x, W, y, c.k, c.n);
  GPU_CHECK_LAUNCH();
}

template <int THREADS, int ORDER>
int gemv_regs() {
  return func_attributes(gemv_splitk_kernel<256, 64, THREADS, ORDER>).regs;
}

int gemv_registers(const GemvCase& c) {
  const int t = c.warps * kWarp;
  bool ll = c.order == kLLCC;
  switch (t) {
    case kWarp: return ll ? gemv_regs<kWarp, kLLCC>() : gemv_regs<kWarp, kLCLC>();
    case 2 * kWarp: return ll ? gemv_regs<2 * kWarp, kLLCC>() : gemv_regs<2 * kWarp, kLCLC>();
    case 4 * kWarp: return ll ? gemv_regs<4 * kWarp, kLLCC>() : gemv_regs<4 * kWarp, kLCLC>();
    default: return ll ? gemv_regs<8 * kWarp, kLLCC>() : gemv_regs<8 * kWarp, kLCLC>();
  }
}

void dispatch_gemv(const GemvCase& c, const __half* x, const __half* W, float* y) {
  if (c.bn != 256 || c.bk != 64) throw std::invalid_argument(c.name() + ": only BN=256, BK=64 are built");
  const int t = c.warps * kWarp;
  auto go = [&](auto order_tag) {
    constexpr int ORD = decltype(order_tag)::value;
    switch (t) {
      case kWarp: return launch_gemv<kWarp, ORD>(c, x, W, y);
      case 2 * kWarp: return launch_gemv<2 * kWarp, ORD>(c, x, W, y);
      case 4 * kWarp: return launch_gemv<4 * kWarp, ORD>(c, x, W, y);
      case 8 * kWarp: return launch_gemv<8 * kWarp, ORD>(c, x, W, y);
      default: throw std::invalid_argument(c.name() + ": warps must be 1, 2, 4 or 8");
    }
  };
  if (c.order == kLLCC)
    go(std::integral_constant<int, kLLCC>{});
  else
    go(std::integral_constant<int, kLCLC>{});
}

void run_gemv(const GemvCase& c, const Options& o, const Env& env, std::ofstream& out) {
  if (c.n % c.bn || c.k % (2 * c.bk)) throw std::invalid_argument(c.name() + ": shape not block-aligned");
  const size_t nw = static_cast<size_t>(c.k) * c.n;
  const int sets = o.profile ? 1 : rotation(nw * 2, env);
  std::vector<std::unique_ptr<DeviceBuffer<__half>>> X, W;
  for (int s = 0; s < sets; ++s) {
    X.push_back(std::make_unique<DeviceBuffer<__half>>(c.k));
    W.push_back(std::make_unique<DeviceBuffer<__half>>(nw));
    fill_random(X.back()->p, c.k, 0x9abc + s + c.k);
    fill_random(W.back()->p, nw, 0xdef0 + 13 * s + c.n);
  }
  DeviceBuffer<float> y(c.n);
  if (o.profile) {
    GPU_CHECK(gpuMemset(y.p, 0, c.n * 4));
    dispatch_gemv(c, X[0]->p, W[0]->p, y.p);
    GPU_CHECK(gpuDeviceSynchronize());
    std::printf("profiled %s\n", c.name().c_str());
    return;
  }
  const double tol = 1e-4;
  double err = 0;
  if (o.round == 0) {  // the later rounds of --rounds time the same code
  GPU_CHECK(gpuMemset(y.p, 0, c.n * 4));
  dispatch_gemv(c, X[0]->p, W[0]->p, y.p);
  GPU_CHECK(gpuDeviceSynchronize());
  std::vector<float> hy(c.n);
  GPU_CHECK(gpuMemcpy(hy.data(), y.p, c.n * 4, gpuMemcpyDeviceToHost));
  std::vector<double> hx = to_host_half(X[0]->p, c.k), hw = to_host_half(W[0]->p, nw);
  std::vector<double> got(hy.begin(), hy.end()), want(c.n, 0.0);
  for (int k = 0; k < c.k; ++k)
    for (int j = 0; j < c.n; ++j) want[j] += hx[k] * hw[static_cast<size_t>(k) * c.n + j];
  err = relative_error(got, want);
  }
  Timer t;
  std::vector<double> samples;
  for (int r = -3; r < o.reps; ++r) {
    GPU_CHECK(gpuMemset(y.p, 0, c.n * 4));  // outside the timed window
    int s = (r + 3) % sets;
    double ns = t.ns([&] { dispatch_gemv(c, X[s]->p, W[s]->p, y.p); });
    if (r >= 0) samples.push_back(ns);
  }
  Timing tm = summarize(samples);
  double bytes = (static_cast<double>(c.k) + nw) * 2 + static_cast<double>(c.n) * 4;
  std::map<std::string, double> measured = {{"gpu__time_duration.sum", tm.median_ns},
                                            {"time_ns.min", tm.min_ns},
                                            {"time_ns.max", tm.max_ns},
                                            {"reps", static_cast<double>(tm.reps)},
                                            {"compulsory_bytes", bytes},
                                            {"achieved_gbps", bytes / tm.median_ns},
                                            {"input_sets_rotated", static_cast<double>(sets)}};
  if (o.rounds > 1) measured["round"] = o.round;
  out << make_record(c.name(), "gemv", c.workload_json(gemv_registers(c)), measured,
                     check_json(err <= tol, err, tol,
                                o.round == 0 ? "all outputs vs fp64 host reference" : "checked in round 0 of this call"),
                     env.json)
      << "\n";
  out.flush();
  std::printf("%-40s %9.2f us %7.1f GB/s  err %.1e %s\n", c.name().c_str(), tm.median_ns / 1e3, bytes / tm.median_ns,
              err, err <= tol ? "ok" : "FAILED");
}

}  // namespace

void run_ubench(const Options& o, const Env& env, std::ofstream& out, std::ofstream& yaml);

}  // namespace gmsv

int main(int argc, char** argv) {
  gmsv::Options o;
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--set") o.sets.push_back(value());
    else if (a == "--out") o.out = value();
    else if (a == "--reps") o.reps = std::stoi(value());
    else if (a == "--rounds") o.rounds = std::stoi(value());
    else if (a == "--profile") o.profile = true;
    else if (a == "--help") {
      std::printf("usage: gms-validate --set gemm|gemm_pad|gemv|ubench|smoke [--set ...] [--out DIR] [--reps N] [--rounds N] [--profile]\n");
      return 0;
    } else {
      std::fprintf(stderr, "gms-validate: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (o.sets.empty()) o.sets = {"smoke"};
  if (o.rounds < 1 || o.reps < 1) {
    std::fprintf(stderr, "gms-validate: --rounds and --reps take a count >= 1\n");
    return 2;
  }
  try {
    gmsv::Env env = gmsv::environment(o);
    std::printf("device: %s, %d SMs, L2 %d B\n", env.prop.name, env.prop.multiProcessorCount, env.prop.l2CacheSize);
    for (const auto& set : o.sets) {
      std::string suffix = o.profile ? "_profile" : "";
      if (set == "ubench") {
        std::ofstream out(o.out + "/ubench.jsonl"), yaml(o.out + "/preset_lines.yaml");
        gmsv::run_ubench(o, env, out, yaml);
      } else if (set == "gemm" || set == "gemm_pad" || set == "gemv" || set == "smoke") {
        std::ofstream out(o.out + "/" + set + suffix + ".jsonl");
        for (int round = 0; round < o.rounds; ++round) {
          gmsv::Options ro = o;
          ro.round = round;
          if (set != "gemv")
            for (const auto& c : gmsv::gemm_cases(set)) gmsv::run_gemm(c, ro, env, out);
          if (set == "gemv" || set == "smoke")
            for (const auto& c : gmsv::gemv_cases(set)) gmsv::run_gemv(c, ro, env, out);
        }
      } else {
        throw std::invalid_argument("unknown case set '" + set + "' (gemm, gemm_pad, gemv, ubench, smoke)");
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gms-validate: %s\n", e.what());
    return 1;
  }
  return 0;
}

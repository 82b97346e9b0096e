// gms-ladder: seed 002's ladder on the GPU. Each rung is checked against a one-thread-per-output
// reference (fresh random inputs, NaN-poisoned output), then timed (events, warm-up, median of 15);
// `--profile` runs each rung once for Nsight Compute instead ("profiled seed002_<rung>" per launch).
// `--rounds N` does either N times over, rung after rung (silicon's run-to-run spread:
// validate/scripts/device_repeat.sh). Prints one JSON object per rung and round.
// `--stamps DIR` (CUDA only) times each rung plain and stamped, then runs the stamped kernel three times
// and writes DIR/seed002_<rung>_run<r>.csv: cta (launch order), sm, gt_start_ns, gt_end_ns, clk_start,
// clk_end - the columns validate/scripts/cta_stamps.py reads (cta_spread.py, cta_ranks.py).
// `--ctas-per-sm N` (with --stamps or --profile) launches every kernel with dynamic shared memory it does not use,
// so that at most N CTAs fit an SM (an H100/H200 SM's 228 KiB, 1 KiB reserved a CTA; the carveout asked at its
// largest): N = 1 (`--alone`) gives each CTA's duration, or its profile, without co-resident CTAs.
// `--phases DIR` (CUDA only) times each rung plain and with its main loop stamped by every warp
// (ladder_phase_stamps.cuh), then writes one stamped run's phases as histograms: DIR/seed002_<rung>_phases.csv,
// DIR/seed002_<rung>_phase_by_tile.csv (validate/scripts/ladder_phases.py sets them beside the model's warps.csv).
//   gms-ladder [--size 4096] [--profile] [--only NAME] [--rounds N] [--stamps DIR | --phases DIR]
//              [--alone | --ctas-per-sm N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "../include/gpu_port.h"
#include "../kernels/ladder_phase_stamps.cuh"
#include "../kernels/sgemm_ladder.cuh"

namespace {

struct Rung {
  const char* name;
  const char* params;  // the workload keys this rung corresponds to (for the records)
  void (*launch)(int, const float*, const float*, float*);
  void (*launch_stamped)(int, const float*, const float*, float*, unsigned long long*);
  // --phases: the loop-stamped kernel; returns the CTAs an SM holds at once of it, and in *plain_per_sm of the
  // plain kernel (equal, or the stamps changed what they measure).
  int (*launch_phases)(int, const float*, const float*, float*, unsigned*, int* plain_per_sm);
  int bm, bn, bk;  // the CTA tile: (n / bm) x (n / bn) CTAs, K tiles of bk
  int threads;
};

// --ctas-per-sm: the dynamic shared memory every launch asks for at least (0: what the rung uses).
int g_smem_floor = 0;
constexpr int kSmSharedBytes = 228 * 1024, kReservedPerCta = 1024;  // H100 / H200
// The least a CTA must ask for so that N + 1 cannot share an SM: N = 1 gives 116 KiB (the --alone records' 118,784).
int smem_floor_for(int ctas_per_sm) {
  const int over = kSmSharedBytes / (ctas_per_sm + 1) - kReservedPerCta + 1;
  return (over + 4095) / 4096 * 4096;
}

// The launch configuration of a rung's kernel (both variants: same grid, block and shared memory); returns the
// dynamic shared memory to launch with.
template <typename P, typename Kernel>
int prepare(Kernel k) {
  const int smem = std::max(static_cast<int>(P::smem_bytes()), g_smem_floor);
  if (smem > 48 * 1024) GPU_CHECK(gpuFuncSetAttribute(k, gpuFuncAttributeMaxDynamicSharedMemorySize, smem));
#if !defined(__HIPCC__)
  // N CTAs of the floor must fit: the carveout at its largest (the driver may pick less shared memory otherwise)
  if (g_smem_floor > 0) GPU_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 100));
#endif
  return smem;
}

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
void launch_rung(int n, const float* A, const float* B, float* C) {
  using P = gmsv::SgemmLadder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  auto k = gmsv::sgemm_ladder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  const int smem = prepare<P>(k);
  k<<<dim3(n / BM, n / BN), P::kThreads, smem>>>(n, n, n, A, B, C);
  GPU_CHECK_LAUNCH();
}

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
void launch_rung_stamped(int n, const float* A, const float* B, float* C, unsigned long long* stamps) {
  using P = gmsv::SgemmLadder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  auto k = gmsv::ladder_cta_stamps<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  const int smem = prepare<P>(k);
  k<<<dim3(n / BM, n / BN), P::kThreads, smem>>>(n, n, n, A, B, C, stamps);
  GPU_CHECK_LAUNCH();
}

template <int BM, int BN, int BK, int TCM, int TCN, int VEC, bool ASYNC, int STAGES, int PAD, int RV>
int launch_rung_phases(int n, const float* A, const float* B, float* C, unsigned* stamps, int* plain_per_sm) {
  using P = gmsv::SgemmLadder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  auto k = gmsv::ladder_phase_stamps<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  const int smem = prepare<P>(k);
  k<<<dim3(n / BM, n / BN), P::kThreads, smem>>>(n, n, n, A, B, C, stamps);
  GPU_CHECK_LAUNCH();
  int per_sm = 0;
  GPU_CHECK(gpuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, P::kThreads, smem));
  auto plain = gmsv::sgemm_ladder<BM, BN, BK, TCM, TCN, VEC, ASYNC, STAGES, PAD, RV>;
  GPU_CHECK(gpuOccupancyMaxActiveBlocksPerMultiprocessor(plain_per_sm, plain, P::kThreads, prepare<P>(plain)));
  return per_sm;
}

#define RUNG(name, BM, BN, BK, TCM, TCN, VEC, ASYNC, ST, PAD, RV)                                                      \
  Rung {                                                                                                               \
    name,                                                                                                              \
        "\"tile\": [" #BM ", " #BN ", " #BK "], \"threads\": [" #TCM ", " #TCN "], \"copy_vec\": " #VEC                \
        ", \"async\": " #ASYNC ", \"stages\": " #ST ", \"pad\": " #PAD ", \"read_vec\": " #RV,                          \
        launch_rung<BM, BN, BK, TCM, TCN, VEC, ASYNC, ST, PAD, RV>,                                                    \
        launch_rung_stamped<BM, BN, BK, TCM, TCN, VEC, ASYNC, ST, PAD, RV>,                                            \
        launch_rung_phases<BM, BN, BK, TCM, TCN, VEC, ASYNC, ST, PAD, RV>, BM, BN, BK, TCM * TCN                       \
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

float median_ms(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The plain kernel and a stamped one timed alternately, after one warm-up run of each: medians of 7 (the stamps' cost
// on record). `stamped()` launches the stamped kernel.
template <typename Stamped>
std::pair<float, float> plain_and_stamped_ms(const Rung& r, int n, const float* A, const float* B, float* C, Stamped stamped) {
  gpuEvent_t e0, e1;
  GPU_CHECK(gpuEventCreate(&e0));
  GPU_CHECK(gpuEventCreate(&e1));
  auto timed = [&](bool with_stamps) {
    GPU_CHECK(gpuEventRecord(e0));
    if (with_stamps) stamped();
    else r.launch(n, A, B, C);
    GPU_CHECK(gpuEventRecord(e1));
    GPU_CHECK(gpuEventSynchronize(e1));
    float t = 0;
    GPU_CHECK(gpuEventElapsedTime(&t, e0, e1));
    return t;
  };
  timed(false), timed(true);  // warm-up
  std::vector<float> plain, with;
  for (int rep = 0; rep < 7; ++rep) plain.push_back(timed(false)), with.push_back(timed(true));
  GPU_CHECK(gpuEventDestroy(e0));
  GPU_CHECK(gpuEventDestroy(e1));
  return {median_ms(plain), median_ms(with)};
}

// --stamps: the plain and the stamped kernel timed alternately (the stamps' cost on record), then three
// stamped runs written out. Returns false if a run left a CTA unstamped.
bool stamp_rung(const Rung& r, int n, const float* A, const float* B, float* C, const std::string& dir) {
  const size_t ctas = static_cast<size_t>(n / r.bm) * (n / r.bn);
  unsigned long long* stamps;
  GPU_CHECK(gpuMalloc(&stamps, ctas * 5 * sizeof(unsigned long long)));
  const auto [plain_ms, stamped_ms] = plain_and_stamped_ms(r, n, A, B, C, [&] { r.launch_stamped(n, A, B, C, stamps); });
  bool ok = true;
  std::vector<unsigned long long> h(ctas * 5);
  for (int run = 0; run < 3; ++run) {
    GPU_CHECK(gpuMemset(stamps, 0, ctas * 5 * sizeof(unsigned long long)));
    r.launch_stamped(n, A, B, C, stamps);
    GPU_CHECK(gpuDeviceSynchronize());
    GPU_CHECK(gpuMemcpy(h.data(), stamps, h.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
    const std::string path = dir + "/seed002_" + r.name + "_run" + std::to_string(run) + ".csv";
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path);
    f << "cta,sm,gt_start_ns,gt_end_ns,clk_start,clk_end\n";
    for (size_t c = 0; c < ctas; ++c) {
      const unsigned long long* s = &h[5 * c];
      ok &= s[1] != 0;
      f << c << ',' << s[4] << ',' << s[0] << ',' << s[1] << ',' << s[2] << ',' << s[3] << '\n';
    }
  }
  std::printf("{\"rung\": \"%s\", \"size\": %d, \"ctas\": %zu, \"stamps\": \"%s\", \"time_us_median_plain\": %.2f, "
              "\"time_us_median_stamped\": %.2f, \"dynamic_smem_floor\": %d}\n",
              r.name, n, ctas, ok ? "ok" : "MISSING", plain_ms * 1e3, stamped_ms * 1e3, g_smem_floor);
  std::fflush(stdout);
  GPU_CHECK(gpuFree(stamps));
  return ok;
}

// --phases: the plain and the loop-stamped kernel timed alternately (the stamps' cost on record), then one stamped
// run reduced to histograms: per warp and K tile (the first tile apart: its loads find a cold L2) the cycles from
// the previous tile's last barrier to the copies' end ("load"), at the barrier behind them ("barrier") and from it to
// the next tile's start ("compute": the compute and the barrier behind it), in 16-cycle bins: the first wave's CTAs
// (launch order < SMs x occupancy) by their rank on their SM (0 the first to enter the loop), the later ones together.
// Writes DIR/seed002_<rung>_phases.csv and DIR/seed002_<rung>_phase_by_tile.csv, prints a summary line. Returns
// false if a warp left a stamp unwritten or the stamps cost the kernel occupancy.
bool phase_rung(const Rung& r, int n, const float* A, const float* B, float* C, const std::string& dir) {
  const size_t ctas = static_cast<size_t>(n / r.bm) * (n / r.bn), warps = r.threads / 32, kt_count = n / r.bk;
  const size_t per_warp = gmsv::loop_stamps_per_warp(kt_count), count = ctas * warps * per_warp;
  unsigned* stamps;
  GPU_CHECK(gpuMalloc(&stamps, count * sizeof(unsigned)));
  int per_sm = 0, plain_per_sm = 0;
  const auto [plain_ms, stamped_ms] =
      plain_and_stamped_ms(r, n, A, B, C, [&] { per_sm = r.launch_phases(n, A, B, C, stamps, &plain_per_sm); });
  std::vector<unsigned> h(count);
  GPU_CHECK(gpuMemset(stamps, 0, count * sizeof(unsigned)));
  r.launch_phases(n, A, B, C, stamps, &plain_per_sm);
  GPU_CHECK(gpuDeviceSynchronize());
  GPU_CHECK(gpuMemcpy(h.data(), stamps, count * sizeof(unsigned), gpuMemcpyDeviceToHost));
  constexpr int kBin = 16, kBins = 4096;  // the last bin holds everything from 65,520 cycles on
  constexpr const char* kPhase[3] = {"load", "barrier", "compute"};
  const size_t first_wave = std::min(static_cast<size_t>(gpu_sm_count()) * per_sm, ctas);
  // The first wave's CTAs ranked on their SM by their warps' earliest entry (clocks of one SM compare; as offsets
  // from the SM's first entry, since the 32-bit clock may wrap between two).
  std::vector<int> rank(first_wave, 0);
  {
    std::vector<std::pair<unsigned, unsigned>> entry(first_wave);  // (SM, earliest entry) per CTA
    for (size_t c = 0; c < first_wave; ++c) {
      entry[c] = {h[c * warps * per_warp], h[c * warps * per_warp + 1]};
      for (size_t w = 1; w < warps; ++w)
        entry[c].second = std::min(entry[c].second, h[(c * warps + w) * per_warp + 1]);
    }
    std::vector<size_t> order(first_wave);
    for (size_t c = 0; c < first_wave; ++c) order[c] = c;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      if (entry[a].first != entry[b].first) return entry[a].first < entry[b].first;
      return static_cast<int>(entry[a].second - entry[b].second) < 0;
    });
    for (size_t i = 1; i < first_wave; ++i)
      if (entry[order[i]].first == entry[order[i - 1]].first) rank[order[i]] = rank[order[i - 1]] + 1;
  }
  const int classes = per_sm + 1;  // ranks 0 .. per_sm - 1 of the first wave, then the later waves
  std::vector<unsigned long long> hist(classes * 3 * kBins, 0);
  std::vector<std::vector<unsigned>> all(3);
  std::vector<double> by_tile(3 * kt_count, 0.0), tile0_load;
  size_t unwritten = 0;
  for (size_t w = 0; w < ctas * warps; ++w) {
    const unsigned* s = &h[w * per_warp];
    const size_t cta = w / warps;
    const int cls = cta < first_wave ? std::min(rank[cta], per_sm - 1) : per_sm;
    unwritten += std::count(s + 1, s + per_warp, 0u);  // SM 0 is a written 0
    unsigned prev = s[1];
    for (size_t kt = 0; kt < kt_count; ++kt) {
      const unsigned* t = s + 2 + 3 * kt;
      const unsigned d[3] = {t[0] - prev, t[1] - t[0], t[2] - t[1]};  // modulo 2^32, as the clock wraps
      prev = t[2];
      for (int p = 0; p < 3; ++p) by_tile[3 * kt + p] += d[p];
      if (kt == 0) {
        tile0_load.push_back(d[0]);
        continue;
      }
      for (int p = 0; p < 3; ++p) {
        ++hist[(cls * 3 + p) * kBins + std::min<unsigned>(d[p] / kBin, kBins - 1)];
        all[p].push_back(d[p]);
      }
    }
  }
  const std::string base = dir + "/seed002_" + r.name;
  std::ofstream f(base + "_phases.csv"), g(base + "_phase_by_tile.csv");
  if (!f || !g) throw std::runtime_error("cannot write " + base + "_phase*.csv");
  f << "ctas,phase,bin_start_cycles,warp_tiles\n";  // ctas: "first_rank<R>" or "later"
  for (int cls = 0; cls < classes; ++cls)
    for (int p = 0; p < 3; ++p)
      for (int b = 0; b < kBins; ++b)
        if (unsigned long long c = hist[(cls * 3 + p) * kBins + b])
          f << (cls < per_sm ? "first_rank" + std::to_string(cls) : std::string("later")) << ',' << kPhase[p] << ','
            << b * kBin << ',' << c << '\n';
  g << "k_tile,load_mean_cycles,barrier_mean_cycles,compute_mean_cycles\n";
  for (size_t kt = 0; kt < kt_count; ++kt) {
    g << kt;
    for (int p = 0; p < 3; ++p) g << ',' << by_tile[3 * kt + p] / static_cast<double>(ctas * warps);
    g << '\n';
  }
  std::string summary;
  for (int p = 0; p < 3; ++p) {
    std::vector<unsigned>& v = all[p];
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (unsigned x : v) sum += x;
    auto q = [&](double f) { return v.empty() ? 0u : v[static_cast<size_t>(f * (v.size() - 1))]; };
    char buf[256];
    std::snprintf(buf, sizeof buf, ", \"%s\": {\"mean\": %.1f, \"p10\": %u, \"p50\": %u, \"p90\": %u, \"p99\": %u}", kPhase[p],
                  v.empty() ? 0.0 : sum / v.size(), q(0.1), q(0.5), q(0.9), q(0.99));
    summary += buf;
  }
  double t0 = 0;
  for (double x : tile0_load) t0 += x;
  std::printf("{\"rung\": \"%s\", \"size\": %d, \"ctas\": %zu, \"warps_per_cta\": %zu, \"ctas_per_sm\": %d, \"ctas_per_sm_plain\": %d, "
              "\"first_wave_ctas\": %zu, \"unwritten_stamps\": %zu, \"time_us_median_plain\": %.2f, "
              "\"time_us_median_stamped\": %.2f, \"load_k_tile0_mean\": %.1f%s}\n",
              r.name, n, ctas, warps, per_sm, plain_per_sm, first_wave, unwritten, plain_ms * 1e3,
              stamped_ms * 1e3, tile0_load.empty() ? 0.0 : t0 / tile0_load.size(), summary.c_str());
  std::fflush(stdout);
  GPU_CHECK(gpuFree(stamps));
  // a stamp may read 0 by chance; a missing row would leave 1 + 3 K tiles
  return unwritten * 1000 < count && per_sm == plain_per_sm;
}

}  // namespace

int main(int argc, char** argv) {
  int n = 4096;
  bool profile = false;
  std::string only;
  int rounds = 1;
  std::string stamps_dir, phases_dir;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--size") && i + 1 < argc) n = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--profile")) profile = true;
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--stamps") && i + 1 < argc) stamps_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--phases") && i + 1 < argc) phases_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--alone")) g_smem_floor = smem_floor_for(1);
    else if (!std::strcmp(argv[i], "--ctas-per-sm") && i + 1 < argc) {
      const int ctas = std::atoi(argv[++i]);
      if (ctas < 1 || ctas > 7) {  // 8 CTAs of the floor would not fit 228 KiB
        std::fprintf(stderr, "gms-ladder: --ctas-per-sm takes 1 .. 7\n");
        return 2;
      }
      g_smem_floor = smem_floor_for(ctas);
    }
    else {
      std::fprintf(stderr, "usage: gms-ladder [--size N] [--profile] [--only NAME] [--rounds N] [--stamps DIR | --phases DIR] "
                           "[--alone | --ctas-per-sm N]\n");
      return 2;
    }
  }
  if (n % 128 != 0 || n <= 0) {
    std::fprintf(stderr, "gms-ladder: --size must be a positive multiple of 128\n");
    return 2;
  }
#if defined(__HIPCC__)
  if (!stamps_dir.empty() || !phases_dir.empty()) {
    std::fprintf(stderr, "gms-ladder: --stamps and --phases need %%globaltimer, %%smid and %%clock (CUDA only)\n");
    return 2;
  }
#endif
  if ((!stamps_dir.empty() || !phases_dir.empty()) && (profile || rounds > 1 || (!stamps_dir.empty() && !phases_dir.empty()))) {
    std::fprintf(stderr, "gms-ladder: --stamps and --phases are runs of their own (not together, with --profile or --rounds)\n");
    return 2;
  }
  if (g_smem_floor > 0 && stamps_dir.empty() && phases_dir.empty() && !profile) {
    std::fprintf(stderr, "gms-ladder: --alone and --ctas-per-sm go with --stamps, --phases or --profile\n");
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
      if (!stamps_dir.empty()) {
        failed += !stamp_rung(r, n, A, B, C, stamps_dir);
        continue;
      }
      if (!phases_dir.empty()) {
        failed += !phase_rung(r, n, A, B, C, phases_dir);
        continue;
      }
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

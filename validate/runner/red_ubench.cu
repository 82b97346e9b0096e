// gms-red-ubench: what a reduction atomic (RED) costs the L2, alone and beside a DRAM read stream
// (issue 11). gms-gemv-parts-ubench shows seed 001's GEMV losing 15-17 % of its time on the H200 (2-8 %
// on the H100) to its atomicAdds alone: the same kernel with plain stores instead runs at 92-94 % of
// the DRAM's peak. Every row here launches `ctas` CTAs of 8 warps; `red_warps` of them issue the GEMV's
// pattern (per instruction: lane l adds to y[block * 256 + 8 l + e], e = 0..7 in turn - one element per
// sector, 32 sectors over 8 lines) over `red_blocks` column blocks of y, the others stream a 1 GiB
// buffer from DRAM (ld.global.cg, 512 B per warp instruction, each line read once).
//   op        red (red.global.add.f32), store (st.global.f32, the same addresses), none
//   y_blocks  how many 1 KB column blocks the adds spread over (112 = the GEMV's 28,672 outputs: each
//             address taken by many CTAs at once; 16384 = 16 MiB, still L2-resident, little reuse)
// One JSON line per row: kernel time (median of 5 after a warm-up; `gms-red-ubench 1`: one launch per
// row, for a profiler), element operations, reads' bytes, and the reading warps' own span (first start
// to last end, %globaltimer). `gms-red-ubench REPS hot`: the same rows over 1, 8 and 112 blocks instead
// (every warp of the GPU adding to the same 8 lines, 64 lines, the GEMV's 896): what adds to lines that
// other adds are still in flight to cost, alone and beside the reads; and rows of one adding warp per CTA
// (8 M adds to 8 or 64 lines: a backlog of turns ~10x the reads' time) beside seven reading ones, and
// those seven alone: do reads wait while the slices hold reductions waiting for their line's turn?
// `gms-red-ubench REPS queue`: one warp's load behind n of its own reductions to one line (red_queue);
// `gms-red-ubench REPS backlog`: another SM's loads while 1-131 SMs pile reductions on one line;
// `gms-red-ubench REPS burst`: how long warps take to hand over the GEMV's reductions, 1-32 a SM at once.
// Compare a row with reads and adds against the rows with one of them: time = max of the two means the
// L2 serves them side by side; time = the sum means they share one resource.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "../include/event_timer.h"
#include "../include/sm_span.h"

namespace {

constexpr int kWarps = 8;
constexpr size_t kReadBytes = 1ull << 30;

__device__ __forceinline__ void red_add(float* p, float v) {
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ void store(float* p, float v) {
  asm volatile("st.global.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}
__device__ __forceinline__ int4 load_cg(const int4* p) {
  int4 v;
  asm volatile("ld.global.cg.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// op: 0 none, 1 red, 2 store. Warps [0, red_warps) add, the others read `read_lines_per_warp` lines.
// Each reading warp stores its first and last %globaltimer in spans[2 r], spans[2 r + 1] (r: its index
// among the grid's reading warps). by_sm: the CTAs on even SMs add with all their warps and those on odd
// SMs read with all theirs (r = the warp's index in the grid), so that no SM holds both.
__global__ void __launch_bounds__(kWarps * 32) red_and_read(float* y, unsigned y_blocks, int red_warps, int red_iters, int op,
                                                           const int4* buf, long long read_lines_per_warp, int* sink,
                                                           unsigned long long* spans, int by_sm) {
  const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
  if (by_sm) red_warps = smid() % 2 == 0 ? kWarps : 0;
  if (warp < red_warps) {
    if (op == 0) return;
    for (int i = 0; i < red_iters; ++i) {
      // Consecutive warps of the grid take consecutive column blocks, as the GEMV's CTAs do.
      const unsigned long long id = (static_cast<unsigned long long>(blockIdx.x) * red_warps + warp) * red_iters + i;
      float* p = y + (id % y_blocks) * 256 + lane * 8;
      for (int e = 0; e < 8; ++e) {
        if (op == 1)
          red_add(p + e, 1.0f);
        else
          store(p + e, 1.0f);
      }
    }
    return;
  }
  const int read_warps = by_sm ? kWarps : kWarps - red_warps;
  const long long reader = static_cast<long long>(blockIdx.x) * read_warps + (warp - red_warps);
  const long long first = reader * read_lines_per_warp;
  const unsigned long long t0 = globaltimer();
  int acc = 0;
  for (long long l = 0; l < read_lines_per_warp; l += 4) {  // 4 loads in flight per warp, 2 KB
    int4 v[4];
    for (int u = 0; u < 4; ++u) v[u] = load_cg(buf + (first + l + u) * 32 + lane);
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == 0x12345679) sink[threadIdx.x] = acc;
  if (lane == 0 && read_lines_per_warp > 0) {
    spans[2 * reader] = t0;
    spans[2 * reader + 1] = globaltimer();
  }
}

// `queue` mode: one warp on one SM issues n reductions to one line (lane l adds to y[l]: one request of
// 4 sectors each), then one load of a line it has read before (an L2 hit); out[0] = cycles the n
// reductions took to issue, out[1] = cycles from the load's issue to its data. A load that waits behind
// the reductions queued in the SM's way to L2 waits for their turns (11 ns each): how many it waits
// behind is the depth of that queue.
__global__ void red_queue(float* y, int n, const int4* warm, unsigned long long* out, int* sink) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  int4 v = load_cg(warm + lane);  // the line the timed load reads again: an L2 hit then
  int acc = v.x;
  const unsigned long long c0 = clock64();
  for (int i = 0; i < n; ++i) red_add(y + lane, 1.0f);
  const unsigned long long c1 = clock64();
  v = load_cg(warm + lane);
  acc ^= v.x;
  const unsigned long long c2 = clock64();
  if (acc == 0x12345679) sink[lane] = acc;
  if (lane == 0) {
    out[0] = c1 - c0;
    out[1] = c2 - c1;
  }
}

// `backlog` mode: CTAs 0 .. adders-1 (one warp each, one per SM) issue n reductions each to one line, as
// red_queue does; the last CTA, on an SM of its own, reads 64 lines 64 KB apart (and so over the slices)
// once, waits 3 us into the adders' bursts, then times each of the 64 loads again and one load of the
// line the adders add to: out[0..63] the 64 loads' cycles, out[64] the hot line's.
__global__ void red_backlog(float* y, int n, int adders, const int4* warm, unsigned long long* out, int* sink) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  if (static_cast<int>(blockIdx.x) < adders) {
    for (int i = 0; i < n; ++i) red_add(y + lane, 1.0f);
    return;
  }
  int acc = 0;
  for (int i = 0; i < 64; ++i) acc ^= load_cg(warm + 4096 * i + lane).x;  // L2 hits from now on
  const unsigned long long start = globaltimer();
  while (globaltimer() < start + 3000) {
  }
  for (int i = 0; i < 64; ++i) {
    const unsigned long long c0 = clock64();
    acc ^= load_cg(warm + 4096 * i + lane).x;
    const unsigned long long c1 = clock64();
    if (lane == 0) out[i] = c1 - c0;
  }
  const unsigned long long c0 = clock64();
  acc ^= load_cg(reinterpret_cast<const int4*>(y) + lane % 8).x;
  const unsigned long long c1 = clock64();
  if (lane == 0) out[64] = c1 - c0;
  if (acc == 0x12345679) sink[lane] = acc;
}

// `burst` mode: every warp of the grid (one-warp CTAs) issues `n` reduction instructions of the GEMV's
// pattern to a column block of its own among 112 (lane l adds to y[block * 256 + 8 l + e], e = i % 8: one
// instruction is 8 requests of 4 sectors), all at once from the launch, and times their issue (clock64):
// out[2 w] = the warp's issue cycles, out[2 w + 1] = its %globaltimer at the start (not read by run_burst
// yet; kept so that the kernel stays the one validate/results/h200/red_burst measured). A GEMV program hands
// over 8 such instructions at its end; how long that takes against how many the GPU hands over at once is
// the depth of what holds them.
// `blocks` and `op` (1 red, 2 store) vary it: the same over 16,384 blocks (16 MiB), or plain stores.
__global__ void red_burst(float* y, int n, unsigned long long* out, unsigned blocks, int op) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  float* block = y + static_cast<size_t>(blockIdx.x % blocks) * 256;
  const unsigned long long g = globaltimer();
  const unsigned long long c0 = clock64();
  if (op == 2)
    for (int i = 0; i < n; ++i) store(block + 8 * lane + (i % 8), 1.0f);
  else
    for (int i = 0; i < n; ++i) red_add(block + 8 * lane + (i % 8), 1.0f);
  const unsigned long long c1 = clock64();
  if (lane == 0) {
    out[2 * blockIdx.x] = c1 - c0;
    out[2 * blockIdx.x + 1] = g;
  }
}

// The one-line modes' buffers: the added line, `warm_bytes` of lines to load (set to 1s), a sink, `outs`
// results.
struct OneLine {
  float* y = nullptr;
  int4* warm = nullptr;
  int* sink = nullptr;
  unsigned long long* out = nullptr;
  OneLine(size_t warm_bytes, size_t outs) {
    GPU_CHECK(gpuMalloc(&y, 4096));
    GPU_CHECK(gpuMalloc(&warm, warm_bytes));
    GPU_CHECK(gpuMalloc(&sink, 4096));
    GPU_CHECK(gpuMalloc(&out, outs * sizeof(unsigned long long)));
    GPU_CHECK(gpuMemset(warm, 1, warm_bytes));
  }
  ~OneLine() {
    (void)gpuFree(y);
    (void)gpuFree(warm);
    (void)gpuFree(sink);
    (void)gpuFree(out);
  }
  OneLine(const OneLine&) = delete;
  OneLine& operator=(const OneLine&) = delete;
};

// `backlog`: loads of another SM while 0-131 SMs pile reductions on one line (red_backlog).
int run_backlog(const gpuDeviceProp& prop, int reps) {
  OneLine b(64 << 16, 65);
  const int max_adders = prop.multiProcessorCount - 1;
  for (int adders : {0, 1, 4, 16, 64, max_adders}) {
    std::vector<unsigned long long> spread, hot;
    for (int rep = 0; rep < reps + 1; ++rep) {
      red_backlog<<<adders + 1, 32>>>(b.y, 1024, adders, b.warm, b.out, b.sink);
      GPU_CHECK_LAUNCH();
      unsigned long long h[65];
      GPU_CHECK(gpuMemcpy(h, b.out, sizeof(h), gpuMemcpyDeviceToHost));
      if (rep == 0) continue;
      spread.insert(spread.end(), h, h + 64);
      hot.push_back(h[64]);
    }
    std::sort(spread.begin(), spread.end());
    std::sort(hot.begin(), hot.end());
    std::printf("{\"gpu\": \"%s\", \"mode\": \"backlog\", \"adders\": %d, \"reductions_each\": 1024, "
                "\"spread_load_cycles_median\": %llu, \"spread_load_cycles_p90\": %llu, \"spread_load_cycles_max\": %llu, "
                "\"hot_line_load_cycles_median\": %llu, \"reps\": %d}\n",
                prop.name, adders, spread[spread.size() / 2], spread[spread.size() * 9 / 10], spread.back(),
                hot[hot.size() / 2], reps);
    std::fflush(stdout);
  }
  return 0;
}

// `burst`: the hand-over of n reduction instructions per warp, 1-32 one-warp CTAs per SM all at once
// (red_burst): per row the median / p90 / max issue cycles over the warps of `reps` launches and the
// kernel's time.
int run_burst(const gpuDeviceProp& prop, int reps) {
  const int sms = prop.multiProcessorCount;
  float* y = nullptr;
  unsigned long long* out = nullptr;
  constexpr size_t kMaxBlocks = 16384;
  GPU_CHECK(gpuMalloc(&y, kMaxBlocks * 256 * sizeof(float)));
  GPU_CHECK(gpuMalloc(&out, 2ull * 32 * sms * sizeof(unsigned long long)));
  GPU_CHECK(gpuMemset(y, 0, kMaxBlocks * 256 * sizeof(float)));
  gmsv::Timer timer;
  struct Row {
    const char* op;
    int op_code;
    unsigned blocks;
    int n;
  };
  // The GEMV's 896 lines with 8 and 64 instructions a warp; then 8 over 16 MiB (no line twice in a
  // burst), and 8 as plain stores to the GEMV's lines.
  for (const Row& row : {Row{"red", 1, 112, 8}, Row{"red", 1, 112, 64}, Row{"red", 1, 16384, 8}, Row{"store", 2, 112, 8}})
    for (int per_sm : {1, 2, 4, 8, 16, 32}) {
      const int n = row.n;
      const int ctas = per_sm * sms;
      std::vector<unsigned long long> cycles, h(2ull * ctas);
      std::vector<double> ns;
      for (int rep = 0; rep < reps + 1; ++rep) {
        const double t = timer.ns([&] {
          red_burst<<<ctas, 32>>>(y, n, out, row.blocks, row.op_code);
          GPU_CHECK_LAUNCH();
        });
        if (rep == 0) continue;  // a warm-up
        ns.push_back(t);
        GPU_CHECK(gpuMemcpy(h.data(), out, h.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
        for (int w = 0; w < ctas; ++w) cycles.push_back(h[2 * w]);
      }
      std::sort(cycles.begin(), cycles.end());
      std::sort(ns.begin(), ns.end());
      std::printf("{\"gpu\": \"%s\", \"mode\": \"burst\", \"op\": \"%s\", \"y_blocks\": %u, \"instructions_per_warp\": %d, \"warps_per_sm\": %d, "
                  "\"warps\": %d, \"requests\": %lld, \"issue_cycles_median\": %llu, \"issue_cycles_p90\": %llu, "
                  "\"issue_cycles_max\": %llu, \"kernel_ns_median\": %.0f, \"reps\": %d}\n",
                  prop.name, row.op, row.blocks, n, per_sm, ctas, 8ll * n * ctas, cycles[cycles.size() / 2], cycles[cycles.size() * 9 / 10],
                  cycles.back(), ns[ns.size() / 2], reps);
      std::fflush(stdout);
    }
  (void)gpuFree(y);
  (void)gpuFree(out);
  return 0;
}

// `queue`: one warp's load behind n of its own reductions to one line (red_queue).
int run_queue(const gpuDeviceProp& prop, int reps) {
  OneLine b(1 << 20, 2);
  for (int n : {0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024}) {
    std::vector<unsigned long long> issue, wait;
    for (int rep = 0; rep < reps + 1; ++rep) {
      red_queue<<<1, 32>>>(b.y, n, b.warm + 4096 * (1 + rep % 8), b.out, b.sink);  // 64 KB apart: another line each rep
      GPU_CHECK_LAUNCH();
      unsigned long long h[2];
      GPU_CHECK(gpuMemcpy(h, b.out, sizeof(h), gpuMemcpyDeviceToHost));
      if (rep > 0) issue.push_back(h[0]), wait.push_back(h[1]);
    }
    std::sort(issue.begin(), issue.end());
    std::sort(wait.begin(), wait.end());
    std::printf("{\"gpu\": \"%s\", \"mode\": \"queue\", \"reductions\": %d, \"issue_cycles\": %llu, \"load_cycles\": %llu, "
                "\"load_cycles_min\": %llu, \"reps\": %d}\n",
                prop.name, n, issue[issue.size() / 2], wait[wait.size() / 2], wait.front(), reps);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;  // 1: one untimed-warm-up-free launch per row (a profiler)
  const bool hot = argc > 2 && std::string(argv[2]) == "hot";
  gpuDeviceProp prop{};
  GPU_CHECK(gpuGetDeviceProperties(&prop, 0));
  if (argc > 2 && std::string(argv[2]) == "backlog") return run_backlog(prop, reps);
  if (argc > 2 && std::string(argv[2]) == "queue") return run_queue(prop, reps);
  if (argc > 2 && std::string(argv[2]) == "burst") return run_burst(prop, reps);
  const int ctas = prop.multiProcessorCount * 4;
  int4* buf = nullptr;
  float* y = nullptr;
  int* sink = nullptr;
  const unsigned max_blocks = 16384;  // 16 MiB of y
  GPU_CHECK(gpuMalloc(&buf, kReadBytes));
  GPU_CHECK(gpuMalloc(&y, static_cast<size_t>(max_blocks) * 256 * sizeof(float)));
  GPU_CHECK(gpuMalloc(&sink, 4096));
  GPU_CHECK(gpuMemset(buf, 1, kReadBytes));
  GPU_CHECK(gpuMemset(y, 0, static_cast<size_t>(max_blocks) * 256 * sizeof(float)));
  gmsv::Timer timer;
  struct Row {
    const char* op;
    int op_code;
    unsigned y_blocks;
    int red_warps;  // 0: reads only; kWarps: adds only
    bool reads;
    long long adds = 64ll << 20;  // element operations, the same for every row but the one-adder rows
    bool by_sm = false;           // adding and reading CTAs on different SMs (even / odd)
  };
  std::vector<Row> rows;
  const std::vector<unsigned> spreads = hot ? std::vector<unsigned>{1u, 8u, 112u} : std::vector<unsigned>{112u, max_blocks};
  for (unsigned blocks : spreads)
    for (int opc : {1, 2}) {
      rows.push_back({opc == 1 ? "red" : "store", opc, blocks, kWarps, false});  // adds alone, every warp
      rows.push_back({opc == 1 ? "red" : "store", opc, blocks, 4, false});       // adds alone, half the warps
      rows.push_back({opc == 1 ? "red" : "store", opc, blocks, 4, true});        // half add, half read
    }
  if (hot)
    for (unsigned blocks : {1u, 8u}) {
      rows.push_back({"red", 1, blocks, 1, true, 8ll << 20});  // one warp per CTA adds, seven read
      rows.push_back({"none", 0, blocks, 1, true, 0});         // the seven alone
    }
  if (hot)
    for (int opc : {1, 0}) rows.push_back({opc ? "red" : "none", opc, 1, 0, true, 16ll << 20, true});  // SMs apart
  rows.push_back({"none", 0, 112, 4, true});  // half the warps read, the rest idle
  rows.push_back({"none", 0, 112, 0, true});  // every warp reads
  // Each row's adds (r.adds, 64 M for all but the one-adder rows: sized like one read of the buffer).
  unsigned long long* spans = nullptr;
  const size_t max_readers = static_cast<size_t>(ctas) * kWarps;
  GPU_CHECK(gpuMalloc(&spans, max_readers * 2 * sizeof(unsigned long long)));
  std::vector<unsigned long long> host_spans(max_readers * 2);
  for (const Row& r : rows) {
    // by_sm: about half the CTAs add (all 8 warps) and half read (all 8, a warp's share as if all read).
    const int add_warps = r.by_sm ? kWarps : r.red_warps;
    const int red_iters = add_warps > 0 ? static_cast<int>(r.adds / (256ll * ctas * add_warps) * (r.by_sm ? 2 : 1)) : 0;
    const int read_warps = r.by_sm ? kWarps : r.reads ? kWarps - r.red_warps : 0;
    const long long lines_per_warp = read_warps > 0 ? static_cast<long long>(kReadBytes / 512) / (static_cast<long long>(ctas) * read_warps) / 4 * 4 : 0;
    std::vector<double> ms;
    for (int rep = reps > 1 ? -1 : 0; rep < reps; ++rep) {
      GPU_CHECK(gpuMemset(spans, 0, max_readers * 2 * sizeof(unsigned long long)));
      const double ns = timer.ns([&] {
        red_and_read<<<ctas, kWarps * 32>>>(y, r.y_blocks, r.reads ? r.red_warps : add_warps, red_iters, r.op_code, buf,
                                            lines_per_warp, sink, spans, r.by_sm ? 1 : 0);
        GPU_CHECK_LAUNCH();
      });
      if (rep >= 0) ms.push_back(ns * 1e-6);
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    double read_span_ms = 0;  // the last launch's reading warps, first start to last end
    if (read_warps > 0) {
      const size_t readers = static_cast<size_t>(ctas) * read_warps;
      GPU_CHECK(gpuMemcpy(host_spans.data(), spans, readers * 2 * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
      unsigned long long lo = ~0ull, hi = 0;
      for (size_t i = 0; i < readers; ++i)
        if (host_spans[2 * i] != 0) lo = std::min(lo, host_spans[2 * i]), hi = std::max(hi, host_spans[2 * i + 1]);
      read_span_ms = hi > lo ? static_cast<double>(hi - lo) * 1e-6 : 0;
    }
    const double half = r.by_sm ? 0.5 : 1.0;  // SMs apart: about half the CTAs add, half read
    const double adds = half * static_cast<double>(red_iters) * 256.0 * ctas * add_warps * (r.op_code ? 1 : 0);
    const double read_bytes = half * static_cast<double>(lines_per_warp) * 512.0 * ctas * read_warps;
    std::printf(
        "{\"gpu\": \"%s\", \"op\": \"%s\", \"y_blocks\": %u, \"add_warps\": %d, \"read_warps\": %d, \"ctas\": %d, "
        "\"median_ms\": %.4f, \"element_ops\": %.0f, \"ops_per_ns\": %.2f, \"read_bytes\": %.0f, \"read_tbps\": %.3f, "
        "\"read_span_ms\": %.4f, \"sms_apart\": %d}\n",
        prop.name, r.op, r.y_blocks, r.op_code ? add_warps : 0, read_warps, ctas, med, adds, adds / (med * 1e6),
        read_bytes, read_bytes / (med * 1e9), read_span_ms, r.by_sm ? 1 : 0);
    std::fflush(stdout);
  }
  (void)gpuFree(spans);
  (void)gpuFree(buf);
  (void)gpuFree(y);
  (void)gpuFree(sink);
  return 0;
}

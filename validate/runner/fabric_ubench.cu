// gms-fabric-ubench: how much data crosses between the L2's two partitions per second, and what limits
// it (issue 11). Nsight's lts__t_sectors_srcunit_ltcfabric (sectors a slice takes from the other
// partition: far lines the near partition missed) stays under ~2.2 TB/s over all H200 records and
// ~1.8 TB/s over the H100's, whatever their DRAM rate: the H200's CUDA GEMV, which sends 57 % of its
// DRAM bytes over it, reads DRAM at 3.7 TB/s where Triton's GEMV (51 %) reads 4.4. Is the fabric a
// limit, and is it one pool or one link per direction?
// Method: one CTA per SM (a shared-memory request above half an SM's), 1,024 threads, each SM reading
// its own lines of a 2.1 GB buffer that DRAM holds once with 16-byte ld.global.cg, one or four loads in
// flight per thread ("x1", "x4"); thread 0 stamps %globaltimer after a barrier at the start and the
// end. Which SM is near which partition is argv[1] (validate/scripts/partition_map.py's map from
// gms-partition-ubench, run in the same device call: the floor plan differs between chips).
//   1. Each line's home partition: chunk by chunk (16 MB), the SMs near partition 0 read the chunk (a
//      line homed in partition 1 now sits there and, as a copy, in partition 0), then the SMs near
//      partition 1 time one load of each line: a near hit (~290 cycles) is homed in partition 1, a far
//      hit (~470) in partition 0 (gms-partition-ubench's second step, line by line).
//   2. Streams, sets of SMs (the others' CTAs exit at once):
//      mixed:   each SM its own 16 MB window (half its lines far)
//      near:    each SM only lines homed in its own partition (nothing crosses)
//      far:     each SM only lines homed in the other partition (everything crosses)
//      on all SMs, on one partition's SMs (one direction), and on half of each partition's.
// One link per direction of capacity C lets far:all read 2C and far:p0 C; one pool of capacity C lets
// far:all read C. The device script also profiles every stream (ncu: DRAM bytes, far sectors,
// duration), so what crossed is counted, not assumed.
// `gms-fabric-ubench MAP stores` / `MAP reductions` (validate/scripts/device_fabric_stores.sh): after the
// classification, the near and far sets store whole lines / RED.ADD instead of loading, for the slices'
// crossbar-input cycles a far store or reduction costs (ncu's lts__xbar2lts).
// `gms-fabric-ubench MAP mix` (validate/scripts/device_fabric_mix.sh): far loads on some SMs beside far
// stores on others, at once - do read replies and write data going the same way share one link?
// `gms-fabric-ubench MAP halfstores` (the same script, `halfstores`): whole lines of half-written sectors
// (4 lanes a line, 16 bytes at the start of each sector, as the WMMA GEMM's fp16 epilogue leaves them),
// near against far - how many bytes of the link a half sector takes. Rates are of 128-byte lines walked.
// Output, JSON lines: the classification's latency histogram, then per set and repetition the SMs'
// bytes over the span from the first start to the last end (GB/s), per SM its own GB/s, and the first
// SM's clock while it read.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../include/gpu_port.h"
#include "../include/sm_span.h"
#include "../include/ubench_main.h"

namespace {

constexpr size_t kDramWindow = 16u << 20;  // bytes per SM
constexpr int kThreads = 1024;

// Walks `lines` (indices of 128-byte lines of `buf`) in the SM's window [start[sm], start[sm] + count[sm]):
// 8 lanes a line, 16 bytes each, kInFlight lines a thread group in flight (their indices loaded first),
// loading them (kLoad: their XOR into `sink`'s guard), storing whole sectors (kStore: `stores` mode, which
// slices' crossbar inputs a far store passes) or adding 4 bytes at each lane's 16 (kRed: `reductions`
// mode, the same for RED.ADD - two lanes' adds a sector, as the GEMV's partial sectors).
enum Walk : int { kLoad = 0, kStore = 1, kRed = 2, kHalfStore = 3, kHalfPair = 4 };
template <int kInFlight, int kWalk>
__device__ void walk_lines(int4* buf, const unsigned* lines, const unsigned* start, const unsigned* count,
                           unsigned long long* out, int* sink, int* pad, int passes = 1) {
  const unsigned sm = smid();
  const unsigned* l = lines + start[sm];
  const int n = static_cast<int>(count[sm]), sub = threadIdx.x & 7, per_pass = blockDim.x >> 3;
  __syncthreads();
  const unsigned long long t0 = globaltimer(), c0 = clock64();
  int acc = 0;
  const int4 w = make_int4(static_cast<int>(sm), threadIdx.x, 1, 2);
  for (int pass = 0; pass < passes; ++pass)
  for (int i = threadIdx.x >> 3; i < n; i += kInFlight * per_pass) {
    unsigned line[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) line[u] = i + u * per_pass < n ? l[i + u * per_pass] : l[i];
    // 16 bytes at `offset` (in 16-byte units) into each of the group's lines, past L1.
    auto store_at = [&](int offset) {
#pragma unroll
      for (int u = 0; u < kInFlight; ++u)
        asm volatile("st.global.cg.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(buf + static_cast<size_t>(line[u]) * 8 + offset),
                     "r"(w.x), "r"(w.y), "r"(w.z), "r"(w.w)
                     : "memory");
    };
    if constexpr (kWalk == kStore) {
      store_at(sub);
    } else if constexpr (kWalk == kHalfStore) {  // the first half of each sector: 4 lanes a line, 16 bytes each
      if ((sub & 1) == 0) store_at(sub);
    } else if constexpr (kWalk == kHalfPair) {  // both halves of each sector, in two instructions (the fp16 epilogue's)
      if ((sub & 1) == 0) store_at(sub), store_at(sub + 1);
    } else if constexpr (kWalk == kRed) {
#pragma unroll
      for (int u = 0; u < kInFlight; ++u)
        asm volatile("red.global.add.u32 [%0], %1;" ::"l"(reinterpret_cast<unsigned*>(buf + static_cast<size_t>(line[u]) * 8 + sub)),
                     "r"(w.y)
                     : "memory");
    } else {
      int4 v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u)
        asm volatile("ld.global.cg.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v[u].x), "=r"(v[u].y), "=r"(v[u].z), "=r"(v[u].w)
                     : "l"(buf + static_cast<size_t>(line[u]) * 8 + sub));
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  }
  if (acc == 0x12345678) pad[0] = acc, *sink = pad[0];
  end_span(out, sm, t0, c0);
}

template <int kInFlight, int kWalk>
__global__ void list_walk(int4* buf, const unsigned* lines, const unsigned* start, const unsigned* count,
                          const unsigned char* active, unsigned long long* out, int* sink) {
  extern __shared__ int pad[];
  if (!active[smid()]) return;
  walk_lines<kInFlight, kWalk>(buf, lines, start, count, out, sink, pad);
}

// Per SM, 0 idle or 1 + its Walk (`mix`: loads and stores at once on different SMs), `passes` times over its lines.
__global__ void mode_walk(int4* buf, const unsigned* lines, const unsigned* start, const unsigned* count,
                          const unsigned char* mode, int passes, unsigned long long* out, int* sink) {
  extern __shared__ int pad[];
  switch (mode[smid()]) {
    case 1 + kLoad: walk_lines<4, kLoad>(buf, lines, start, count, out, sink, pad, passes); break;
    case 1 + kStore: walk_lines<4, kStore>(buf, lines, start, count, out, sink, pad, passes); break;
    case 1 + kHalfStore: walk_lines<4, kHalfStore>(buf, lines, start, count, out, sink, pad, passes); break;
    case 1 + kHalfPair: walk_lines<4, kHalfPair>(buf, lines, start, count, out, sink, pad, passes); break;
    default: break;
  }
}

// Lines [first, first + n) of `buf`: the active SMs read them (`touch`), or time one load of each
// (lane 0 of each warp, its lines one after another, the next address waiting for this one's data;
// the store into shared memory needs the data, so the second clock read waits for it).
__global__ void home_probe(const unsigned* buf, size_t first, int n, const unsigned char* active, int active_count,
                           const int* rank, bool touch, unsigned short* cycles) {
  extern __shared__ unsigned sink[];
  const unsigned sm = smid();
  if (!active[sm]) return;
  const int warps = blockDim.x / 32, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int chains = active_count * warps, chain = rank[sm] * warps + warp;
  if (touch) {  // every lane, one word of a line each
    unsigned acc = 0;
    for (int i = chain * 32 + lane; i < n; i += chains * 32) {
      unsigned v;
      asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(buf + (first + i) * 32) : "memory");
      acc ^= v;
    }
    if (acc == 0x12345678) sink[0] = acc;
    return;
  }
  if (lane != 0) return;
  unsigned dep = 0;
  for (int i = chain; i < n; i += chains) {
    const unsigned* p = buf + (first + i) * 32 + dep;
    const unsigned long long t0 = clock64();
    unsigned v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    sink[warp] = v;
    dep = v;  // 0 at run time (the buffer is zero): the next load also waits for this one
    const unsigned long long t1 = clock64();
    cycles[first + i] = static_cast<unsigned short>(t1 - t0 < 65535 ? t1 - t0 : 65535);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // `gms-fabric-ubench MAP stores` / `... reductions`: after the classification, the near/far sets store
  // (or add) instead of load.
  const bool stores = argc > 2 && std::string(argv[2]) == "stores";
  const bool reds = argc > 2 && std::string(argv[2]) == "reductions";
  const bool mix = argc > 2 && std::string(argv[2]) == "mix";
  const bool half_stores = argc > 2 && std::string(argv[2]) == "halfstores";
  return ubench_main("gms-fabric-ubench", [&](const gpuDeviceProp& prop) {
    const int sms = prop.multiProcessorCount;
    const std::string map = argc > 1 ? argv[1] : "";
    if (static_cast<int>(map.size()) != sms || map.find_first_not_of("01") != std::string::npos) {
      std::fprintf(stderr, "gms-fabric-ubench: argv[1] must be the partition map, one 0/1 per SM (%d SMs), got '%s'\n",
                   sms, map.c_str());
      throw std::runtime_error("no partition map");
    }
    std::vector<int> part[2];
    for (int s = 0; s < sms; ++s) part[map[static_cast<size_t>(s)] - '0'].push_back(s);
    const size_t bytes = kDramWindow * static_cast<size_t>(sms), nlines = bytes / 128;
    int4* big;
    unsigned char* active;
    unsigned long long* out;
    int *sink, *rank;
    unsigned short* cycles;
    unsigned *lines, *start, *count;
    GPU_CHECK(gpuMalloc(&big, bytes));
    GPU_CHECK(gpuMemset(big, 0, bytes));
    GPU_CHECK(gpuMalloc(&active, 1024));
    GPU_CHECK(gpuMalloc(&rank, 1024 * sizeof(int)));
    GPU_CHECK(gpuMalloc(&out, 4 * 1024 * sizeof(unsigned long long)));
    GPU_CHECK(gpuMalloc(&sink, sizeof(int)));
    GPU_CHECK(gpuMalloc(&cycles, nlines * sizeof(unsigned short)));
    GPU_CHECK(gpuMalloc(&lines, nlines * sizeof(unsigned)));
    GPU_CHECK(gpuMalloc(&start, 1024 * sizeof(unsigned)));
    GPU_CHECK(gpuMalloc(&count, 1024 * sizeof(unsigned)));
    const size_t pad = prop.sharedMemPerMultiprocessor / 2 + 1024;
    GPU_CHECK(cudaFuncSetAttribute(window_stream<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(window_stream<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(list_walk<4, kLoad>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(list_walk<4, kStore>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(list_walk<4, kRed>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(list_walk<4, kHalfStore>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(mode_walk, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    GPU_CHECK(cudaFuncSetAttribute(home_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pad)));
    auto set_active = [&](const std::vector<int>& set) {
      std::vector<unsigned char> a(1024, 0);
      std::vector<int> r(1024, 0);
      for (size_t k = 0; k < set.size(); ++k) a[static_cast<size_t>(set[k])] = 1, r[static_cast<size_t>(set[k])] = static_cast<int>(k);
      GPU_CHECK(gpuMemcpy(active, a.data(), a.size(), gpuMemcpyHostToDevice));
      GPU_CHECK(gpuMemcpy(rank, r.data(), r.size() * sizeof(int), gpuMemcpyHostToDevice));
    };

    // 1. Each line's home: partition 0's SMs bring a chunk into L2, partition 1's time each line of it.
    const int chunk = static_cast<int>((16u << 20) / 128);
    for (size_t first = 0; first < nlines; first += static_cast<size_t>(chunk)) {
      const int n = static_cast<int>(std::min<size_t>(static_cast<size_t>(chunk), nlines - first));
      set_active(part[0]);
      home_probe<<<sms, 256, pad>>>(reinterpret_cast<const unsigned*>(big), first, n, active, static_cast<int>(part[0].size()), rank, true, cycles);
      GPU_CHECK_LAUNCH();
      set_active(part[1]);
      home_probe<<<sms, 256, pad>>>(reinterpret_cast<const unsigned*>(big), first, n, active, static_cast<int>(part[1].size()), rank, false, cycles);
      GPU_CHECK_LAUNCH();
    }
    GPU_CHECK(gpuDeviceSynchronize());
    std::vector<unsigned short> lat(nlines);
    GPU_CHECK(gpuMemcpy(lat.data(), cycles, nlines * sizeof(unsigned short), gpuMemcpyDeviceToHost));
    std::vector<unsigned short> sorted(lat);
    std::sort(sorted.begin(), sorted.end());
    const double lo = sorted[nlines / 4], hi = sorted[3 * nlines / 4], cut = (lo + hi) / 2;
    std::vector<unsigned> home[2];  // lines homed in partition 0 / 1 (partition 1's SMs: far / near hits)
    size_t between = 0;             // within 40 cycles of the cut: the classification's doubtful lines
    for (size_t i = 0; i < nlines; ++i) {
      home[lat[i] < cut ? 1 : 0].push_back(static_cast<unsigned>(i));
      between += std::abs(lat[i] - cut) < 40;
    }
    std::printf("{\"gpu\": \"%s\", \"homes\": {\"lines\": %zu, \"p25_cycles\": %.0f, \"p75_cycles\": %.0f, \"cut_cycles\": %.0f, "
                "\"p1_cycles\": %u, \"p99_cycles\": %u, \"homed_p0\": %zu, \"homed_p1\": %zu, \"within_40_of_cut\": %zu}}\n",
                prop.name, nlines, lo, hi, cut, sorted[nlines / 100], sorted[nlines - 1 - nlines / 100], home[0].size(),
                home[1].size(), between);
    std::vector<unsigned> all_lines(home[0]);
    all_lines.insert(all_lines.end(), home[1].begin(), home[1].end());
    GPU_CHECK(gpuMemcpy(lines, all_lines.data(), all_lines.size() * sizeof(unsigned), gpuMemcpyHostToDevice));

    // 2. The streams.
    auto report = [&](const std::string& name, const std::vector<int>& set, int rep, const std::vector<double>& per_sm_bytes) {
      std::vector<unsigned long long> t(4 * 1024);
      GPU_CHECK(gpuMemcpy(t.data(), out, t.size() * sizeof(unsigned long long), gpuMemcpyDeviceToHost));
      unsigned long long first = ~0ull, last = 0;
      double total = 0;
      for (size_t k = 0; k < set.size(); ++k)
        first = std::min(first, t[4 * set[k]]), last = std::max(last, t[4 * set[k] + 1]), total += per_sm_bytes[k];
      const int s0 = set.front();
      const double mhz = static_cast<double>(t[4 * s0 + 3] - t[4 * s0 + 2]) * 1e3 / static_cast<double>(t[4 * s0 + 1] - t[4 * s0]);
      std::printf("{\"gpu\": \"%s\", \"set\": \"%s\", \"rep\": %d, \"sms\": %zu, \"sm_mhz\": %.0f, \"total_gbps\": %.1f, \"gbps\": {",
                  prop.name, name.c_str(), rep, set.size(), mhz, total / static_cast<double>(last - first));
      for (size_t k = 0; k < set.size(); ++k)
        std::printf("%s\"%d\": %.2f", k ? ", " : "", set[k], per_sm_bytes[k] / static_cast<double>(t[4 * set[k] + 1] - t[4 * set[k]]));
      std::printf("}}\n");
    };
    auto mixed = [&](const std::string& name, const std::vector<int>& set, int in_flight) {
      set_active(set);
      for (int rep = 0; rep < 3; ++rep) {
        if (in_flight == 4)
          window_stream<4><<<sms, kThreads, pad>>>(big, kDramWindow, 1, active, out, sink);
        else
          window_stream<1><<<sms, kThreads, pad>>>(big, kDramWindow, 1, active, out, sink);
        GPU_CHECK_LAUNCH();
        GPU_CHECK(gpuDeviceSynchronize());
        report(name, set, rep, std::vector<double>(set.size(), static_cast<double>(kDramWindow)));
      }
    };
    // Every SM of `set` reads as many lines, from those homed in its own partition (far = false) or
    // in the other one; an SM's lines are its own.
    const size_t per_sm = std::min(home[0].size(), home[1].size()) / std::max(part[0].size(), part[1].size());
    auto homed = [&](const std::string& name, const std::vector<int>& set, bool far) {
      set_active(set);
      std::vector<unsigned> st(1024, 0), ct(1024, 0);
      size_t next[2] = {0, home[0].size()};  // offsets of the two lists in `lines`
      for (int s : set) {
        const int p = map[static_cast<size_t>(s)] - '0', h = far ? 1 - p : p;
        st[static_cast<size_t>(s)] = static_cast<unsigned>(next[h]);
        ct[static_cast<size_t>(s)] = static_cast<unsigned>(per_sm);
        next[h] += per_sm;
      }
      GPU_CHECK(gpuMemcpy(start, st.data(), st.size() * sizeof(unsigned), gpuMemcpyHostToDevice));
      GPU_CHECK(gpuMemcpy(count, ct.data(), ct.size() * sizeof(unsigned), gpuMemcpyHostToDevice));
      for (int rep = 0; rep < 3; ++rep) {
        if (half_stores && name.rfind("half ", 0) == 0)
          list_walk<4, kHalfStore><<<sms, kThreads, pad>>>(big, lines, start, count, active, out, sink);
        else if (reds)
          list_walk<4, kRed><<<sms, kThreads, pad>>>(big, lines, start, count, active, out, sink);
        else if (stores || half_stores)
          list_walk<4, kStore><<<sms, kThreads, pad>>>(big, lines, start, count, active, out, sink);
        else
          list_walk<4, kLoad><<<sms, kThreads, pad>>>(big, lines, start, count, active, out, sink);
        GPU_CHECK_LAUNCH();
        GPU_CHECK(gpuDeviceSynchronize());
        report(name, set, rep, std::vector<double>(set.size(), static_cast<double>(per_sm) * 128));
      }
    };
    // `mix` and `halfstores`: every SM of each group walks `n` of its lines - homed in its own partition or, `far`,
    // in the other - `passes` times with the group's Walk, the groups at once in one launch (mode_walk); each
    // group is reported over its own SMs' span, as `name` + its suffix.
    struct Group {
      std::vector<int> sms;
      bool far;
      int walk;
      const char* suffix;
    };
    auto walk_groups = [&](const std::string& name, const std::vector<Group>& groups, size_t n, int passes) {
      std::vector<unsigned char> m(1024, 0);
      std::vector<unsigned> st(1024, 0), ct(1024, 0);
      size_t next[2] = {0, home[0].size()};  // offsets of the two homes' lists in `lines`
      for (const Group& g : groups)
        for (int s : g.sms) {
          const int p = map[static_cast<size_t>(s)] - '0', h = g.far ? 1 - p : p;
          m[static_cast<size_t>(s)] = static_cast<unsigned char>(1 + g.walk);
          st[static_cast<size_t>(s)] = static_cast<unsigned>(next[h]);
          ct[static_cast<size_t>(s)] = static_cast<unsigned>(n);
          next[h] += n;
        }
      GPU_CHECK(gpuMemcpy(active, m.data(), m.size(), gpuMemcpyHostToDevice));
      GPU_CHECK(gpuMemcpy(start, st.data(), st.size() * sizeof(unsigned), gpuMemcpyHostToDevice));
      GPU_CHECK(gpuMemcpy(count, ct.data(), ct.size() * sizeof(unsigned), gpuMemcpyHostToDevice));
      for (int rep = 0; rep < 3; ++rep) {
        mode_walk<<<sms, kThreads, pad>>>(big, lines, start, count, active, passes, out, sink);
        GPU_CHECK_LAUNCH();
        GPU_CHECK(gpuDeviceSynchronize());
        for (const Group& g : groups)
          report(name + g.suffix, g.sms, rep, std::vector<double>(g.sms.size(), static_cast<double>(n) * 128 * passes));
      }
    };
    // `mix`: SMs loading far lines beside SMs storing far lines, at once. Loads by partition 1's SMs of lines
    // homed in partition 0 bring their data into partition 1; stores by partition 0's SMs to lines homed in
    // partition 1 send theirs there too - the same direction. One link per direction for both lets the two
    // together move what either moves alone (~1.1 TB/s); separate paths for read replies and write data,
    // twice that. The control: loads into partition 0 beside stores into partition 1 (opposite directions).
    // Each side has half a partition's SMs (33 of them read the link's full rate, far:p0h).
    auto loadstore = [&](const std::string& name, const std::vector<int>& loaders, const std::vector<int>& storers) {
      std::vector<Group> groups;
      if (!loaders.empty()) groups.push_back({loaders, true, kLoad, " [loads]"});
      if (!storers.empty()) groups.push_back({storers, true, kStore, " [stores]"});
      walk_groups(name, groups, per_sm, 1);
    };
    auto walk_set = [&](const std::string& name, const std::vector<int>& set, bool far, int walk, size_t n, int passes) {
      walk_groups(name, {{set, far, walk, ""}}, n, passes);
    };
    const size_t h0 = part[0].size() / 2, h1 = part[1].size() / 2;
    std::vector<int> all, halves(part[0].begin(), part[0].begin() + h0), p0h(part[0].begin(), part[0].begin() + h0);
    halves.insert(halves.end(), part[1].begin(), part[1].begin() + h1);
    for (int s = 0; s < sms; ++s) all.push_back(s);
    if (mix) {
      const std::vector<int> p0a(part[0].begin(), part[0].begin() + h0), p0b(part[0].begin() + h0, part[0].end()),
          p1a(part[1].begin(), part[1].begin() + h1), none;
      loadstore("load far:p1h", p1a, none);                   // into partition 1
      loadstore("store far:p0h", none, p0a);                  // into partition 1
      loadstore("load far:p1h + store far:p0h", p1a, p0a);    // both into partition 1
      loadstore("load far:p0h", p0b, none);                   // into partition 0
      loadstore("load far:p0h + store far:p0h'", p0b, p0a);   // loads into 0, stores into 1
    } else if (half_stores) {  // half-written sectors, near against far: what one costs the link (whole ones beside them)
      homed("store near:p0", part[0], false);
      homed("store far:p0", part[0], true);
      homed("half near:p0", part[0], false);
      homed("half far:p0", part[0], true);
      homed("half near:p0h", p0h, false);
      homed("half far:p0h", p0h, true);
      homed("half near:all", all, false);
      homed("half far:all", all, true);
      // Both halves of each sector in two instructions, over the whole buffer: is a sector fetched from DRAM
      // when its first half is written, or only if it is still half written when it leaves?
      walk_set("pair near:p0", part[0], false, kHalfPair, per_sm, 1);
      walk_set("pair far:p0", part[0], true, kHalfPair, per_sm, 1);
      // 16 MB of lines, L2-resident after the first of 32 passes (nothing from or to DRAM but that pass): the
      // link's own rate for whole and half sectors.
      const size_t resident = (16u << 20) / 128 / part[0].size();
      walk_set("resident store near:p0", part[0], false, kStore, resident, 32);
      walk_set("resident store far:p0", part[0], true, kStore, resident, 32);
      walk_set("resident half near:p0", part[0], false, kHalfStore, resident, 32);
      walk_set("resident half far:p0", part[0], true, kHalfStore, resident, 32);
    } else if (stores || reds) {  // what a store or a reduction costs the slices' crossbar inputs, near against far (ncu)
      const std::string op = reds ? "red " : "store ";
      homed(op + "near:all", all, false);
      homed(op + "far:all", all, true);
      homed(op + "near:p0", part[0], false);
      homed(op + "far:p0", part[0], true);
    } else {
      mixed("mixed:all x1", all, 1);
      mixed("mixed:all", all, 4);
      mixed("mixed:p0", part[0], 4);
      mixed("mixed:p0h+p1h", halves, 4);
      mixed("mixed:p0h", p0h, 4);
      homed("near:all", all, false);
      homed("far:all", all, true);
      homed("near:p0", part[0], false);
      homed("far:p0", part[0], true);
      homed("far:p1", part[1], true);
      homed("far:p0h+p1h", halves, true);
      homed("far:p0h", p0h, true);
    }
    for (void* p : {static_cast<void*>(big), static_cast<void*>(active), static_cast<void*>(rank), static_cast<void*>(out),
                    static_cast<void*>(sink), static_cast<void*>(cycles), static_cast<void*>(lines), static_cast<void*>(start),
                    static_cast<void*>(count)})
      GPU_CHECK(gpuFree(p));
  });
}

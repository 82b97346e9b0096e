// gms-access-replay: replays lane lists (thread,instruction,byte_offset) on the GPU, one CTA per
// pattern, so that Nsight Compute counts exactly that pattern's shared-memory wavefronts and bank
// conflicts or global requests and sectors. The offsets come from constant memory (LDC counts as
// neither shared nor global), and every loaded value is checked on the host so a pattern that did
// not read what its list says fails instead of being measured.
//   gms-access-replay MANIFEST.csv [--only NAME]
// MANIFEST rows: name,space,op,width_bytes,threads,ldsm_matrices,lanes_csv (paths relative to it).
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../include/gpu_port.h"

namespace {

constexpr int kMaxOffsets = 8192;  // 32 KiB of the 64 KiB constant bank
__constant__ int c_off[kMaxOffsets];

enum Op { kLd = 0, kSt = 1, kLdsm = 2 };

__host__ __device__ inline unsigned word_value(unsigned w) { return w * 2654435761u + 12345u; }
__host__ __device__ inline unsigned store_value(int instr, int tid, int j) {
  return 0x80000000u | (static_cast<unsigned>(instr) << 16) ^ (static_cast<unsigned>(tid) << 2) ^ static_cast<unsigned>(j);
}

template <int W, bool Global>
__device__ inline unsigned load_xor(const char* p) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (Global) {
    if (W == 4) asm volatile("ld.global.u32 %0, [%1];" : "=r"(a) : "l"(p));
    if (W == 8) asm volatile("ld.global.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "l"(p));
    if (W == 16) asm volatile("ld.global.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
  } else {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(s));
    if (W == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(s));
    if (W == 16) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(s));
  }
  return a ^ (b * 3u) ^ (c * 5u) ^ (d * 7u);
}

template <int W, bool Global>
__device__ inline void store(char* p, unsigned v0, unsigned v1, unsigned v2, unsigned v3) {
  if (Global) {
    if (W == 4) asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v0) : "memory");
    if (W == 8) asm volatile("st.global.v2.u32 [%0], {%1,%2};" ::"l"(p), "r"(v0), "r"(v1) : "memory");
    if (W == 16) asm volatile("st.global.v4.u32 [%0], {%1,%2,%3,%4};" ::"l"(p), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
  } else {
    unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if (W == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(s), "r"(v0) : "memory");
    if (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(s), "r"(v0), "r"(v1) : "memory");
    if (W == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(s), "r"(v0), "r"(v1), "r"(v2), "r"(v3) : "memory");
  }
}

template <int M>
__device__ inline unsigned ldmatrix_xor(const char* p) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p)), a = 0, b = 0, c = 0, d = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
  if (M == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(a) : "r"(s));
  if (M == 2) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(a), "=r"(b) : "r"(s));
  if (M == 4)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(s));
#endif
  return a ^ (b * 3u) ^ (c * 5u) ^ (d * 7u);
}

// One CTA. Loads: shared memory (or the global buffer) holds word_value(word index); each thread
// XORs what it loads into out[tid]. Stores: each lane writes store_value(); afterwards the whole
// space is dumped to `dump` for the host to check (those dump loads are another op and not compared).
template <int W, int OpK, bool Global, int M>
__global__ void access_replay(char* gbuf, unsigned* out, unsigned* dump, int instrs, int space_words) {
  extern __shared__ __align__(16) char smem[];
  const int tid = threadIdx.x, threads = blockDim.x;
  char* base = Global ? gbuf : smem;
  unsigned* words = reinterpret_cast<unsigned*>(smem);
  if (!Global && OpK != kSt) {
    for (int w = tid; w < space_words; w += threads) words[w] = word_value(w);
    __syncthreads();
  }
  // Warps take turns (a barrier after each warp's instruction): the counts are then the pattern's
  // own, free of conflicts between warps that happen to overlap in time (seen: 64 vs 70 wavefronts
  // for one 4-warp store pattern in two runs without this).
  unsigned acc = 0;
  const int warps = (threads + 31) / 32, my_warp = tid / 32;
  for (int i = 0; i < instrs; ++i) {
    const int off = c_off[i * threads + tid];
    for (int w = 0; w < warps; ++w) {
      if (w == my_warp) {
        if (OpK == kLdsm) {  // .sync.aligned: the whole warp executes it; unused lanes point at 0
          acc ^= ldmatrix_xor<M>(base + (off >= 0 ? off : 0));
        } else if (off >= 0) {
          if (OpK == kLd)
            acc ^= load_xor<W, Global>(base + off);
          else
            store<W, Global>(base + off, store_value(i, tid, 0), store_value(i, tid, 1), store_value(i, tid, 2),
                             store_value(i, tid, 3));
        }
      }
      if (warps > 1) __syncthreads();
    }
  }
  if (OpK != kSt) out[tid] = acc;  // a global store here would be counted with a global-store pattern
  if (!Global && OpK == kSt) {
    __syncthreads();
    for (int w = tid; w < space_words; w += threads) dump[w] = words[w];
  }
}

struct Pattern {
  std::string name, space, op, lanes;
  int width = 4, threads = 0, matrices = 4, instrs = 0;
  std::vector<int> off;  // [instr * threads + tid], -1 inactive
  long long max_byte = 0;
};

[[noreturn]] void die(const std::string& m) {
  std::fprintf(stderr, "gms-access-replay: %s\n", m.c_str());
  std::exit(2);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> f;
  std::stringstream ss(s);
  std::string x;
  while (std::getline(ss, x, ',')) f.push_back(x);
  return f;
}

void load_lanes(Pattern& p) {
  std::ifstream in(p.lanes);
  if (!in) die("cannot read " + p.lanes);
  std::string line;
  std::vector<std::vector<int>> rows;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto f = split(line);
    if (f.size() != 3) die(p.lanes + ": bad row " + line);
    rows.push_back({std::stoi(f[0]), std::stoi(f[1]), std::stoi(f[2])});
    p.instrs = std::max(p.instrs, rows.back()[1] + 1);
  }
  if (p.instrs * p.threads > kMaxOffsets) die(p.name + ": more than 8192 lane offsets");
  p.off.assign(static_cast<size_t>(p.instrs * p.threads), -1);
  for (auto& r : rows) {
    p.off[static_cast<size_t>(r[1] * p.threads + r[0])] = r[2];
    p.max_byte = std::max<long long>(p.max_byte, r[2] + p.width);
  }
}

// Host model of what each thread must have loaded (the check, not the counts).
std::vector<unsigned> expected_xor(const Pattern& p) {
  std::vector<unsigned> e(static_cast<size_t>(p.threads), 0);
  auto word = [](long long byte) { return word_value(static_cast<unsigned>(byte / 4)); };
  for (int i = 0; i < p.instrs; ++i)
    for (int t = 0; t < p.threads; ++t) {
      if (p.op == "ldmatrix") {
        const int warp0 = t / 32 * 32, lane = t % 32;
        unsigned r[4] = {0, 0, 0, 0};
        for (int j = 0; j < p.matrices; ++j) {
          int src = p.off[static_cast<size_t>(i * p.threads + warp0 + j * 8 + lane / 4)];
          r[j] = word((src >= 0 ? src : 0) + 4 * (lane % 4));
        }
        e[static_cast<size_t>(t)] ^= r[0] ^ (r[1] * 3u) ^ (r[2] * 5u) ^ (r[3] * 7u);
        continue;
      }
      int o = p.off[static_cast<size_t>(i * p.threads + t)];
      if (o < 0 || p.op != "ld") continue;
      unsigned v[4] = {0, 0, 0, 0};
      for (int j = 0; j < p.width / 4; ++j) v[j] = word(o + 4 * j);
      if (p.width < 4) die(p.name + ": the replay kernel handles 4, 8 and 16-byte lanes");
      e[static_cast<size_t>(t)] ^= v[0] ^ (v[1] * 3u) ^ (v[2] * 5u) ^ (v[3] * 7u);
    }
  return e;
}

// Stores: every written word holds the value of one of its writers.
bool check_stores(const Pattern& p, const std::vector<unsigned>& space) {
  std::map<long long, std::set<unsigned>> allowed;
  for (int i = 0; i < p.instrs; ++i)
    for (int t = 0; t < p.threads; ++t) {
      int o = p.off[static_cast<size_t>(i * p.threads + t)];
      if (o < 0) continue;
      for (int j = 0; j < p.width / 4; ++j) allowed[(o + 4 * j) / 4].insert(store_value(i, t, j));
    }
  for (auto& [w, vals] : allowed)
    if (!vals.count(space[static_cast<size_t>(w)])) return false;
  return true;
}

template <int W, int OpK, bool Global, int M>
void launch(const Pattern& p, char* gbuf, unsigned* out, unsigned* dump, int space_words) {
  size_t shmem = Global ? 0 : static_cast<size_t>(space_words) * 4;
  auto k = access_replay<W, OpK, Global, M>;
  if (shmem > 48 * 1024) GPU_CHECK(gpuFuncSetAttribute(k, gpuFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shmem)));
  k<<<1, p.threads, shmem>>>(gbuf, out, dump, p.instrs, space_words);
  GPU_CHECK_LAUNCH();
}

template <int W>
void dispatch_width(const Pattern& p, char* g, unsigned* o, unsigned* d, int sw) {
  bool global = p.space == "global";
  if (p.op == "ld") global ? launch<W, kLd, true, 4>(p, g, o, d, sw) : launch<W, kLd, false, 4>(p, g, o, d, sw);
  else if (p.op == "st") global ? launch<W, kSt, true, 4>(p, g, o, d, sw) : launch<W, kSt, false, 4>(p, g, o, d, sw);
  else die(p.name + ": unknown op " + p.op);
}

bool run(const Pattern& p) {
  const int space_words = static_cast<int>((p.max_byte + 15) / 16 * 4);
  if (p.space == "shared" && space_words * 4 > 227 * 1024) die(p.name + ": needs more than 227 KiB of shared memory");
  char* gbuf = nullptr;
  unsigned *out = nullptr, *dump = nullptr;
  GPU_CHECK(gpuMalloc(&gbuf, static_cast<size_t>(space_words) * 4));
  GPU_CHECK(gpuMalloc(&out, static_cast<size_t>(p.threads) * 4));
  GPU_CHECK(gpuMalloc(&dump, static_cast<size_t>(space_words) * 4));
  std::vector<unsigned> init(static_cast<size_t>(space_words));
  for (int w = 0; w < space_words; ++w) init[static_cast<size_t>(w)] = word_value(static_cast<unsigned>(w));
  GPU_CHECK(gpuMemcpy(gbuf, init.data(), init.size() * 4, gpuMemcpyHostToDevice));
  GPU_CHECK(cudaMemcpyToSymbol(c_off, p.off.data(), p.off.size() * sizeof(int)));
  if (p.op == "ldmatrix") {
    if (p.matrices == 1) launch<16, kLdsm, false, 1>(p, gbuf, out, dump, space_words);
    else if (p.matrices == 2) launch<16, kLdsm, false, 2>(p, gbuf, out, dump, space_words);
    else launch<16, kLdsm, false, 4>(p, gbuf, out, dump, space_words);
  } else if (p.width == 4) dispatch_width<4>(p, gbuf, out, dump, space_words);
  else if (p.width == 8) dispatch_width<8>(p, gbuf, out, dump, space_words);
  else if (p.width == 16) dispatch_width<16>(p, gbuf, out, dump, space_words);
  else die(p.name + ": width must be 4, 8 or 16");
  GPU_CHECK(gpuDeviceSynchronize());
  bool ok = true;
  if (p.op == "st") {
    std::vector<unsigned> space(static_cast<size_t>(space_words));
    GPU_CHECK(gpuMemcpy(space.data(), p.space == "global" ? static_cast<void*>(gbuf) : dump, space.size() * 4, gpuMemcpyDeviceToHost));
    ok = check_stores(p, space);
  } else {
    std::vector<unsigned> got(static_cast<size_t>(p.threads));
    GPU_CHECK(gpuMemcpy(got.data(), out, got.size() * 4, gpuMemcpyDeviceToHost));
    ok = got == expected_xor(p);
  }
  GPU_CHECK(gpuFree(gbuf));
  GPU_CHECK(gpuFree(out));
  GPU_CHECK(gpuFree(dump));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: gms-access-replay MANIFEST.csv [--only NAME]");
  std::string manifest = argv[1], only = argc > 3 && std::string(argv[2]) == "--only" ? argv[3] : "";
  std::string dir = manifest.find('/') == std::string::npos ? "." : manifest.substr(0, manifest.rfind('/'));
  std::ifstream in(manifest);
  if (!in) die("cannot read " + manifest);
  std::string line;
  std::getline(in, line);  // header
  int failed = 0, ran = 0;
  try {
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      auto f = split(line);
      if (f.size() != 7) die(manifest + ": bad row " + line);
      Pattern p{f[0], f[1], f[2], dir + "/" + f[6], std::stoi(f[3]), std::stoi(f[4]), std::stoi(f[5])};
      if (!only.empty() && p.name != only) continue;
      load_lanes(p);
      bool ok = run(p);
      ++ran;
      failed += !ok;
      std::printf("%-40s %-6s %-8s %2dB %4d threads %3d instr  check %s\n", p.name.c_str(), p.space.c_str(), p.op.c_str(),
                  p.width, p.threads, p.instrs, ok ? "ok" : "FAILED");
    }
  } catch (const std::exception& e) {
    die(e.what());
  }
  std::printf("%d patterns, %d checks failed\n", ran, failed);
  return failed ? 1 : 0;
}

// gms-dram-rows-ubench: does DRAM deliver less when each CTA reads short segments of many rows? The Triton GEMVs
// of the large shape (1x8192x28672, BLOCK_N 256-512, BLOCK_K 64) read W in tiles of 64 rows x 512-1,024 bytes, rows
// 57,344 bytes apart, at 2.56 TB/s on an H200 where the model - whose DRAM has no row-buffer locality - runs them at
// 3.3 TB/s once its fitted start gate is off (docs/shared-memory.md). This reads 896 MiB (16,384 rows of 57,344
// bytes, W's row length) once, in tiles of 32 KiB: SEG bytes of each of 32 KiB / SEG consecutive rows, 128 threads a
// CTA, 16-byte streaming loads, every tile by one CTA, the grid's tiles ordered
//   seg_major  consecutive CTAs read the next segments of the same rows (neighbouring columns first), or
//   row_major  consecutive CTAs read the same segments of the next rows (the next rows first).
// Printed per SEG and order: the median of 7 launches' times and the bandwidth. Equal bandwidths: the DRAM does
// not care how the bytes of a row are spread over CTAs; lower ones for short segments: row locality matters.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "../include/event_timer.h"
#include "../include/gpu_port.h"
#include "../include/ubench_main.h"

namespace {

constexpr long long kRowBytes = 57344;  // 28,672 fp16: W's row in the large GEMV
constexpr long long kRows = 16384;
constexpr long long kTileBytes = 32768;
constexpr int kThreads = 128;

__device__ __forceinline__ int4 load_streaming(const int4* p) {
  int4 v;
  asm volatile("ld.global.cs.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// Tile t: rows (row block) x SEG bytes (segment column); seg_major: t = row_block * segs + seg; row_major:
// t = seg * row_blocks + row_block.
__global__ void __launch_bounds__(kThreads) read_tiles(const char* buf, int seg_bytes, int seg_major, int* sink) {
  const long long segs = kRowBytes / seg_bytes, rows_per_tile = kTileBytes / seg_bytes, row_blocks = kRows / rows_per_tile;
  const long long t = blockIdx.x;
  const long long row_block = seg_major ? t / segs : t % row_blocks, seg = seg_major ? t % segs : t / row_blocks;
  const int vecs_per_row = seg_bytes / 16;
  int acc = 0;
  constexpr int kPerThread = static_cast<int>(kTileBytes / 16 / kThreads);  // 16 loads a thread, all in flight
  int4 v[kPerThread];
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
    const int idx = i * kThreads + static_cast<int>(threadIdx.x);  // the tile's 16-byte vectors, row by row
    const long long row = row_block * rows_per_tile + idx / vecs_per_row;
    const char* p = buf + row * kRowBytes + seg * seg_bytes + (idx % vecs_per_row) * 16;
    v[i] = load_streaming(reinterpret_cast<const int4*>(p));
  }
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) acc ^= v[i].x ^ v[i].y ^ v[i].z ^ v[i].w;
  if (acc == 0x12345678) *sink = acc;
}

}  // namespace

int main() {
  return ubench_main("gms-dram-rows-ubench", [](const gpuDeviceProp& prop) {
    char* buf;
    int* sink;
    const size_t bytes = static_cast<size_t>(kRows * kRowBytes);
    GPU_CHECK(gpuMalloc(&buf, bytes));
    GPU_CHECK(gpuMalloc(&sink, sizeof(int)));
    GPU_CHECK(gpuMemset(buf, 1, bytes));
    gmsv::Timer timer;
    const int grid = static_cast<int>(bytes / kTileBytes);
    for (int seg : {512, 1024, 2048, 4096, 8192})  // each divides the row and the tile
      for (int seg_major : {1, 0}) {
        auto launch = [&] { read_tiles<<<grid, kThreads>>>(buf, seg, seg_major, sink); };
        launch();  // warm-up
        GPU_CHECK(gpuDeviceSynchronize());
        const std::vector<double> ms = timer.sorted_ms(launch, 7);
        const double median = ms[ms.size() / 2];
        std::printf("{\"measure\": \"dram_rows\", \"seg_bytes\": %d, \"rows_per_tile\": %lld, \"order\": \"%s\", "
                    "\"bytes\": %zu, \"ms_median\": %.4f, \"ms_min\": %.4f, \"tb_per_s\": %.3f, \"gpu\": \"%s\"}\n",
                    seg, kTileBytes / seg, seg_major ? "seg_major" : "row_major", bytes, median, ms.front(),
                    static_cast<double>(bytes) / (median * 1e-3) / 1e12, prop.name);
      }
    GPU_CHECK(gpuFree(buf));
    GPU_CHECK(gpuFree(sink));
  });
}

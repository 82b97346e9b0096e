#pragma once
// Hopper's warpgroup MMA (wgmma) in inline PTX, for the microbenchmarks (gms-sharing-ubench --wgmma): the
// shapes Triton's GEMMs issue (64xNx16, fp16 in, fp32 accumulators), the shared-memory matrix descriptor,
// and the fence / commit / wait that bracket a group. sm_90a only: every function is empty elsewhere, and
// wgmma_built() says which (the host refuses to measure a binary built without it).
// The operand lists are macros (inline asm takes no loops); this file is the one place they live.

// Whether this device code has wgmma (compiled for sm_90a).
__device__ __forceinline__ bool wgmma_built() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  return true;
#else
  return false;
#endif
}

// A shared-memory matrix descriptor without swizzle (core matrices of 8 rows x 16 bytes, 128 bytes each):
// start address, the byte offset between core matrices along K (leading) and along M / N (stride), each
// in 16-byte units, swizzle mode 0 in bits 62-63.
__device__ __forceinline__ unsigned long long wgmma_desc(unsigned smem_addr, unsigned leading, unsigned stride) {
  return static_cast<unsigned long long>((smem_addr & 0x3ffff) >> 4) |
         (static_cast<unsigned long long>(leading >> 4) << 16) | (static_cast<unsigned long long>(stride >> 4) << 32);
}

__device__ __forceinline__ void wgmma_fence() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
// Commits the warpgroup's wgmma issued since the last commit as one group and waits until none is pending.
__device__ __forceinline__ void wgmma_commit_and_wait() {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  asm volatile("wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
}

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
// The accumulators as operands: d[i] .. d[i + 63] read and written (the N 128 shapes' all, the N 256 shape's halves)...
#define GMS_WGMMA_D8(i)                                                                                               \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]),          \
      "+f"(d[i + 7])
#define GMS_WGMMA_D64(i)                                                                                              \
  GMS_WGMMA_D8(i), GMS_WGMMA_D8(i + 8), GMS_WGMMA_D8(i + 16), GMS_WGMMA_D8(i + 24), GMS_WGMMA_D8(i + 32),              \
      GMS_WGMMA_D8(i + 40), GMS_WGMMA_D8(i + 48), GMS_WGMMA_D8(i + 56)
// ... and the instruction's registers that bind them, %0-%63 and %64-%127.
#define GMS_WGMMA_R0_63 \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, " \
  "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, " \
  "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, " \
  "%62, %63"
#define GMS_WGMMA_R64_127 \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, " \
  "%84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, " \
  "%103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, " \
  "%119, %120, %121, %122, %123, %124, %125, %126, %127"

// m64n128k16 fp16 -> fp32, A and B from shared memory; 64 accumulators a thread.
__device__ __forceinline__ void wgmma_ss_n128(float* d, unsigned long long da, unsigned long long db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {" GMS_WGMMA_R0_63 "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
      : GMS_WGMMA_D64(0)
      : "l"(da), "l"(db), "r"(1)
      : "memory");
}

// m64n256k16 fp16 -> fp32, A and B from shared memory; 128 accumulators a thread.
__device__ __forceinline__ void wgmma_ss_n256(float* d, unsigned long long da, unsigned long long db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {" GMS_WGMMA_R0_63 ", " GMS_WGMMA_R64_127
      "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
      : GMS_WGMMA_D64(0), GMS_WGMMA_D64(64)
      : "l"(da), "l"(db), "r"(1)
      : "memory");
}

// m64n128k16 fp16 -> fp32, A from registers (4 fp16 pairs a thread), B from shared memory; 64 accumulators a thread.
__device__ __forceinline__ void wgmma_rs_n128(float* d, unsigned a, unsigned long long db) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {" GMS_WGMMA_R0_63 "}, {%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
      : GMS_WGMMA_D64(0)
      : "r"(a), "r"(a), "r"(a), "r"(a), "l"(db), "r"(1)
      : "memory");
}
#undef GMS_WGMMA_D8
#undef GMS_WGMMA_D64
#undef GMS_WGMMA_R0_63
#undef GMS_WGMMA_R64_127

#else
__device__ __forceinline__ void wgmma_ss_n128(float*, unsigned long long, unsigned long long) {}
__device__ __forceinline__ void wgmma_ss_n256(float*, unsigned long long, unsigned long long) {}
__device__ __forceinline__ void wgmma_rs_n128(float*, unsigned, unsigned long long) {}
#endif

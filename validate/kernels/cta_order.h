#pragma once
// Launch index -> output tile, shared by the device kernels and host code. The same formulas as the
// simulator's sim/workload/cta_order.cpp; tests/validate compares the two for many shapes.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define GMS_HD __host__ __device__
#else
#define GMS_HD
#endif

namespace gmsv {

enum OrderKind : int { kRowMajor = 0, kColumnMajor = 1, kGrouped = 2 };

struct CtaOrderParams {
  int kind = kRowMajor;
  int group_m = 8;
};

GMS_HD inline void cta_tile(const CtaOrderParams& o, int pid, int tiles_m, int tiles_n, int* tm, int* tn) {
  if (o.kind == kColumnMajor) {
    *tm = pid % tiles_m;
    *tn = pid / tiles_m;
  } else if (o.kind == kGrouped) {  // Triton tutorial 03, GROUP_SIZE_M
    int in_group = o.group_m * tiles_n;
    int first_m = (pid / in_group) * o.group_m;
    int size_m = tiles_m - first_m < o.group_m ? tiles_m - first_m : o.group_m;
    *tm = first_m + (pid % in_group) % size_m;
    *tn = (pid % in_group) / size_m;
  } else {
    *tm = pid / tiles_n;
    *tn = pid % tiles_n;
  }
}

}  // namespace gmsv

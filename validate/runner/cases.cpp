#include "cases.h"

#include <stdexcept>

#include "../kernels/cta_order.h"

namespace gmsv {
namespace {

const char* order_name(int kind) {
  return kind == kColumnMajor ? "column_major" : kind == kGrouped ? "grouped" : "row_major";
}

}  // namespace

std::string GemmCase::name() const {
  std::string n_ = "gemm_" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) + "_" +
                   order_name(order_kind);
  if (order_kind == kGrouped) n_ += std::to_string(group_m);
  if (pad != 8) n_ += "_pad" + std::to_string(pad);  // the default pad keeps the names of the first records
  return n_;
}

std::string GemmCase::workload_json(int registers) const {
  return std::string("{\"kind\": \"gemm\", \"name\": \"") + name() + "\", \"m\": " + std::to_string(m) +
         ", \"n\": " + std::to_string(n) + ", \"k\": " + std::to_string(k) +
         ", \"dtype\": \"fp16\", \"c_dtype\": \"fp16\", \"layout\": {\"a\": \"row\", \"b\": \"row\"}"
         ", \"tile\": {\"m\": 128, \"n\": 128, \"k\": 32}, \"warps\": 4, \"stages\": 3, \"bypass_l1\": true"
         // gemm_kernel.cuh's shared rows: PAD halves of padding, no swizzle.
         ", \"smem\": {\"pad\": " + std::to_string(pad) + ", \"swizzle\": \"none\"}"
         // Its C tile leaves through wmma::store_matrix_sync: the accumulator fragments, from registers.
         ", \"epilogue\": \"fragments\""
         ", \"cta_order\": {\"kind\": \"" +
         order_name(order_kind) + "\", \"group_m\": " + std::to_string(group_m) +
         "}, \"registers_per_thread\": " + std::to_string(registers) + "}";
}

std::string GemvCase::name() const {
  return "gemv_1x" + std::to_string(k) + "x" + std::to_string(n) + "_bn" + std::to_string(bn) + "_bk" +
         std::to_string(bk) + "_w" + std::to_string(warps) + (order == 0 ? "_llcc" : "_lclc");
}

std::string GemvCase::workload_json(int registers) const {
  return std::string("{\"kind\": \"gemv\", \"name\": \"") + name() + "\", \"m\": 1, \"k\": " + std::to_string(k) +
         ", \"n\": " + std::to_string(n) + ", \"dtype\": \"fp16\", \"block\": {\"n\": " + std::to_string(bn) +
         ", \"k\": " + std::to_string(bk) + "}, \"k_steps\": 2, \"warps\": " + std::to_string(warps) +
         ", \"order\": \"" + (order == 0 ? "llcc" : "lclc") + "\", \"reduction\": \"atomic_fp32\", \"registers_per_thread\": " +
         std::to_string(registers) + "}";
}

std::vector<GemmCase> gemm_cases(const std::string& set) {
  std::vector<GemmCase> out;
  if (set == "smoke") {
    out.push_back({512, 384, 256, kGrouped, 2});
    out.push_back({256, 512, 128, kColumnMajor, 1});
    return out;
  }
  if (set == "gemm_pad") {
    // The copy/ldmatrix trade of the shared-row padding: pad 0 (rows on the 32-byte sector grid,
    // ldmatrix 4-/8-way conflicts), 8 (conflict-free, split sectors fetched twice), 16 (on the grid,
    // 2-way conflicts); each pad on three cases, the default pad measured again in the same call.
    const GemmCase cases[] = {{8192, 8192, 8192, kGrouped, 8}, {8192, 8192, 8192, kColumnMajor, 1},
                              {16384, 16384, 2048, kGrouped, 8}};
    for (int pad : {0, 8, 16})
      for (GemmCase c : cases) {
        c.pad = pad;
        out.push_back(c);
      }
    return out;
  }
  if (set != "gemm") throw std::invalid_argument("unknown GEMM case set '" + set + "'");
  const int shapes[][3] = {{8192, 8192, 8192}, {16384, 16384, 2048}, {2048, 32768, 8192}};
  for (const auto& s : shapes) {
    for (int g : {1, 2, 4, 8, 16, 32, 64}) out.push_back({s[0], s[1], s[2], g == 1 ? kRowMajor : kGrouped, g});
    out.push_back({s[0], s[1], s[2], kColumnMajor, 1});
  }
  return out;
}

std::vector<GemvCase> gemv_cases(const std::string& set) {
  std::vector<GemvCase> out;
  if (set == "smoke") {
    out.push_back({1024, 512, 256, 64, 2, 0});
    out.push_back({1024, 512, 256, 64, 4, 1});
    return out;
  }
  if (set != "gemv") throw std::invalid_argument("unknown GEMV case set '" + set + "'");
  const int shapes[][2] = {{4096, 7168}, {8192, 28672}};  // seed 001, and a larger layer
  for (const auto& s : shapes)
    for (int w : {1, 2, 4, 8})
      for (int o : {0, 1}) out.push_back({s[0], s[1], 256, 64, w, o});
  return out;
}

}  // namespace gmsv

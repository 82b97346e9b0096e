#pragma once
// A hand-written kernel of one CTA for engine tests: the shape, tile and cursor start are the same
// for every such test; a subclass writes only the warps' instructions (next()).
#include <string>
#include <utility>

#include "workload/program.h"

namespace gms::test {

class OneCtaKernel : public Kernel {
 public:
  OneCtaKernel(std::string name, int warps) : name_(std::move(name)), warps_(warps) {}
  std::string name() const override { return name_; }
  LaunchShape shape() const override {
    LaunchShape s;
    s.ctas = s.grid_ctas = 1;
    s.warps_per_cta = warps_;
    s.registers_per_thread = 32;
    s.tiles_m = s.tiles_n = 1;
    return s;
  }
  TileCoord tile_of(std::int64_t) const override { return {}; }
  void start_warp(WarpCursor& c, std::int64_t, int warp) const override {
    c = WarpCursor{};
    c.warp = warp;
  }
  double compulsory_bytes() const override { return 0; }
  double flops() const override { return 0; }

 private:
  std::string name_;
  int warps_;
};

}  // namespace gms::test

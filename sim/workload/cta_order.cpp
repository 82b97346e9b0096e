#include "workload/cta_order.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "common/error.h"

namespace gms {
namespace {

class RowMajor final : public CtaOrder {
 public:
  RowMajor(std::int64_t tm, std::int64_t tn) : tm_(tm), tn_(tn) {}
  TileCoord tile(std::int64_t pid) const override { return {pid / tn_, pid % tn_}; }
  std::int64_t size() const override { return tm_ * tn_; }

 private:
  std::int64_t tm_, tn_;
};

class ColumnMajor final : public CtaOrder {
 public:
  ColumnMajor(std::int64_t tm, std::int64_t tn) : tm_(tm), tn_(tn) {}
  TileCoord tile(std::int64_t pid) const override { return {pid % tm_, pid / tm_}; }
  std::int64_t size() const override { return tm_ * tn_; }

 private:
  std::int64_t tm_, tn_;
};

// Triton tutorial 03: groups of GROUP_SIZE_M tile rows, column-major inside a group; the last group
// may be shorter.
class Grouped final : public CtaOrder {
 public:
  Grouped(std::int64_t tm, std::int64_t tn, std::int64_t g) : tm_(tm), tn_(tn), g_(g) {}
  TileCoord tile(std::int64_t pid) const override {
    std::int64_t in_group = g_ * tn_;
    std::int64_t group_id = pid / in_group;
    std::int64_t first_m = group_id * g_;
    std::int64_t size_m = std::min(tm_ - first_m, g_);
    return {first_m + (pid % in_group) % size_m, (pid % in_group) / size_m};
  }
  std::int64_t size() const override { return tm_ * tn_; }

 private:
  std::int64_t tm_, tn_, g_;
};

// The transpose of Grouped: groups of `g` tile columns, row-major inside a group.
class GroupedN final : public CtaOrder {
 public:
  GroupedN(std::int64_t tm, std::int64_t tn, std::int64_t g) : tm_(tm), tn_(tn), g_(g) {}
  TileCoord tile(std::int64_t pid) const override {
    std::int64_t in_group = g_ * tm_;
    std::int64_t group_id = pid / in_group;
    std::int64_t first_n = group_id * g_;
    std::int64_t size_n = std::min(tn_ - first_n, g_);
    return {(pid % in_group) / size_n, first_n + (pid % in_group) % size_n};
  }
  std::int64_t size() const override { return tm_ * tn_; }

 private:
  std::int64_t tm_, tn_, g_;
};

class Custom final : public CtaOrder {
 public:
  explicit Custom(std::vector<TileCoord> tiles) : tiles_(std::move(tiles)) {}
  TileCoord tile(std::int64_t pid) const override { return tiles_[static_cast<size_t>(pid)]; }
  std::int64_t size() const override { return static_cast<std::int64_t>(tiles_.size()); }

 private:
  std::vector<TileCoord> tiles_;
};

std::vector<TileCoord> read_tile_list(const std::string& path, std::int64_t tm, std::int64_t tn) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open the custom CTA order file");
  std::vector<TileCoord> tiles;
  std::unordered_set<std::int64_t> seen;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::replace(line.begin(), line.end(), ',', ' ');
    std::istringstream ls(line);
    std::int64_t m, n;
    if (!(ls >> m)) continue;  // blank or comment line
    std::string rest;
    if (!(ls >> n) || (ls >> rest))
      throw ConfigError(path + ":" + std::to_string(lineno) + ": expected two integers 'tile_m tile_n'");
    if (m < 0 || m >= tm || n < 0 || n >= tn)
      throw ConfigError(path + ":" + std::to_string(lineno) + ": tile (" + std::to_string(m) + ", " +
                        std::to_string(n) + ") is outside the " + std::to_string(tm) + " x " + std::to_string(tn) +
                        " tile grid");
    if (!seen.insert(m * tn + n).second)
      throw ConfigError(path + ":" + std::to_string(lineno) + ": tile (" + std::to_string(m) + ", " +
                        std::to_string(n) + ") is listed twice");
    tiles.push_back({m, n});
  }
  if (tiles.empty()) throw ConfigError(path + ": the custom CTA order lists no tiles");
  return tiles;
}

}  // namespace

std::vector<std::string> cta_order_kinds() { return {"row_major", "column_major", "grouped", "grouped_n", "custom"}; }

std::unique_ptr<CtaOrder> make_cta_order(const CtaOrderConfig& cfg, std::int64_t tm, std::int64_t tn,
                                         const std::string& base_dir) {
  if (cfg.kind == "row_major") return std::make_unique<RowMajor>(tm, tn);
  if (cfg.kind == "column_major") return std::make_unique<ColumnMajor>(tm, tn);
  if (cfg.kind == "grouped") return std::make_unique<Grouped>(tm, tn, cfg.group_m);
  if (cfg.kind == "grouped_n") return std::make_unique<GroupedN>(tm, tn, cfg.group_n);
  if (cfg.kind == "custom") {
    std::filesystem::path p(cfg.file);
    if (p.is_relative() && !base_dir.empty()) p = std::filesystem::path(base_dir) / p;
    return std::make_unique<Custom>(read_tile_list(p.string(), tm, tn));
  }
  throw ConfigError("unknown cta_order.kind '" + cfg.kind + "'");
}

WarpCursor cursor_at(const CtaOrder& order, std::int64_t launch_index, int warp) {
  TileCoord t = order.tile(launch_index);
  WarpCursor c;
  c.cta = launch_index;
  c.tile_m = t.m;
  c.tile_n = t.n;
  c.warp = warp;
  return c;
}

}  // namespace gms

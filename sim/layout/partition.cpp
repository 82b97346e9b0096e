#include "layout/partition.h"

#include <sstream>

#include "common/error.h"

namespace gms {

namespace {

std::int64_t mode_size(const Layout& l, int m) { return l.shape().mode(m).product(); }

// A thread or value layout of lower rank than the tensor covers the missing modes with extent 1.
std::int64_t mode_size_or_one(const Layout& l, int m) { return m < l.rank() ? mode_size(l, m) : 1; }

void require_bijective(const Layout& l, const char* what) {
  if (!l.bijective())
    throw ConfigError(std::string(what) + " " + l.str() + " is not a bijection onto [0," + std::to_string(l.size()) +
                      "): every index must be named exactly once");
}

// The shared core: per mode, thread extent T, value extent V, thread coordinate t (per thread),
// value coordinate v (per value); element coordinate = v + V*t + V*T*r over repeats r.
Partition build(const Layout& tensor, const std::vector<std::int64_t>& thr_extent,
                const std::vector<std::vector<std::int64_t>>& thread_coords, const std::vector<std::int64_t>& val_extent,
                const std::vector<std::vector<std::int64_t>>& value_coords) {
  const int rank = tensor.rank();
  std::vector<std::int64_t> repeats(static_cast<size_t>(rank));
  std::int64_t total_repeats = 1;
  for (int m = 0; m < rank; ++m) {
    std::int64_t tile = thr_extent[static_cast<size_t>(m)] * val_extent[static_cast<size_t>(m)];
    std::int64_t extent = mode_size(tensor, m);
    if (extent % tile != 0) {
      std::ostringstream os;
      os << "tensor " << tensor.str() << ": mode " << m << " has " << extent << " elements, not a multiple of the "
         << tile << " a tile of threads x values covers";
      throw ConfigError(os.str());
    }
    repeats[static_cast<size_t>(m)] = extent / tile;
    total_repeats *= repeats[static_cast<size_t>(m)];
  }
  Partition p;
  p.threads = static_cast<std::int64_t>(thread_coords.size());
  p.values_per_thread = total_repeats * static_cast<std::int64_t>(value_coords.size());
  p.offsets.reserve(static_cast<size_t>(p.threads * p.values_per_thread));
  std::vector<std::int64_t> coord(static_cast<size_t>(rank));
  for (const auto& t : thread_coords) {
    for (std::int64_t r = 0; r < total_repeats; ++r) {
      for (const auto& v : value_coords) {
        std::int64_t rr = r;
        for (int m = 0; m < rank; ++m) {
          auto mi = static_cast<size_t>(m);
          std::int64_t rep = rr % repeats[mi];
          rr /= repeats[mi];
          coord[mi] = v[mi] + val_extent[mi] * (t[mi] + thr_extent[mi] * rep);
        }
        p.offsets.push_back(tensor.at(coord));
      }
    }
  }
  return p;
}

// Per index of a bijective layout, its top-level mode coordinates padded to `rank` with zeros.
std::vector<std::vector<std::int64_t>> coords_by_index(const Layout& l, int rank) {
  auto inv = l.inverse_table();
  std::vector<std::vector<std::int64_t>> out;
  out.reserve(inv.size());
  for (auto c1 : inv) {
    auto c = l.mode_coords(c1);
    c.resize(static_cast<size_t>(rank), 0);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

Partition tiled_copy_partition(const Layout& tensor, const Layout& thr, const Layout& val) {
  const int rank = tensor.rank();
  if (thr.rank() > rank || val.rank() > rank)
    throw ConfigError("thread layout " + thr.str() + " and value layout " + val.str() + " may not have more modes than the tensor " +
                      tensor.str());
  require_bijective(thr, "thread layout");
  require_bijective(val, "value layout");
  std::vector<std::int64_t> te, ve;
  for (int m = 0; m < rank; ++m) {
    te.push_back(mode_size_or_one(thr, m));
    ve.push_back(mode_size_or_one(val, m));
  }
  return build(tensor, te, coords_by_index(thr, rank), ve, coords_by_index(val, rank));
}

Partition local_partition(const Layout& tensor, const Layout& thr, const std::vector<bool>& use_mode) {
  if (static_cast<int>(use_mode.size()) != thr.rank())
    throw ConfigError("local_partition: the step needs one entry per thread-layout mode (" + std::to_string(thr.rank()) + ")");
  require_bijective(thr, "thread layout");
  std::vector<int> kept;
  for (int m = 0; m < thr.rank(); ++m)
    if (use_mode[static_cast<size_t>(m)]) kept.push_back(m);
  const int rank = tensor.rank();
  if (static_cast<int>(kept.size()) > rank)
    throw ConfigError("local_partition: " + std::to_string(kept.size()) + " thread modes kept for the " + std::to_string(rank) +
                      "-mode tensor " + tensor.str());
  // Thread coordinates along the kept modes land on tensor modes 0, 1, ...; the rest are whole.
  std::vector<std::int64_t> te(static_cast<size_t>(rank), 1);
  for (size_t k = 0; k < kept.size(); ++k) te[k] = mode_size(thr, kept[k]);
  auto all = coords_by_index(thr, thr.rank());
  std::vector<std::vector<std::int64_t>> threads;
  threads.reserve(all.size());
  for (const auto& c : all) {
    std::vector<std::int64_t> t(static_cast<size_t>(rank), 0);
    for (size_t k = 0; k < kept.size(); ++k) t[k] = c[static_cast<size_t>(kept[k])];
    threads.push_back(std::move(t));
  }
  std::vector<std::vector<std::int64_t>> one_value{std::vector<std::int64_t>(static_cast<size_t>(rank), 0)};
  return build(tensor, te, threads, std::vector<std::int64_t>(static_cast<size_t>(rank), 1), one_value);
}

std::vector<bool> parse_step(const std::string& text, int rank) {
  std::vector<bool> out;
  std::stringstream ss(text);
  std::string tok;
  while (std::getline(ss, tok, ',')) {
    auto b = tok.find_first_not_of(" _");
    auto e = tok.find_last_not_of(' ');
    std::string t = b == std::string::npos ? "" : tok.substr(b, e - b + 1);
    if (t == "1")
      out.push_back(true);
    else if (t == "X" || t == "x")
      out.push_back(false);
    else
      throw ConfigError("step '" + text + "': each entry is 1 (tile this mode) or X (take it whole)");
  }
  if (static_cast<int>(out.size()) != rank)
    throw ConfigError("step '" + text + "': needs " + std::to_string(rank) + " entries, one per thread-layout mode");
  return out;
}

}  // namespace gms

#include "access/access_pattern.h"

#include <fstream>
#include <map>
#include <sstream>

#include "common/error.h"
#include "common/files.h"

namespace gms {

const char* mem_space_name(MemSpace s) { return s == MemSpace::kShared ? "shared" : "global"; }
const char* access_op_name(AccessOp o) {
  switch (o) {
    case AccessOp::kLoad: return "ld";
    case AccessOp::kStore: return "st";
    case AccessOp::kLdmatrix: return "ldmatrix";
  }
  return "?";
}
MemSpace parse_mem_space(const std::string& s) {
  if (s == "shared") return MemSpace::kShared;
  if (s == "global") return MemSpace::kGlobal;
  throw ConfigError("--space '" + s + "': expected shared or global");
}
AccessOp parse_access_op(const std::string& s) {
  if (s == "ld") return AccessOp::kLoad;
  if (s == "st") return AccessOp::kStore;
  if (s == "ldmatrix") return AccessOp::kLdmatrix;
  throw ConfigError("--op '" + s + "': expected ld, st or ldmatrix");
}

void check_pattern(const AccessPattern& p) {
  const std::uint32_t w = p.width_bytes;
  if (p.op == AccessOp::kLdmatrix) {
    if (p.space != MemSpace::kShared) throw ConfigError("ldmatrix reads shared memory only (--space shared)");
    if (w != 16) throw ConfigError("ldmatrix reads 16-byte rows: --width 16B");
    if (p.ldsm_matrices != 1 && p.ldsm_matrices != 2 && p.ldsm_matrices != 4)
      throw ConfigError("ldmatrix takes .x1, .x2 or .x4");
  } else if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16) {
    throw ConfigError("--width " + std::to_string(w) + "B: a lane accesses 1, 2, 4, 8 or 16 bytes");
  }
  if (p.threads == 0 || p.threads > 1024) throw ConfigError("threads per CTA must be 1..1024");
  for (size_t i = 0; i < p.byte_offsets.size(); ++i) {
    const auto& row = p.byte_offsets[i];
    SIM_ASSERT(row.size() == p.threads, "instruction " << i << " has " << row.size() << " lanes for " << p.threads);
    for (std::uint32_t t = 0; t < p.threads; ++t) {
      std::int64_t off = row[t];
      if (off == kInactiveLane) continue;
      if (off < 0) throw ConfigError("thread " + std::to_string(t) + ", instruction " + std::to_string(i) + ": negative offset");
      if (off % w != 0)
        throw ConfigError("thread " + std::to_string(t) + ", instruction " + std::to_string(i) + ": byte offset " +
                          std::to_string(off) + " is not aligned to the " + std::to_string(w) + "-byte access");
      if (p.op == AccessOp::kLdmatrix && t % 32 >= 8 * p.ldsm_matrices)
        throw ConfigError("ldmatrix .x" + std::to_string(p.ldsm_matrices) + ": lane " + std::to_string(t % 32) +
                          " gives no row address (thread " + std::to_string(t) + ", instruction " + std::to_string(i) + ")");
    }
  }
}

AccessPattern pattern_from_partition(const Partition& part, const CopyShape& shape, MemSpace space, AccessOp op) {
  const std::uint32_t w = shape.width_bytes;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    throw ConfigError("--width " + std::to_string(w) + "B: a lane accesses 1, 2, 4, 8 or 16 bytes");
  if (shape.elem_bytes == 0 || shape.width_bytes % shape.elem_bytes != 0)
    throw ConfigError("--width " + std::to_string(shape.width_bytes) + "B is not a multiple of the " +
                      std::to_string(shape.elem_bytes) + "-byte element");
  const std::int64_t n = shape.width_bytes / shape.elem_bytes;
  if (part.values_per_thread % n != 0)
    throw ConfigError("each thread holds " + std::to_string(part.values_per_thread) + " values, not a multiple of the " +
                      std::to_string(n) + " one " + std::to_string(shape.width_bytes) + "-byte access moves");
  AccessPattern p;
  p.space = space;
  p.op = op;
  p.width_bytes = shape.width_bytes;
  p.threads = static_cast<std::uint32_t>(part.threads);
  if (op == AccessOp::kLdmatrix) p.ldsm_matrices = 4;
  const std::int64_t instructions = part.values_per_thread / n;
  p.byte_offsets.assign(static_cast<size_t>(instructions), std::vector<std::int64_t>(p.threads, kInactiveLane));
  for (std::int64_t t = 0; t < part.threads; ++t) {
    for (std::int64_t i = 0; i < instructions; ++i) {
      std::int64_t first = shape.swizzle(part.offset(t, i * n));
      for (std::int64_t k = 1; k < n; ++k) {
        std::int64_t e = shape.swizzle(part.offset(t, i * n + k));
        if (e != first + k) {
          std::ostringstream os;
          os << "thread " << t << ": values " << i * n << ".." << i * n + n - 1 << " are not contiguous in memory (value "
             << i * n + k << " at element " << e << ", expected " << first + k << "): a " << shape.width_bytes
             << "-byte copy needs " << n << " contiguous elements (choose another value layout or width)";
          throw ConfigError(os.str());
        }
      }
      std::int64_t bytes = shape.base_bytes + first * shape.elem_bytes;
      if (bytes % shape.width_bytes != 0) {
        std::ostringstream os;
        os << "thread " << t << ", access " << i << ": byte offset " << bytes << " is not aligned to the "
           << shape.width_bytes << "-byte copy";
        throw ConfigError(os.str());
      }
      p.byte_offsets[static_cast<size_t>(i)][static_cast<size_t>(t)] = bytes;
    }
  }
  check_pattern(p);
  return p;
}

void parse_lane_list(const std::string& text, const std::string& source_name, AccessPattern& p) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  bool header = false;
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> seen;
  auto fail = [&](const std::string& msg) { throw ConfigError(source_name + ":" + std::to_string(lineno) + ": " + msg); };
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    if (!header) {
      std::string h;
      for (char c : line)
        if (c != ' ' && c != '\t') h += c;
      if (h != "thread,instruction,byte_offset") fail("expected the header 'thread,instruction,byte_offset'");
      header = true;
      continue;
    }
    std::int64_t v[3];
    std::istringstream ls(line);
    std::string field;
    int k = 0;
    while (std::getline(ls, field, ',')) {
      if (k == 3) fail("expected 3 fields");
      size_t used = 0;
      try {
        v[k] = std::stoll(field, &used);
      } catch (const std::exception&) {
        fail("field " + std::to_string(k + 1) + " '" + field + "' is not an integer");
      }
      if (field.find_first_not_of(" \t", used) != std::string::npos)
        fail("field " + std::to_string(k + 1) + " '" + field + "' is not an integer");
      ++k;
    }
    if (k != 3) fail("expected 3 fields: thread,instruction,byte_offset");
    if (v[0] < 0 || v[0] >= p.threads) fail("thread " + std::to_string(v[0]) + " outside 0.." + std::to_string(p.threads - 1));
    // Lanes are stored densely (instructions x threads): bound them like a tile, 2^24 lanes.
    if (v[1] < 0 || (v[1] + 1) * static_cast<std::int64_t>(p.threads) > (std::int64_t{1} << 24))
      fail("instruction " + std::to_string(v[1]) + " outside 0.." + std::to_string((std::int64_t{1} << 24) / p.threads - 1) +
           " (at most 2^24 lanes in all)");
    if (v[2] < 0 || v[2] >= (std::int64_t{1} << 40)) fail("byte offset " + std::to_string(v[2]) + " outside 0..2^40");
    auto key = std::make_pair(static_cast<std::uint32_t>(v[0]), static_cast<std::uint32_t>(v[1]));
    if (auto it = seen.find(key); it != seen.end())
      fail("thread " + std::to_string(v[0]) + ", instruction " + std::to_string(v[1]) + " given twice (also line " +
           std::to_string(it->second) + ")");
    seen[key] = lineno;
    if (static_cast<size_t>(v[1]) >= p.byte_offsets.size())
      p.byte_offsets.resize(static_cast<size_t>(v[1]) + 1, std::vector<std::int64_t>(p.threads, kInactiveLane));
    p.byte_offsets[static_cast<size_t>(v[1])][static_cast<size_t>(v[0])] = v[2];
  }
  if (!header) throw ConfigError(source_name + ": empty lane list (expected the header 'thread,instruction,byte_offset')");
  if (seen.empty()) throw ConfigError(source_name + ": the lane list has no rows");
}

AccessPattern read_lane_list(const std::string& path, std::uint32_t threads_per_cta, MemSpace space, AccessOp op,
                             std::uint32_t width_bytes, std::uint32_t ldsm_matrices) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw ConfigError(path + ": cannot read the lane list");
  std::stringstream ss;
  ss << f.rdbuf();
  AccessPattern p;
  p.space = space;
  p.op = op;
  p.width_bytes = width_bytes;
  p.ldsm_matrices = ldsm_matrices;
  p.threads = threads_per_cta;
  if (threads_per_cta == 0 || threads_per_cta > 1024) throw ConfigError("--threads-per-cta must be 1..1024");
  parse_lane_list(ss.str(), path, p);
  check_pattern(p);
  return p;
}

std::string lane_list_csv(const AccessPattern& p) {
  std::ostringstream os;
  os << "thread,instruction,byte_offset\n";
  for (size_t i = 0; i < p.byte_offsets.size(); ++i)
    for (std::uint32_t t = 0; t < p.threads; ++t)
      if (p.byte_offsets[i][t] != kInactiveLane) os << t << "," << i << "," << p.byte_offsets[i][t] << "\n";
  return os.str();
}

void write_lane_list(const std::string& path, const AccessPattern& p) { write_file_atomically(path, lane_list_csv(p)); }

}  // namespace gms

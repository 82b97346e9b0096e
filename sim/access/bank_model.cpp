#include "access/bank_model.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "common/error.h"
#include "model/coalescer.h"

namespace gms {

namespace {

// How a warp instruction is cut into wavefronts (found lane by lane on H100 silicon and checked on
// held-out patterns, docs/shared-memory.md): lanes are taken in aligned blocks that deliver at most
// 256 bytes (16 lanes of 16 bytes, 32 of 8 or 4). A block needs address slots: per quad of lanes
// (four consecutive lanes, the texture unit's granule), one per distinct address for loads, one per
// active lane for stores (stores never merge). A block with more than 128 / width slots is split
// into its two halves. ldmatrix: one group per 8x16-byte matrix. Each group then takes as many
// wavefronts as its busiest bank has distinct 4-byte words.
struct LaneGroup {
  std::uint32_t first = 0, end = 0;  // lanes [first, end)
};

std::uint32_t address_slots(const AccessPattern& p, std::uint32_t width, const std::vector<std::int64_t>& row,
                            std::uint32_t lane0, std::uint32_t first, std::uint32_t end) {
  std::uint32_t slots = 0;
  for (std::uint32_t q = first; q < end; q += 4) {
    std::set<std::int64_t> distinct;
    std::uint32_t active = 0;
    for (std::uint32_t l = q; l < std::min(end, q + 4); ++l)
      if (row[lane0 + l] != kInactiveLane) {
        distinct.insert(row[lane0 + l] / width);
        ++active;
      }
    slots += p.op == AccessOp::kStore ? active : static_cast<std::uint32_t>(distinct.size());
  }
  return slots;
}

std::vector<LaneGroup> lane_groups(const AccessPattern& p, const BankGeometry& g, const std::vector<std::int64_t>& row,
                                   std::uint32_t lane0, std::uint32_t lanes) {
  std::vector<LaneGroup> groups;
  if (p.op == AccessOp::kLdmatrix) {
    for (std::uint32_t l = 0; l < lanes; l += 8) groups.push_back({l, std::min(lanes, l + 8)});
    return groups;
  }
  const std::uint32_t width = std::max<std::uint32_t>(p.width_bytes, g.bank_bytes);
  const std::uint32_t slot_limit = g.wavefront_bytes / width;
  const std::uint32_t block = std::min(g.warp_size, 2 * g.wavefront_bytes / width);
  for (std::uint32_t b = 0; b < lanes; b += block) {
    const std::uint32_t end = std::min(lanes, b + block);
    if (address_slots(p, width, row, lane0, b, end) <= slot_limit) {
      groups.push_back({b, end});
    } else {
      const std::uint32_t mid = b + block / 2;
      groups.push_back({b, std::min(mid, end)});
      if (mid < end) groups.push_back({mid, end});
    }
  }
  return groups;
}

void analyse_shared(const AccessPattern& p, const BankGeometry& g, const std::vector<std::int64_t>& row,
                    std::uint32_t lane0, std::uint32_t lanes, InstructionAccess& r) {
  const std::uint32_t words_per_lane = std::max<std::uint32_t>(1, p.width_bytes / g.bank_bytes);
  std::set<std::uint32_t> banks_all;
  for (const LaneGroup& grp : lane_groups(p, g, row, lane0, lanes)) {
    // bank -> distinct words of this group
    std::map<std::uint32_t, std::set<std::int64_t>> bank_words;
    for (std::uint32_t l = grp.first; l < grp.end; ++l) {
      std::int64_t off = row[lane0 + l];
      if (off == kInactiveLane) continue;
      std::int64_t word0 = off / g.bank_bytes;
      for (std::uint32_t w = 0; w < words_per_lane; ++w) {
        auto bank = static_cast<std::uint32_t>((word0 + w) % g.banks);
        bank_words[bank].insert(word0 + w);
        banks_all.insert(bank);
      }
      r.lane_bank[l] = static_cast<int>(word0 % g.banks);
    }
    if (bank_words.empty()) continue;
    std::uint32_t worst = 0;
    for (const auto& [bank, words] : bank_words) worst = std::max(worst, static_cast<std::uint32_t>(words.size()));
    ++r.phases;
    r.wavefronts += worst;
    r.conflict_ways = std::max(r.conflict_ways, worst);
    for (std::uint32_t l = grp.first; l < grp.end; ++l) {
      std::int64_t off = row[lane0 + l];
      if (off == kInactiveLane) continue;
      std::int64_t word0 = off / g.bank_bytes;
      for (std::uint32_t w = 0; w < words_per_lane; ++w)
        if (bank_words[static_cast<std::uint32_t>((word0 + w) % g.banks)].size() > 1) r.lane_conflicted[l] = true;
    }
  }
  r.banks_touched = static_cast<std::uint32_t>(banks_all.size());
}

void analyse_global(const AccessPattern& p, const BankGeometry& g, const std::vector<std::int64_t>& row,
                    std::uint32_t lane0, std::uint32_t lanes, InstructionAccess& r) {
  std::vector<Addr> addrs(lanes, 0);
  std::uint64_t active = 0;
  for (std::uint32_t l = 0; l < lanes; ++l) {
    std::int64_t off = row[lane0 + l];
    if (off == kInactiveLane) continue;
    addrs[l] = static_cast<Addr>(off);
    active |= std::uint64_t{1} << l;
    r.lane_bank[l] = static_cast<int>((static_cast<Addr>(off) % g.line_bytes) / g.sector_bytes);
  }
  if (active == 0) return;
  auto lines = coalesce(addrs, active, p.width_bytes, g.line_bytes, g.sector_bytes);
  r.requests = 1;  // one request per warp instruction (Volta and later)
  for (const auto& lr : lines) r.sectors += static_cast<std::uint32_t>(std::popcount(lr.sectors));
}

}  // namespace

InstructionAccess analyse_instruction(const AccessPattern& p, std::uint32_t warp, std::uint32_t instruction,
                                      const BankGeometry& g) {
  SIM_ASSERT(instruction < p.instructions() && warp < p.warps(), "warp " << warp << " instruction " << instruction);
  InstructionAccess r;
  r.warp = warp;
  r.instruction = instruction;
  const auto& row = p.byte_offsets[instruction];
  const std::uint32_t lane0 = warp * g.warp_size;
  const std::uint32_t lanes = std::min(g.warp_size, p.threads - lane0);
  r.lane_bank.assign(g.warp_size, -1);
  r.lane_conflicted.assign(g.warp_size, false);
  for (std::uint32_t l = 0; l < lanes; ++l) r.active_lanes += row[lane0 + l] != kInactiveLane;
  if (r.active_lanes == 0) return r;
  if (p.space == MemSpace::kShared)
    analyse_shared(p, g, row, lane0, lanes, r);
  else
    analyse_global(p, g, row, lane0, lanes, r);
  return r;
}

std::vector<std::string> access_metric_names(MemSpace space, AccessOp op) {
  if (space == MemSpace::kShared) {
    std::string dir = op == AccessOp::kStore ? "st" : "ld";
    return {op == AccessOp::kLdmatrix ? "smsp__sass_inst_executed_op_ldsm.sum" : "smsp__sass_inst_executed_op_shared_" + dir + ".sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + dir + ".sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + dir + ".sum"};
  }
  std::string dir = op == AccessOp::kStore ? "st" : "ld";
  return {"smsp__sass_inst_executed_op_global_" + dir + ".sum", "l1tex__t_requests_pipe_lsu_mem_global_op_" + dir + ".sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_" + dir + ".sum"};
}

AccessAnalysis analyse_access(const AccessPattern& p, const BankGeometry& g) {
  AccessAnalysis a;
  for (std::uint32_t w = 0; w < p.warps(); ++w) {
    for (std::uint32_t i = 0; i < p.instructions(); ++i) {
      InstructionAccess r = analyse_instruction(p, w, i, g);
      // A warp with no active lane branches around the instruction (the replay kernel does too).
      // ldmatrix is .sync.aligned: every lane executes it, whatever lanes give addresses.
      if (r.active_lanes == 0) continue;
      ++a.totals.instructions;
      a.totals.wavefronts += r.wavefronts;
      a.totals.bank_conflicts += r.bank_conflicts();
      a.totals.requests += r.requests;
      a.totals.sectors += r.sectors;
      a.instructions.push_back(std::move(r));
    }
  }
  auto names = access_metric_names(p.space, p.op);
  a.metrics.emplace_back(names[0], static_cast<double>(a.totals.instructions));
  if (p.space == MemSpace::kShared) {
    a.metrics.emplace_back(names[1], static_cast<double>(a.totals.wavefronts));
    a.metrics.emplace_back(names[2], static_cast<double>(a.totals.bank_conflicts));
  } else {
    a.metrics.emplace_back(names[1], static_cast<double>(a.totals.requests));
    a.metrics.emplace_back(names[2], static_cast<double>(a.totals.sectors));
  }
  return a;
}

}  // namespace gms

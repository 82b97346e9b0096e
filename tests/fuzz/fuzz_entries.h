#pragma once
// Fuzz entry points for the parsers of the SM data path: each takes arbitrary bytes, must never
// crash or assert, and checks a round trip where the input parses. libFuzzer drives them in
// tests/fuzz/*_fuzz.cpp (clang); tests/fuzz/fuzz_smoke_test.cpp runs them on seeded mutations in
// every CI run.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "access/access_pattern.h"
#include "access/bank_model.h"
#include "asm/register_banks.h"
#include "asm/sass_issue.h"
#include "asm/shared_read_exposure.h"
#include "common/error.h"
#include "layout/layout.h"
#include "layout/swizzle.h"
#include "trace/accelsim_trace.h"
#include "workload/local_program.h"

#include <memory>
#include <sstream>

namespace gms::fuzz {

// A parsed layout prints back to text that parses to the same layout.
inline void layout_string(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    Layout l = parse_layout(text);
    Layout again = parse_layout(l.str());
    SIM_ASSERT(again.str() == l.str(), "layout round trip: " << l.str() << " -> " << again.str());
    if (l.size() <= 4096) (void)l.injective();
  } catch (const ConfigError&) {
  }
  try {
    Swizzle s = parse_swizzle(text);
    for (std::int64_t i = 0; i < 256; ++i) SIM_ASSERT(s(s(i)) == i, "swizzle " << s.str() << " is not an involution at " << i);
  } catch (const ConfigError&) {
  }
}

// A local program either fails with ConfigError or prints back to text that parses to itself.
inline void local_program_text(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const LocalProgram p = parse_local_program(text);
    const LocalProgram again = parse_local_program(p.str());
    SIM_ASSERT(again.str() == p.str() && again.stored_lines == p.stored_lines && again.loaded_lines == p.loaded_lines &&
                   again.w_loads == p.w_loads && again.line_end == p.line_end,
               "local program round trip: " << p.str() << " -> " << again.str());
  } catch (const ConfigError&) {
  }
}

// A lane list either fails with ConfigError or analyses; what it writes back parses to itself.
inline void lane_list(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  AccessPattern p;
  p.threads = 64;
  p.width_bytes = size > 0 && data[0] % 2 ? 16 : 4;
  try {
    parse_lane_list(text, "fuzz.csv", p);
    check_pattern(p);
    if (p.instructions() > 64) return;  // keep an iteration cheap
    AccessAnalysis a = analyse_access(p);
    SIM_ASSERT(a.totals.wavefronts >= a.totals.instructions, "fewer wavefronts than instructions");
    AccessPattern q;
    q.threads = p.threads;
    q.width_bytes = p.width_bytes;
    parse_lane_list(lane_list_csv(p), "again.csv", q);
    SIM_ASSERT(q.byte_offsets == p.byte_offsets, "lane list round trip changed the pattern");
  } catch (const ConfigError&) {
  }
}

// An Accel-Sim kernel trace either fails with ConfigError or streams to its end; every instruction it
// holds has one address per active lane and prints back to text that parses to itself.
inline void accelsim_trace(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    TraceKernelReader r(std::make_unique<std::istringstream>(text), "fuzz.traceg");
    TraceCta cta;
    int blocks = 0;
    while (r.next_cta(cta) && ++blocks < 64)
      for (const auto& w : cta.warps)
        for (const auto& in : w.instrs) {
          SIM_ASSERT(in.mem_width == 0 || static_cast<int>(in.addresses.size()) == in.active_lanes(),
                     "addresses " << in.addresses.size() << " for " << in.active_lanes() << " lanes");
          std::string line = format_trace_instruction(in);
          SIM_ASSERT(parse_trace_instruction(line, "again") == in, "trace instruction round trip: " << line);
        }
  } catch (const ConfigError&) {
  }
}

// A SASS listing either fails with ConfigError or decodes every control field in range; the
// instructions it holds, written as an ncu source export with made-up counts, give those counts back;
// the same bytes read as such an export give counts or a ConfigError.
inline void sass_listing(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  try {
    auto ins = parse_sass_instructions(lines, 1, static_cast<int>(lines.size()), "fuzz.sass");
    for (const auto& i : ins)
      SIM_ASSERT(i.stall >= 0 && i.stall <= 15 && i.write_barrier <= 7 && i.read_barrier <= 7 && i.wait_mask < 64,
                 "control fields out of range at line " << i.line);
    // The walk over any listing: no wait without latency, and never less wait with more of it.
    SIM_ASSERT(shared_read_wait(ins, 0) == 0, "shared-read wait at latency 0");
    SIM_ASSERT(shared_read_wait(ins, 64) >= shared_read_wait(ins, 32), "shared-read wait fell with latency");
    // Bank conflicts over the listing read as a loop (the reuse cache from the ALU instruction before each): never
    // negative, never more than one per operand, and their sum is the loop's.
    const std::vector<int> conflicts = loop_register_bank_conflicts_each(ins);
    int sum = 0;
    for (size_t i = 0; i < ins.size(); ++i) {
      const int c = conflicts[i];
      SIM_ASSERT(c >= 0 && c <= static_cast<int>(std::count(ins[i].operands.begin(), ins[i].operands.end(), ',')),
                 "bank conflicts " << c << " for '" << ins[i].operands << "'");
      sum += c;
    }
    SIM_ASSERT(sum == loop_register_bank_conflicts(ins), "the loop's conflicts are not the sum of its instructions'");
    if (!ins.empty()) {
      std::string csv = "\"Kernel Name\",\"k\"\n\"Address\",\"Source\",\"Instructions Executed\"\n";
      for (size_t i = 0; i < ins.size(); ++i)
        csv += "\"0x" + std::to_string(i) + "\",\"  " + ins[i].opcode + " R1 ;\",\"" + std::to_string(i * 7) + "\"\n";
      try {
        auto counts = executed_counts(csv, ins, "fuzz.csv");
        for (size_t i = 0; i < counts.size(); ++i) SIM_ASSERT(counts[i] == static_cast<double>(i * 7), "count " << i);
      } catch (const ConfigError&) {  // an opcode with a quote or comma does not survive the CSV cell
      }
    }
    (void)executed_counts(text, ins, "fuzz.csv");
  } catch (const ConfigError&) {
  }
}

}  // namespace gms::fuzz

#include "asm/shared_read_exposure.h"

#include <algorithm>
#include <array>
#include <string>

namespace gms {
namespace {

constexpr int kScoreboards = 6;  // write_barrier 0-5; 7 = none
constexpr int kWarmIterations = 2;

bool is_read(const SassInstruction& s, VariableRead kind) {
  if (kind == VariableRead::kSpecialRegister) {
    const std::string base = s.opcode.substr(0, s.opcode.find('.'));
    return base == "S2R" || base == "S2UR";  // CS2R is fixed-latency: its wait is in the stall counts
  }
  const IssueClass c = classify_issue(s.opcode);
  return c == IssueClass::kSharedLoad || c == IssueClass::kLdsm;
}

// S(latency) at two latencies as its slope and where it starts.
SharedReadExposure exposure_between(const std::vector<SassInstruction>& body, VariableRead kind, double lo_latency,
                                    double hi_latency) {
  const double lo = read_wait(body, lo_latency, kind), hi = read_wait(body, hi_latency, kind);
  SharedReadExposure e;
  e.exposed_reads = (hi - lo) / (hi_latency - lo_latency);
  if (e.exposed_reads > 0) e.hidden_cycles = std::max(0.0, hi_latency - hi / e.exposed_reads);
  else e.exposed_reads = 0;
  return e;
}

}  // namespace

double read_wait(const std::vector<SassInstruction>& body, double latency, VariableRead kind) {
  std::array<double, kScoreboards> released{};
  double t = 0, wait = 0;
  // The first iterations fill the loop's pipeline (reads issued before the back edge); the last one
  // is the steady state.
  for (int it = 0; it <= kWarmIterations; ++it) {
    wait = 0;
    for (const SassInstruction& s : body) {
      double issue = t;
      for (int k = 0; k < kScoreboards; ++k)
        if (s.wait_mask & (1 << k)) issue = std::max(issue, released[static_cast<size_t>(k)]);
      wait += issue - t;
      if (s.write_barrier < kScoreboards && is_read(s, kind))
        released[static_cast<size_t>(s.write_barrier)] = std::max(released[static_cast<size_t>(s.write_barrier)], issue + latency);
      t = issue + std::max(1, s.stall);  // a stall count of 0 still spends the issue cycle
    }
  }
  return wait;
}

SharedReadExposure shared_read_exposure(const std::vector<SassInstruction>& body) {
  return exposure_between(body, VariableRead::kShared, 32, 64);
}

SharedReadExposure special_read_exposure(const std::vector<SassInstruction>& body) {
  return exposure_between(body, VariableRead::kSpecialRegister, 16, 32);
}

}  // namespace gms

#include "asm/shared_read_exposure.h"

#include <algorithm>
#include <array>

namespace gms {
namespace {

constexpr int kScoreboards = 6;  // write_barrier 0-5; 7 = none
constexpr int kWarmIterations = 2;

bool is_shared_read(const SassInstruction& s) {
  const IssueClass c = classify_issue(s.opcode);
  return c == IssueClass::kSharedLoad || c == IssueClass::kLdsm;
}

}  // namespace

double shared_read_wait(const std::vector<SassInstruction>& body, double latency) {
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
      if (s.write_barrier < kScoreboards && is_shared_read(s))
        released[static_cast<size_t>(s.write_barrier)] = std::max(released[static_cast<size_t>(s.write_barrier)], issue + latency);
      t = issue + std::max(1, s.stall);  // a stall count of 0 still spends the issue cycle
    }
  }
  return wait;
}

SharedReadExposure shared_read_exposure(const std::vector<SassInstruction>& body) {
  constexpr double kIdle = 32, kBusy = 64;
  const double lo = shared_read_wait(body, kIdle), hi = shared_read_wait(body, kBusy);
  SharedReadExposure e;
  e.exposed_reads = (hi - lo) / (kBusy - kIdle);
  if (e.exposed_reads > 0) e.hidden_cycles = std::max(0.0, kBusy - hi / e.exposed_reads);
  else e.exposed_reads = 0;
  return e;
}

}  // namespace gms

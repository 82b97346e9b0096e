// Pipelined requests (run --threads 2+; issue 13, item 3): every request in one FIFO in issue order, timed by
// time_request - the call the issuing access would have made at once - on a worker thread or when the engine
// takes it, so the result is the one booked at issue (memory_system.h, set_pipelined; docs/performance.md, "The
// memory side on a worker thread"). The worker's side is time_request and the prefetches; the rest is the SM's.
#include <algorithm>

#include "common/error.h"
#include "model/memory_system.h"

namespace gms {

void MemorySystem::set_pipelined(bool on) {
  SIM_ASSERT(!on || (!reads_in_order_ && !writes_in_order_), "pipelined requests with an l2.*_in_arrival_order switch");
  SIM_ASSERT(!requests_queued(), "pipelining switched with " << pipeline_->size() << " requests queued");
  pipelined_ = on;
  if (!on) {
    pipeline_.reset();
    l1_hold_pending_.clear();
    return;
  }
  pipeline_ = std::make_unique<RequestPipeline<Queued>>();
  pipeline_->set_time_fn([this](Queued& q, const Queued* far, const Queued* near) {
    // The sets of a request a few ahead, then - their fingerprints in the host's cache by then - the records of
    // a nearer one's lines: a lookup's two dependent host misses, both before it is timed.
    if (far) prefetch_l2_sets(placed(far->sm, far->request), far->request.line, far->depart);
    if (near) prefetch_l2_records(placed(near->sm, near->request), near->request.line);
    q.done = time_request(q.sm, q.depart, q.request, &q.back);
  });
  l1_hold_pending_.assign(l1_ ? l1_->slots() : 0, 0);
  l1_holds_applied_ = pipeline_->pushed();
}

void MemorySystem::start_pipeline_worker() {
  if (pipeline_) pipeline_->start_worker();
}
void MemorySystem::stop_pipeline_worker() {
  if (pipeline_) pipeline_->stop_worker();
}

void MemorySystem::publish_requests(Tick now) {
  for (std::uint64_t s = pipeline_->published(); s < pipeline_->pushed(); ++s) pipeline_->at(s).issued = now;
  pipeline_->publish();
}

Tick MemorySystem::oldest_queued_issue() const {
  SIM_ASSERT(pipeline_->completed() < pipeline_->published(), "the oldest queued request is not published");
  return pipeline_->at(pipeline_->completed()).issued;
}

Tick MemorySystem::time_request(int sm, Tick depart, const OutboundRequest& r, Tick* back) {
  switch (r.kind) {
    case Outbound::kRead:
      return l2_read_line(sm, r.line, r.place, r.mask, depart, r.cta, r.hint, r.may_merge);
    case Outbound::kWrite:
    case Outbound::kWriteBack:
      return l2_write_line(sm, r.line, r.mask, depart, r.input_bytes, r.local);
    case Outbound::kReduce: {
      Reduced red{0, 0};
      reduce_line(sm, r.line, r.mask, r.at, red);  // at its port time, as at issue (its FIFO place may be later)
      *back = red.back;
      return red.taken;
    }
  }
  return 0;
}

void MemorySystem::apply_l1_hold(std::uint64_t seq) {
  if (pipeline_->at(seq).request.l1_slot == kNoSlot) return;  // no need to wait for its timing
  const Queued& q = pipeline_->timed(seq);
  raise_l1_fill(q.request, q.done);
}

bool MemorySystem::take_next_queued(Completed* out) {
  const std::uint64_t seq = pipeline_->completed();
  const Queued& q = pipeline_->front();
  if (seq >= l1_holds_applied_) {
    if (l1_) apply_l1_hold(seq);
    l1_holds_applied_ = seq + 1;
  }
  const std::uint32_t load = q.request.load;
  const Tick done = q.done, back = q.back;
  pipeline_->pop_front();
  return request_done(load, done, back, out);
}

void MemorySystem::prefetch_l2_records(const LinePlace& p, Addr line) const {
  l2_->prefetch_record(p.home, p.set, line);
  if (p.first != p.home) l2_->prefetch_record(p.first, p.set, line);
}

}  // namespace gms

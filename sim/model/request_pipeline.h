#pragma once
// Requests handed from the SM side to the memory side in issue order (issue 13, item 3: one simulation
// on two cores). The SM side pushes entries and publishes them; the memory side times them, strictly in
// push order, either when the SM side asks for one (no worker) or ahead of it on a worker thread of its
// own; the SM side then completes them, in the same order. The timing function sees the same entries
// in the same order either way, so the simulated result does not depend on the thread count - as long
// as it reads and writes only memory-side state (the caller's contract).
//
// A ring of 2^k entries: the SM side pushes only where the oldest uncompleted entry leaves room
// (room()), so an entry is never rewritten while the worker may read it.
#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "common/error.h"

namespace gms {

template <class Entry>
class RequestPipeline {
 public:
  // Times one entry. `far` and `near`: the entries kFarAhead and kNearAhead later where they are published
  // (hints: their state can be fetched into the host's cache in two steps while this one is timed).
  using TimeFn = std::function<void(Entry&, const Entry* far, const Entry* near)>;
  static constexpr std::uint64_t kFarAhead = 16, kNearAhead = 6;

  explicit RequestPipeline(int capacity_log2 = 16)
      : ring_(std::size_t{1} << capacity_log2), mask_((std::uint64_t{1} << capacity_log2) - 1) {}
  RequestPipeline(const RequestPipeline&) = delete;
  RequestPipeline& operator=(const RequestPipeline&) = delete;
  ~RequestPipeline() { stop_worker(); }

  void set_time_fn(TimeFn fn) { time_ = std::move(fn); }
  // From now on, published entries are timed on a thread of their own.
  void start_worker() {
    SIM_ASSERT(!worker_.joinable(), "the request pipeline's worker started twice");
    SIM_ASSERT(time_, "the request pipeline's worker started without a timing function");
    stop_.store(false, std::memory_order_relaxed);
    timed_.store(timed_inline_, std::memory_order_relaxed);
    timed_seen_ = timed_inline_;
    worker_ = std::thread([this] { work(); });
  }
  // Times what was published and ends the worker (entries stay, timed, for the SM side to complete).
  void stop_worker() {
    if (!worker_.joinable()) return;
    stop_.store(true, std::memory_order_seq_cst);
    wake_.fetch_add(1, std::memory_order_seq_cst);
    wake_.notify_one();
    worker_.join();
    timed_inline_ = timed_seen_ = timed_.load(std::memory_order_acquire);
  }

  // SM side. Entries pushed and not yet completed.
  std::size_t size() const { return static_cast<std::size_t>(pushed_ - completed_); }
  bool empty() const { return pushed_ == completed_; }
  // Whether `n` more entries fit.
  bool room(std::size_t n) const { return size() + n <= ring_.size(); }
  std::uint64_t pushed() const { return pushed_; }
  std::uint64_t completed() const { return completed_; }
  std::uint64_t published() const { return published_seen_; }
  Entry& push() {
    SIM_ASSERT(room(1), "request pipeline full: " << size() << " entries uncompleted (the caller keeps room)");
    return ring_[pushed_++ & mask_];
  }
  Entry& at(std::uint64_t seq) { return ring_[seq & mask_]; }
  const Entry& at(std::uint64_t seq) const { return ring_[seq & mask_]; }
  // Entries pushed so far may be timed.
  void publish() {
    if (published_seen_ == pushed_) return;
    published_seen_ = pushed_;
    published_.store(pushed_, std::memory_order_seq_cst);
    if (worker_.joinable() && worker_idle_.load(std::memory_order_seq_cst)) {
      wake_.fetch_add(1, std::memory_order_seq_cst);
      wake_.notify_one();
    }
  }
  // Returns entry `seq` (pushed) once it is timed: published first if it was not, timed here where there is
  // no worker, waited for otherwise.
  Entry& timed(std::uint64_t seq) {
    SIM_ASSERT(seq < pushed_, "entry " << seq << " asked for, " << pushed_ << " pushed");
    if (seq >= published_seen_) publish();
    if (!worker_.joinable()) {
      for (; timed_inline_ <= seq; ++timed_inline_) time_one(timed_inline_, published_seen_);
      return at(seq);
    }
    if (timed_seen_ > seq) return at(seq);
    for (int spin = 0;; ++spin) {
      timed_seen_ = timed_.load(std::memory_order_acquire);
      if (timed_seen_ > seq) return at(seq);
      if (spin < kSpins) {
        pause();
        continue;
      }
      if (spin < kSpins + kYields) {  // the worker may share this core: let it run (costs this side, not the worker)
        std::this_thread::yield();
        continue;
      }
      // The worker is far behind, or not running: sleep until it has timed this one (a wake-up costs the worker
      // a system call, so only after the yields).
      sm_wants_.store(seq + 1, std::memory_order_seq_cst);
      const std::uint64_t seen = timed_.load(std::memory_order_seq_cst);
      if (seen <= seq) timed_.wait(seen, std::memory_order_acquire);
      sm_wants_.store(0, std::memory_order_relaxed);
    }
  }
  // The oldest entry, timed; pop_front() completes it.
  Entry& front() { return timed(completed_); }
  void pop_front() {
    SIM_ASSERT(completed_ < pushed_, "completing an entry of an empty request pipeline");
    ++completed_;
  }
  // Every pushed entry timed (the memory side's state then answers for all of them: counters, end of a kernel).
  void time_all() {
    if (pushed_ > completed_) timed(pushed_ - 1);
  }

 private:
  // A side that waits spins a few microseconds (pauses), then yields its core a while (a machine busy with other
  // work - CI's parallel tests - would otherwise lose whole time slices to spinning), then sleeps.
  static constexpr int kSpins = 256, kYields = 4096;
  static void pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  void time_one(std::uint64_t t, std::uint64_t published) {
    time_(at(t), t + kFarAhead < published ? &at(t + kFarAhead) : nullptr,
          t + kNearAhead < published ? &at(t + kNearAhead) : nullptr);
  }
  void work() {
    std::uint64_t t = timed_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t p = published_.load(std::memory_order_acquire);
      if (t == p) {
        if (stop_.load(std::memory_order_acquire) && published_.load(std::memory_order_acquire) == t) return;
        // Idle: spin a while for the SM side's next publication, then sleep on `wake_`.
        bool more = false;
        for (int spin = 0; spin < kSpins + kYields && !more; ++spin) {
          if (spin < kSpins)
            pause();
          else
            std::this_thread::yield();
          more = published_.load(std::memory_order_acquire) != t;
        }
        if (more) continue;
        const std::uint32_t w = wake_.load(std::memory_order_seq_cst);
        worker_idle_.store(true, std::memory_order_seq_cst);
        if (published_.load(std::memory_order_seq_cst) == t && !stop_.load(std::memory_order_seq_cst)) wake_.wait(w);
        worker_idle_.store(false, std::memory_order_relaxed);
        continue;
      }
      for (; t < p; ++t) {
        time_one(t, p);
        if ((t & 31) == 31) release(t + 1);
      }
      release(t);
    }
  }
  void release(std::uint64_t t) {
    timed_.store(t, std::memory_order_seq_cst);
    const std::uint64_t wants = sm_wants_.load(std::memory_order_seq_cst);
    if (wants != 0 && t >= wants) timed_.notify_one();
  }

  std::vector<Entry> ring_;
  const std::uint64_t mask_;
  TimeFn time_;
  // SM side only (timed_inline_: entries timed, where there is no worker).
  std::uint64_t pushed_ = 0, completed_ = 0, published_seen_ = 0, timed_seen_ = 0, timed_inline_ = 0;
  // Shared with the worker, each on a host cache line of its own.
  alignas(64) std::atomic<std::uint64_t> published_{0};
  alignas(64) std::atomic<std::uint64_t> timed_{0};
  alignas(64) std::atomic<std::uint32_t> wake_{0};
  std::atomic<bool> worker_idle_{false};
  alignas(64) std::atomic<std::uint64_t> sm_wants_{0};  // 1 + the entry the SM side sleeps on (0: none)
  std::atomic<bool> stop_{false};
  std::thread worker_;
};

}  // namespace gms

#include "workload/cta_read_ahead.h"

#include <utility>

#include "common/error.h"

namespace gms {

std::size_t program_bytes(const CtaProgram& p) {
  std::size_t bytes = p.addresses.capacity() * sizeof(Addr);
  for (const auto& w : p.warps) bytes += w.capacity() * sizeof(Instr);
  return bytes;
}

CtaReadAhead::CtaReadAhead(Make make, std::int64_t count, int depth, std::size_t max_bytes)
    : make_(std::move(make)), count_(count), depth_(static_cast<std::size_t>(depth > 0 ? depth : 1)),
      max_bytes_(max_bytes), worker_([this] { work(); }) {}

CtaReadAhead::~CtaReadAhead() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void CtaReadAhead::work() {
  for (std::int64_t i = 0; i < count_; ++i) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || ready_.empty() || (ready_.size() < depth_ && ready_bytes_ < max_bytes_); });
      if (stop_) return;
    }
    Made m{i, nullptr, nullptr};
    try {
      m.program = make_(i);
      m.bytes = program_bytes(*m.program);
    } catch (...) {  // a malformed trace's ConfigError, an allocation failure: handed over where the replay asks for block i
      m.error = std::current_exception();
    }
    const bool failed = m.error != nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ready_bytes_ += m.bytes;
      ready_.push_back(std::move(m));
    }
    changed_.notify_all();
    if (failed) return;  // the blocks after a bad one are not read
  }
}

std::unique_ptr<CtaProgram> CtaReadAhead::take(std::int64_t launch_index) {
  SIM_ASSERT(launch_index == taken_ && launch_index < count_,
             "the replay asked for block " << launch_index << "; next in order is " << taken_ << " of " << count_);
  Made m;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return !ready_.empty(); });
    m = std::move(ready_.front());
    ready_.pop_front();
    ready_bytes_ -= m.bytes;
  }
  changed_.notify_all();
  SIM_ASSERT(m.index == launch_index, "the worker made block " << m.index << " where " << launch_index << " was due");
  ++taken_;
  if (m.error) std::rethrow_exception(m.error);
  return std::move(m.program);
}

}  // namespace gms

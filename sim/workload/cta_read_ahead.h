#pragma once
// Reads and decodes a trace kernel's thread blocks ahead of the replay, on a thread of its own (run
// --threads 2+). The replay still takes them one at a time in launch order and gets exactly what it
// would have made itself - making a block's program is a function of the block and its launch index
// alone - so a simulation is bit-identical with or without it; what the second core buys is the
// parsing and decoding, ~20-30 % of a trace replay (docs/performance.md).
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "workload/resident_ctas.h"

namespace gms {

// What a decoded block holds in memory (its instructions and lane addresses).
std::size_t program_bytes(const CtaProgram& p);

class CtaReadAhead {
 public:
  // `make(i)` makes block i's program (it may throw ConfigError: a truncated or malformed trace). It is
  // called for i = 0, 1, ... count - 1 in order, on the worker thread, while fewer than `depth` blocks and
  // fewer than `max_bytes` of their programs wait to be taken (at least one always may: a block larger
  // than the budget still comes).
  using Make = std::function<std::unique_ptr<CtaProgram>(std::int64_t launch_index)>;
  CtaReadAhead(Make make, std::int64_t count, int depth, std::size_t max_bytes);
  ~CtaReadAhead();  // stops the worker (a replay may end before the last block: cta_limit, an error)
  CtaReadAhead(const CtaReadAhead&) = delete;
  CtaReadAhead& operator=(const CtaReadAhead&) = delete;

  // Block `launch_index`'s program: the next in launch order (asserted). Waits for the worker when it
  // is not made yet; rethrows, here, whatever making it threw.
  std::unique_ptr<CtaProgram> take(std::int64_t launch_index);

 private:
  struct Made {
    std::int64_t index = -1;
    std::unique_ptr<CtaProgram> program;
    std::exception_ptr error;
    std::size_t bytes = 0;  // the program's instructions and lane lists
  };
  void work();

  Make make_;
  const std::int64_t count_;
  const std::size_t depth_, max_bytes_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Made> ready_;
  std::size_t ready_bytes_ = 0;
  std::int64_t taken_ = 0;
  bool stop_ = false;
  std::thread worker_;  // last: started once the rest is in place
};

}  // namespace gms

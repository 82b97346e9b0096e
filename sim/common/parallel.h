#pragma once
// Runs fn(i) for i in [0, n) on `jobs` threads; `done(i)` runs under a lock as each finishes. The
// first exception thrown by fn stops the hand-out of further work and is rethrown to the caller.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gms {

inline void parallel_for(std::size_t n, unsigned jobs, const std::function<void(std::size_t)>& fn,
                         const std::function<void(std::size_t)>& done) {
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::exception_ptr failure;
  auto worker = [&] {
    for (std::size_t i; (i = next++) < n;) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!failure) failure = std::current_exception();
        next = n;
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      done(i);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::max<std::size_t>(1, std::min<std::size_t>(jobs, n)); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

// Maps compute(i), i in [0, n), to its results in index order, `jobs` at a time. The default runs
// on this process's threads; the CLI swaps in one that also splits the work over MPI ranks
// (sim/dist), and every caller gets the same results either way.
using ParallelMap = std::function<std::vector<std::string>(std::size_t n, unsigned jobs,
                                                           const std::function<std::string(std::size_t)>& compute)>;

inline std::vector<std::string> local_parallel_map(std::size_t n, unsigned jobs,
                                                   const std::function<std::string(std::size_t)>& compute) {
  std::vector<std::string> out(n);
  parallel_for(n, jobs, [&](std::size_t i) { out[i] = compute(i); }, [](std::size_t) {});
  return out;
}

}  // namespace gms

#pragma once
// Requests that have left their SMs, not yet taken by the memory side: one FIFO per SM, taken across
// SMs in order of departure. An SM's port serves its requests in issue order, so each SM's departures
// only grow and its FIFO is already sorted; the queue keeps one entry per SM with requests waiting -
// the SM's oldest - in a min-heap of (departure, SM). Ties go to the lower SM, then to the older
// request of one SM: the order is a function of the requests alone, whatever order the SMs were
// handed them in.
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "common/types.h"
#include "model/event_queue.h"

namespace gms {

template <class Request>
class DepartureQueue {
 public:
  explicit DepartureQueue(int sms = 0) : fifo_(static_cast<std::size_t>(sms)), last_(static_cast<std::size_t>(sms), 0) {}

  bool empty() const { return heads_.empty(); }
  std::size_t size() const { return size_; }
  // The latest departure `sm` has pushed (0: none yet): a request that must wait behind it leaves no sooner.
  Tick latest(int sm) const { return last_[static_cast<std::size_t>(sm)]; }
  // The earliest departure waiting (kNever: none).
  Tick next() const { return heads_.empty() ? kNever : heads_.top().first; }
  int next_sm() const { return static_cast<int>(heads_.top().second); }

  void push(int sm, Tick depart, const Request& r) {
    Fifo& q = fifo_[static_cast<std::size_t>(sm)];
    SIM_ASSERT(depart >= last_[static_cast<std::size_t>(sm)],
               "SM " << sm << " sends a request departing at " << depart << " after one departing at "
                     << last_[static_cast<std::size_t>(sm)] << ": its port must serve in issue order");
    last_[static_cast<std::size_t>(sm)] = depart;
    if (q.empty()) heads_.emplace(depart, static_cast<std::uint32_t>(sm));
    q.items.push_back({depart, r});
    ++size_;
  }
  // The earliest request (next_sm()'s oldest) and its departure.
  Request& front() { return fifo_[static_cast<std::size_t>(next_sm())].front().request; }
  Tick front_departure() const { return heads_.top().first; }
  // Removes front().
  void pop() {
    const std::uint32_t sm = heads_.top().second;
    Fifo& q = fifo_[sm];
    const Tick left = q.front().depart;
    q.pop_front();
    --size_;
    if (q.empty()) {
      heads_.pop();
      return;
    }
    // Behind a request that was delayed (delay_front) the next one leaves no sooner.
    if (q.front().depart < left) q.front().depart = left;
    heads_.replace_top(q.front().depart, sm);
    // The request after it is read when this SM's turn comes again, after the other SMs': its FIFO was
    // written long ago (the outboxes hold megabytes of requests in flight), so it is fetched into the
    // host's cache now.
    q.prefetch_second();
  }
  // front() leaves later than planned, at `depart` (it waited for something at its SM: an MSHR); the
  // SM's requests behind it wait too, so the SM takes its place among the others again.
  void delay_front(Tick depart) {
    const std::uint32_t sm = heads_.top().second;
    Entry& e = fifo_[sm].front();
    SIM_ASSERT(depart >= e.depart, "request of SM " << sm << " delayed to " << depart << ", before " << e.depart);
    e.depart = depart;
    heads_.replace_top(depart, sm);
  }

 private:
  struct Entry {
    Tick depart;
    Request request;
  };
  // A vector read from `head`: its storage is reused once it empties (an SM's outbox empties whenever its
  // port goes idle), and compacted when most of it has been read.
  struct Fifo {
    std::vector<Entry> items;
    std::size_t head = 0;
    bool empty() const { return head == items.size(); }
    Entry& front() { return items[head]; }
    void prefetch_second() const {
      if (head + 1 >= items.size()) return;
      const char* p = reinterpret_cast<const char*>(&items[head + 1]);
      __builtin_prefetch(p);
      __builtin_prefetch(p + sizeof(Entry) - 1);
    }
    void pop_front() {
      if (++head == items.size()) {
        items.clear();
        head = 0;
      } else if (head >= 4096 && 2 * head >= items.size()) {
        items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(head));
        head = 0;
      }
    }
  };
  std::vector<Fifo> fifo_;
  std::vector<Tick> last_;  // per SM: its latest departure pushed (checked: the port's order)
  EventQueue heads_;
  std::size_t size_ = 0;
};

}  // namespace gms
